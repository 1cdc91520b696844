import Backend
import Crypto
import Foundation
import KioskTestKit
import Logging
import ReferenceBackend
import Synchronization
import Testing

/// A temporary directory with an outbox key in it.
struct OutboxFixture {
    let directory: URL
    let keyPath: String
    var path: String { directory.appendingPathComponent("outbox.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        keyPath = directory.appendingPathComponent("outbox.key").path
        try OutboxKey.generate(path: keyPath)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func open(limits: Outbox.Limits = .init(), now: @escaping @Sendable () -> Date = { Date() }) throws -> Outbox {
        try Outbox(path: path, key: try OutboxKey.load(path: keyPath), limits: limits, logger: LoopbackBackend.logger, now: now)
    }

    static func upload(_ index: Int, marker: String = "PERSONAL-DATA-MARKER") -> PartUpload {
        PartUpload(
            execution: ExecutionRef(accountId: "acc", workflowExecutionId: "we", sessionToken: "SESSION-TOKEN-SECRET"),
            credentialId: "cred", classifier: .liveness(index % 100)!, body: Data("\(marker)-\(index)".utf8), idempotencyKey: "record-\(index)"
        )
    }
}

/// A backend that fails as told, then acknowledges; it records what it got.
final class ScriptedBackend: VerificationBackend {
    private let state: Mutex<(failures: [BackendError], received: [String])>
    init(failures: [BackendError]) { state = Mutex((failures, [])) }
    var received: [String] { state.withLock { $0.received } }

    func uploadPart(_ upload: PartUpload) async throws(BackendError) -> PartResponse {
        let failure = state.withLock { state -> BackendError? in
            state.received.append(upload.idempotencyKey)
            return state.failures.isEmpty ? nil : state.failures.removeFirst()
        }
        if let failure { throw failure }
        return PartResponse(classifier: upload.classifier, usability: CapabilityResult(id: "u", decision: .PASSED))
    }

    func createAccount(_ request: AccountRequest) async throws(BackendError) -> AccountResponse { throw unused }
    func updateAccount(id: String, _ request: AccountRequest) async throws(BackendError) -> AccountResponse { throw unused }
    func finalize(_ execution: ExecutionRef, extractionOnly: Bool) async throws(BackendError) -> StatusResponse { throw unused }
    func status(_ execution: ExecutionRef) async throws(BackendError) -> StatusResponse { throw unused }
    func retrieve(_ execution: ExecutionRef) async throws(BackendError) -> WorkflowExecutionDetails { throw unused }
    func probe() async throws(BackendError) {}
    private var unused: BackendError { BackendError(.notConfigured, call: .status, message: "not scripted") }
}

@Suite struct OutboxTests {
    @Test func recordsRoundTripEncryptedAtRestAndAreWipedOnAcknowledge() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try fixture.open()
        for index in 0..<3 { try await outbox.enqueue(OutboxFixture.upload(index)) }
        try await outbox.enqueue(OutboxFixture.upload(0))  // the same key again: one delivery
        #expect(try await outbox.stats().records == 3)

        let due = try await outbox.due()
        #expect(due.map(\.item) == (0..<3).map { .part(OutboxFixture.upload($0)) })
        try await outbox.checkpoint()
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: fixture.path + suffix))) ?? Data()
            #expect(bytes.range(of: Data("PERSONAL-DATA-MARKER".utf8)) == nil)
            #expect(bytes.range(of: Data("SESSION-TOKEN-SECRET".utf8)) == nil)
        }
        for record in due { try await outbox.acknowledge(record.id) }
        #expect(try await outbox.stats().records == 0)
    }

    @Test func anotherKeyCannotReadTheRecords() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        try await fixture.open().enqueue(OutboxFixture.upload(1))
        let otherKey = OutboxKey(SymmetricKey(size: .bits256))
        let outbox = try Outbox(path: fixture.path, key: otherKey, logger: LoopbackBackend.logger)
        try await outbox.enqueue(OutboxFixture.upload(2))
        // The unreadable record is set apart, not sent, not deleted; the readable one goes on.
        #expect(try await outbox.due().map(\.item) == [.part(OutboxFixture.upload(2))])
        #expect(try await outbox.quarantinedCount() == 1)
        #expect(try await outbox.stats().records == 2)
        #expect(try await outbox.due().count == 1)
    }

    @Test func sizeLimitRefusesAndAgeLimitWipes() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let time = ManualTime()
        let outbox = try fixture.open(limits: .init(maxRecords: 2, maxBytes: 1 << 20, maxAge: .seconds(3600)), now: { time.now })
        try await outbox.enqueue(OutboxFixture.upload(1))
        try await outbox.enqueue(OutboxFixture.upload(2))
        await #expect(throws: OutboxError.full(records: 2, bytes: try await outbox.stats().bytes)) {
            try await outbox.enqueue(OutboxFixture.upload(3))
        }
        time.advance(seconds: 3601)
        #expect(try await outbox.purgeExpired() == 2)
        #expect(try await outbox.stats().records == 0)
    }

    @Test func corruptedDatabaseIsKeptAsideWithAClearError() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: fixture.path))
        do {
            _ = try fixture.open()
            Issue.record("a damaged file was opened")
        } catch let error as OutboxError {
            guard case .corrupted(let path, let keptAt, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(path == fixture.path)
            #expect(FileManager.default.contents(atPath: keptAt) == garbage)
            #expect(!FileManager.default.fileExists(atPath: fixture.path))
            #expect(error.description.contains("kept aside"))
        }
        let fresh = try fixture.open()
        #expect(try await fresh.stats().records == 0)
    }

    @Test func damagedPageInsideAValidDatabaseIsDetected() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        do {
            let outbox = try fixture.open()
            for index in 0..<50 { try await outbox.enqueue(OutboxFixture.upload(index, marker: String(repeating: "x", count: 500))) }
            try await outbox.checkpoint()
        }
        // Overwrite the second page onwards (the table's b-tree) and keep the header.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.path))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 8192))
        try handle.close()
        #expect(throws: OutboxError.self) { _ = try fixture.open() }
        let kept = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).filter { $0.contains(".corrupt-") }
        #expect(!kept.isEmpty)
    }

    @Test func keyFileMustBeReadableOnlyByItsOwner() throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        _ = try OutboxKey.load(path: fixture.keyPath)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: fixture.keyPath)
        #expect(throws: OutboxError.self) { try OutboxKey.load(path: fixture.keyPath) }
        #expect(throws: OutboxError.self) { try OutboxKey.load(path: fixture.keyPath + ".missing") }
        #expect(throws: OutboxError.self) { try OutboxKey.loadCredential(name: "outbox.key", environment: [:]) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fixture.keyPath)
        _ = try OutboxKey.loadCredential(name: "outbox.key", environment: ["CREDENTIALS_DIRECTORY": fixture.directory.path])
    }

    @Test func finalizeWaitsForTheEarlierRecordsOfItsExecution() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try fixture.open()
        let execution = OutboxFixture.upload(0).execution
        var other = OutboxFixture.upload(9)
        other.execution.workflowExecutionId = "another"
        try await outbox.enqueue(OutboxFixture.upload(0))
        try await outbox.enqueue(.finalize(execution))
        try await outbox.enqueue(.finalize(execution))  // one finalize per execution
        try await outbox.enqueue(other)
        #expect(try await outbox.stats().records == 3)

        let first = try await outbox.due()
        #expect(first.map(\.item.kind) == ["part", "part"])
        // The part failed and waits: the finalize still waits for it.
        try await outbox.retryLater(first[0].id, after: .zero)
        #expect(try await outbox.due().map(\.item.kind) == ["part", "part"])
        try await outbox.acknowledge(first[0].id)
        #expect(try await outbox.due().map(\.item) == [.finalize(execution), .part(other)])

        #expect(try await outbox.wipe(workflowExecutionId: execution.workflowExecutionId) == 1)
        #expect(try await outbox.due().map(\.item) == [.part(other)])
    }

    /// The counts a support bundle carries: by kind, by delivery state, journeys and the
    /// oldest's age, read without decrypting (a record another key sealed is counted too).
    @Test func countsByKindAndStateWithoutReadingARecord() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let time = ManualTime()
        let outbox = try fixture.open(now: { time.now })
        var other = OutboxFixture.upload(9)
        other.execution.workflowExecutionId = "another"
        for index in 0..<3 { try await outbox.enqueue(OutboxFixture.upload(index)) }
        try await outbox.enqueue(.finalize(OutboxFixture.upload(0).execution))
        try await outbox.enqueue(other)
        time.advance(seconds: 90)
        let due = try await outbox.due()
        try await outbox.retryLater(due[0].id, after: .seconds(60))
        let counts = try await outbox.counts()
        #expect(counts.records == 5)
        #expect(counts.byKind == ["part": 4, "finalize": 1])
        #expect(counts.byState == ["new": 4, "retrying": 1, "due": 4])
        #expect(counts.journeys == 2)
        #expect(counts.oldestAgeSeconds == 90)
        #expect(counts.bytes == (try await outbox.stats().bytes))
        // Under another key nothing decrypts, and the counts are the same.
        let foreign = try Outbox(path: fixture.path, key: OutboxKey(SymmetricKey(size: .bits256)), logger: LoopbackBackend.logger, now: { time.now })
        #expect(try await foreign.counts() == counts)
        let empty = try OutboxFixture()
        defer { empty.remove() }
        #expect(try await empty.open().counts() == OutboxCounts(records: 0, bytes: 0, oldestAgeSeconds: nil, byKind: [:], byState: ["new": 0, "retrying": 0, "due": 0], journeys: 0))
    }

    /// Fastfill's finalize keeps its `extractionOnly` through the outbox, and a finalize an
    /// older station queued (Swift's enum coding, before the flag existed) still decodes.
    @Test func extractionOnlyFinalizeSurvivesTheOutboxAndOldRecordsStillDecode() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try fixture.open()
        let execution = OutboxFixture.upload(0).execution
        var other = execution
        other.workflowExecutionId = "verification"
        try await outbox.enqueue(.finalize(execution, extractionOnly: true))
        try await outbox.enqueue(.finalize(other))
        #expect(Set(try await outbox.due().map(\.item)) == [.finalize(execution, extractionOnly: true), .finalize(other, extractionOnly: false)])

        let old = #"{"finalize":{"_0":{"accountId":"acc","workflowExecutionId":"we","sessionToken":"t"}}}"#
        let decoded = try JSONDecoder().decode(OutboxItem.self, from: Data(old.utf8))
        #expect(decoded == .finalize(ExecutionRef(accountId: "acc", workflowExecutionId: "we", sessionToken: "t"), extractionOnly: false))
        let oldPart = try JSONEncoder().encode(OutboxItem.part(OutboxFixture.upload(1)))
        #expect(String(decoding: oldPart, as: UTF8.self).hasPrefix(#"{"part":{"_0":"#))
        #expect(try JSONDecoder().decode(OutboxItem.self, from: oldPart) == .part(OutboxFixture.upload(1)))
    }

    @Test func deliveryDecisions() {
        let delivery = OutboxDelivery(backoff: RetryPolicy(maxAttempts: .max, baseDelay: .seconds(1), maxDelay: .seconds(8)))
        #expect(delivery.after(error: nil, attempts: 3, random: 0.5) == .acknowledge)
        #expect(delivery.after(error: BackendError(.noConnection, call: .uploadPart, message: ""), attempts: 2, random: 1) == .retry(after: .seconds(4)))
        #expect(delivery.after(error: BackendError(.network, call: .uploadPart, httpStatus: 503, message: ""), attempts: 10, random: 1) == .retry(after: .seconds(8)))
        #expect(delivery.after(error: BackendError(.credentials, call: .token, httpStatus: 401, message: ""), attempts: 0, random: 0) == .retry(after: .seconds(8)))
        #expect(delivery.after(error: BackendError(.transactionFinished, call: .uploadPart, httpStatus: 410, message: ""), attempts: 0, random: 0) == .discard(code: "transactionFinished.uploadPart.410"))
    }

    @Test func senderKeepsRecordsUntilAcknowledged() async throws {
        let fixture = try OutboxFixture()
        defer { fixture.remove() }
        let outbox = try fixture.open()
        for index in 0..<2 { try await outbox.enqueue(OutboxFixture.upload(index)) }
        let down = BackendError(.noConnection, call: .uploadPart, message: "down")
        let backend = ScriptedBackend(failures: [down, down])
        let sender = OutboxSender(
            outbox: outbox, backend: backend, delivery: OutboxDelivery(backoff: RetryPolicy(maxAttempts: .max, baseDelay: .zero, maxDelay: .zero)),
            clock: ContinuousClock(), logger: LoopbackBackend.logger
        )
        #expect(try await sender.drainOnce() == 0)
        #expect(try await outbox.stats().records == 2)
        #expect(try await sender.drainOnce() == 2)
        #expect(try await outbox.stats().records == 0)
        #expect(backend.received == ["record-0", "record-1", "record-0", "record-1"])
    }
}
