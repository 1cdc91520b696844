import Backend
import Crypto
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// What the server relies on from its storage, checked the same way on each database.
enum StoreChecks {
    /// Runs `check` with a fresh, migrated store of `storage` on a hand-moved clock.
    static func run(_ storage: TestStorage, _ check: (any ReferenceStore, ManualTime) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = ManualTime()
        try await storage.withStore(directory: directory, now: { time.now }) { try await check($0, time) }
    }

    static func migrationsAreRecordedAndReopeningKeepsData(_ storage: TestStorage) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await storage.withLocation(directory: directory) { location in
            let first = try await location.open(now: { Date() }) { store in
                #expect(try await store.schemaVersion() == storage.latestSchemaVersion)
                return try await store.addClient(name: "kiosk-7")
            }
            // The second opening finds the schema migrated and applies nothing twice.
            try await location.open(now: { Date() }) { (store: any ReferenceStore) async throws in
                #expect(try await store.schemaVersion() == storage.latestSchemaVersion)
                #expect(try await store.listClients().map(\.id) == [first.id])
                #expect(try await store.authenticate(clientId: first.id, secret: first.secret))
            }
        }
    }

    static func clientSecretsAreCheckedAndTokensExpire(_ store: any ReferenceStore, _ time: ManualTime) async throws {
        let station = try await store.addClient(name: "kiosk-1")
        let other = try await store.addClient(name: "kiosk-2")
        #expect(try await store.listClients().map(\.name).sorted() == ["kiosk-1", "kiosk-2"])
        #expect(try await store.authenticate(clientId: station.id, secret: station.secret))
        #expect(try await !store.authenticate(clientId: station.id, secret: other.secret))
        #expect(try await !store.authenticate(clientId: "no-such-client", secret: station.secret))
        #expect(try await store.callbackSecret(clientId: station.id) == Array(station.callbackSecret.utf8))

        let token = try await store.issueToken(clientId: station.id, lifetime: 60)
        #expect(try await store.client(forToken: token) == station.id)
        #expect(try await store.client(forToken: token + "x") == nil)
        time.advance(seconds: 61)
        #expect(try await store.client(forToken: token) == nil)

        let revoked = try await store.issueToken(clientId: station.id, lifetime: 60)
        let kept = try await store.issueToken(clientId: other.id, lifetime: 60)
        try await store.revokeTokens(clientId: station.id)
        #expect(try await store.client(forToken: revoked) == nil)
        #expect(try await store.client(forToken: kept) == other.id)
    }

    static func accountsBelongToTheirClient(_ store: any ReferenceStore, _ time: ManualTime) async throws {
        let station = try await store.addClient(name: "kiosk-1")
        let other = try await store.addClient(name: "kiosk-2")
        let request = Fixtures.account(key: 10013, callbackURL: "https://example.test/cb", tokenLifetime: 600)
        let created = try #require(try await store.initiate(clientId: station.id, request: request, existingAccountId: nil, baseURL: "http://b"))
        #expect(created.workflowExecution.credentials.map(\.category) == [.ID, .FACEMAP])
        let id = try created.credential(.ID)
        #expect(id.api.parts["FRONT"] == "http://b/api/v1/accounts/\(created.account.id)/workflow-executions/\(created.workflowExecution.id)/credentials/\(id.id)/parts/FRONT")

        let row = try #require(try await store.execution(clientId: station.id, accountId: created.account.id, executionId: created.workflowExecution.id))
        #expect(row.status == .INITIATED)
        #expect(row.definitionKey == 10013)
        #expect(row.customerReference == "kiosk-test/0001")
        #expect(row.userReference == "visitor-42")
        #expect(row.callbackURL == "https://example.test/cb")
        #expect(row.tokenExpiresAt == time.now.timeIntervalSince1970 + 600)
        #expect(row.sessionTokenHash == Array(SHA256.hash(data: Array(created.sdk.token.utf8))))
        #expect(row.result == nil && row.completedAt == nil)
        #expect(try await store.credentialCategory(executionId: row.id, credentialId: id.id) == .ID)
        #expect(try await store.credentialCategory(executionId: "other", credentialId: id.id) == nil)

        // Another station sees nothing and changes nothing.
        #expect(try await store.execution(clientId: other.id, accountId: created.account.id, executionId: row.id) == nil)
        var foreign = request
        foreign.customerInternalReference = "someone-else"
        #expect(try await store.initiate(clientId: other.id, request: foreign, existingAccountId: created.account.id, baseURL: "http://b") == nil)
        #expect(try await store.execution(clientId: station.id, accountId: created.account.id, executionId: row.id)?.customerReference == "kiosk-test/0001")

        // The owner's update starts a new execution of the same account with the new references.
        var update = request
        update.customerInternalReference = "kiosk-test/0002"
        let again = try #require(try await store.initiate(clientId: station.id, request: update, existingAccountId: created.account.id, baseURL: "http://b"))
        #expect(again.account.id == created.account.id)
        #expect(again.workflowExecution.id != created.workflowExecution.id)
        let first = try #require(try await store.execution(clientId: station.id, accountId: created.account.id, executionId: row.id))
        #expect(first.customerReference == "kiosk-test/0002")

        try await store.setStatus(executionId: row.id, .TOKEN_EXPIRED)
        #expect(try await store.execution(clientId: station.id, accountId: created.account.id, executionId: row.id)?.status == .TOKEN_EXPIRED)
    }

    static func partsAreStoredOnceWithTheirIdempotentAnswer(_ store: any ReferenceStore, _ time: ManualTime) async throws {
        let station = try await store.addClient(name: "kiosk-1")
        var request = Fixtures.account(key: 10011)
        request.workflowDefinition.credentials = [CredentialFilter(category: .ID, countries: ["UTO"], types: [.PASSPORT])]
        let created = try #require(try await store.initiate(clientId: station.id, request: request, existingAccountId: nil, baseURL: "http://b"))
        let (executionId, credentialId) = (created.workflowExecution.id, try created.credential(.ID).id)
        func put(_ key: String, _ classifier: PartClassifier, _ body: String) async throws {
            try await store.storePart(
                clientId: station.id, key: key, requestHash: Array(key.utf8), executionId: executionId, credentialId: credentialId,
                classifier: classifier, body: Data(body.utf8), answer: Data("answer-\(key)".utf8)
            )
        }
        #expect(try await store.idempotentAnswer(clientId: station.id, key: "key-0001") == nil)
        try await put("key-0001", .mrz, "mrz")
        let answer = try #require(try await store.idempotentAnswer(clientId: station.id, key: "key-0001"))
        #expect(answer.requestHash == Array("key-0001".utf8))
        #expect(answer.status == 200)
        #expect(answer.body == Data("answer-key-0001".utf8))
        #expect(try await store.execution(clientId: station.id, accountId: created.account.id, executionId: executionId)?.status == .ACQUIRED)

        // The same key again (a concurrent duplicate) is refused and stores nothing.
        await #expect(throws: (any Error).self) { try await put("key-0001", .front, "front") }
        #expect(try await store.partCount(executionId: executionId) == 1)

        // A new upload of the same part replaces the body.
        try await put("key-0002", .front, "front-1")
        try await put("key-0003", .front, "front-2")
        let parts = try await store.parts(executionId: executionId)
        #expect(parts.map(\.classifier) == [.front, .mrz])
        #expect(parts.map { String(decoding: $0.body, as: UTF8.self) } == ["front-2", "mrz"])
        #expect(parts.allSatisfy { $0.category == .ID && $0.credentialId == credentialId })
        #expect(parts.first?.filter == CredentialFilter(category: .ID, countries: ["UTO"], types: [.PASSPORT]))
        #expect(try await store.deliveredKeys(clientId: station.id) == ["key-0001", "key-0002", "key-0003"])
        #expect(try await store.partCount(executionId: executionId) == 2)
        // Another client's answers are its own.
        #expect(try await store.idempotentAnswer(clientId: "other", key: "key-0001") == nil)
    }

    static func completionQueuesTheCallbackUntilDelivered(_ store: any ReferenceStore, _ time: ManualTime) async throws {
        let station = try await store.addClient(name: "kiosk-1")
        let created = try #require(try await store.initiate(clientId: station.id, request: Fixtures.account(), existingAccountId: nil, baseURL: "http://b"))
        let executionId = created.workflowExecution.id
        let result = Data(#"{"decision":"PASSED"}"#.utf8)
        try await store.complete(
            executionId: executionId, result: result,
            callback: QueuedCallback(clientId: station.id, url: "https://example.test/cb", body: Data("ids only".utf8))
        )
        let row = try #require(try await store.execution(clientId: station.id, accountId: created.account.id, executionId: executionId))
        #expect(row.status == .PROCESSED)
        #expect(row.result == result)
        #expect(row.completedAt == time.now.timeIntervalSince1970)

        let due = try await store.claimDueCallbacks(limit: 20, lease: .seconds(120))
        #expect(due.map(\.url) == ["https://example.test/cb"])
        #expect(due.first?.attempts == 0 && due.first?.clientId == station.id && due.first?.body == Data("ids only".utf8))
        let callback = try #require(due.first)
        // Claimed: not handed out again while the lease runs; a sender that died leaves it to the next.
        #expect(try await store.claimDueCallbacks(limit: 20, lease: .seconds(120)).isEmpty)
        time.advance(seconds: 121)
        #expect(try await store.claimDueCallbacks(limit: 20, lease: .seconds(120)).map(\.id) == [callback.id])
        try await store.callbackFailed(id: callback.id, retryIn: .seconds(30))
        #expect(try await store.claimDueCallbacks(limit: 20, lease: .seconds(120)).isEmpty)
        #expect(try await store.pendingCallbackCount() == 1)
        time.advance(seconds: 31)
        #expect(try await store.claimDueCallbacks(limit: 20, lease: .seconds(120)).map(\.attempts) == [1])
        try await store.callbackDelivered(id: callback.id)
        #expect(try await store.pendingCallbackCount() == 0)

        // No callback URL: nothing queued.
        let quiet = try #require(try await store.initiate(clientId: station.id, request: Fixtures.account(), existingAccountId: nil, baseURL: "http://b"))
        try await store.complete(executionId: quiet.workflowExecution.id, result: result, callback: nil)
        #expect(try await store.pendingCallbackCount() == 0)
    }
}

@Suite struct SQLiteReferenceStoreTests {
    @Test func migrationsAreRecordedAndReopeningKeepsData() async throws { try await StoreChecks.migrationsAreRecordedAndReopeningKeepsData(.sqlite) }
    @Test func clientSecretsAreCheckedAndTokensExpire() async throws { try await StoreChecks.run(.sqlite, StoreChecks.clientSecretsAreCheckedAndTokensExpire) }
    @Test func accountsBelongToTheirClient() async throws { try await StoreChecks.run(.sqlite, StoreChecks.accountsBelongToTheirClient) }
    @Test func partsAreStoredOnceWithTheirIdempotentAnswer() async throws { try await StoreChecks.run(.sqlite, StoreChecks.partsAreStoredOnceWithTheirIdempotentAnswer) }
    @Test func completionQueuesTheCallbackUntilDelivered() async throws { try await StoreChecks.run(.sqlite, StoreChecks.completionQueuesTheCallbackUntilDelivered) }
}

/// The same checks on a real PostgreSQL server (scripts/postgres.sh), a new database each.
@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, Comment(rawValue: PostgresTestEnvironment.skipReason)))
struct PostgresReferenceStoreIntegrationTests {
    @Test func migrationsAreRecordedAndReopeningKeepsData() async throws { try await StoreChecks.migrationsAreRecordedAndReopeningKeepsData(.postgres) }
    @Test func clientSecretsAreCheckedAndTokensExpire() async throws { try await StoreChecks.run(.postgres, StoreChecks.clientSecretsAreCheckedAndTokensExpire) }
    @Test func accountsBelongToTheirClient() async throws { try await StoreChecks.run(.postgres, StoreChecks.accountsBelongToTheirClient) }
    @Test func partsAreStoredOnceWithTheirIdempotentAnswer() async throws { try await StoreChecks.run(.postgres, StoreChecks.partsAreStoredOnceWithTheirIdempotentAnswer) }
    @Test func completionQueuesTheCallbackUntilDelivered() async throws { try await StoreChecks.run(.postgres, StoreChecks.completionQueuesTheCallbackUntilDelivered) }

    /// Two backend processes (two connection pools) claiming callbacks from one database
    /// at once: every callback goes to exactly one of them.
    @Test func backendsSharingADatabaseClaimEachCallbackOnce() async throws {
        try await PostgresTestEnvironment.withDatabase { url in
            let total = 60
            try await PostgresReferenceStore.run(url: url, logger: PostgresTestEnvironment.logger) { store in
                let station = try await store.addClient(name: "kiosk-1")
                for index in 0..<total {
                    let callback = QueuedCallback(clientId: station.id, url: "https://example.test/\(index)", body: Data())
                    try await store.complete(executionId: "none", result: Data(), callback: callback)
                }
            }
            let claims = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await PostgresReferenceStore.run(url: url, logger: PostgresTestEnvironment.logger) { store in
                            var claimed: [Int64] = []
                            while case let batch = try await store.claimDueCallbacks(limit: 7, lease: .seconds(600)), !batch.isEmpty {
                                claimed += batch.map(\.id)
                            }
                            return claimed
                        }
                    }
                }
                var all: [[Int64]] = []
                for try await claimed in group { all.append(claimed) }
                return all
            }
            let everything = claims.flatMap { $0 }
            #expect(everything.count == total)
            #expect(Set(everything).count == total)
        }
    }

    /// Backends starting together against one new database: the advisory lock lets one migrate.
    @Test func backendsStartingTogetherMigrateOnce() async throws {
        try await PostgresTestEnvironment.withDatabase { url in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await PostgresReferenceStore.run(url: url, logger: PostgresTestEnvironment.logger) { try await $0.schemaVersion() }
                    }
                }
                for try await version in group { #expect(version == PostgresReferenceStore.migrations.count) }
            }
        }
    }
}

@Suite struct PostgresURLTests {
    @Test func urlsAreReadAsLibpqWritesThem() throws {
        let tcp = try PostgresURL("postgres://kiosk:s%40cret@db.example:6543/backend?sslmode=disable")
        #expect(tcp.configuration.host == "db.example")
        #expect(tcp.configuration.port == 6543)
        #expect(tcp.configuration.username == "kiosk")
        #expect(tcp.configuration.password == "s@cret")
        #expect(tcp.configuration.database == "backend")
        #expect(!tcp.redacted.contains("cret"))
        let socket = try PostgresURL("postgresql://kiosk@/backend?host=/run/postgresql&port=5433")
        #expect(socket.configuration.unixSocketPath == "/run/postgresql/.s.PGSQL.5433")
        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL("mysql://kiosk@db/backend") }
        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL("postgres://db/backend") }
        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL("postgres://kiosk@db/backend?sslmode=sometimes") }
        for mode in ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] {
            #expect(throws: Never.self) { try PostgresURL("postgres://kiosk@db/backend?sslmode=\(mode)&sslrootcert=/etc/ssl/db-ca.pem") }
        }
    }
}
