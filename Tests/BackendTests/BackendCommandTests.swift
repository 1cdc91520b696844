import AsyncHTTPClient
import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// The idkiosk-backend binary: provisioning and serving on each storage.
enum BackendCommand {
    static var path: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("idkiosk-backend").path
    }

    /// Runs the command to its end.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// `clients add --json`, `clients list`, then `serve` on a free port: a station's client
    /// creates an account through it, and SIGTERM ends it with status 0.
    /// - Returns: the provisioned client's id.
    @discardableResult
    static func provisionAndServe(storage: [String], environment: [String: String] = [:]) async throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: path), "idkiosk-backend not built next to the tests")
        let added = try run(["clients", "add", "--name", "kiosk-7", "--json"] + storage, environment: environment)
        try #require(added.status == 0, "clients add: \(added.error)")
        let secrets = try JSONDecoder().decode([String: String].self, from: Data(added.output.utf8))
        let clientId = try #require(secrets["clientId"]), secret = try #require(secrets["clientSecret"])
        let listed = try run(["clients", "list"] + storage, environment: environment)
        #expect(listed.output == "\(clientId)\tkiosk-7\n")
        #expect(!listed.output.contains(secret) && !listed.error.contains(secret))

        let server = Process()
        server.executableURL = URL(fileURLWithPath: path)
        server.arguments = ["serve", "--port", "0"] + storage
        server.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
        let port = try await listeningPort(output.fileHandleForReading)

        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let client = HTTPVerificationBackend(
            configuration: .init(baseURL: "http://127.0.0.1:\(port)", clientId: clientId, clientSecret: secret),
            httpClient: httpClient, clock: ContinuousClock(), logger: LoopbackBackend.logger
        )
        let account: Result<AccountResponse, BackendError>
        do throws(BackendError) { account = .success(try await client.createAccount(Fixtures.account())) } catch { account = .failure(error) }
        try await httpClient.shutdown()
        #expect(try account.get().workflowExecution.credentials.isEmpty == false)

        server.terminate()
        server.waitUntilExit()
        #expect(server.terminationReason == .exit && server.terminationStatus == 0)
        return clientId
    }

    /// The port of serve's "listening on N" line.
    static func listeningPort(_ handle: FileHandle) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var text = ""
                while true {
                    let chunk = handle.availableData
                    guard !chunk.isEmpty else { return continuation.resume(throwing: TestFailure("serve ended before listening")) }
                    text += String(decoding: chunk, as: UTF8.self)
                    if let range = text.range(of: "listening on "), let end = text[range.upperBound...].firstIndex(of: "\n"),
                       let port = Int(text[range.upperBound..<end]) {
                        return continuation.resume(returning: port)
                    }
                }
            }
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct BackendCommandTests {
    @Test func provisionsAndServesOnSQLite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await BackendCommand.provisionAndServe(storage: ["--database", directory.appendingPathComponent("backend.sqlite").path])
    }

    @Test func refusesAMalformedDatabaseURL() throws {
        let result = try BackendCommand.run(["clients", "list", "--database-url", "mysql://kiosk@db/backend"])
        #expect(result.status == 64)
        #expect(result.error.contains("--database-url"))
    }
}

@Suite(.enabled(if: PostgresTestEnvironment.isAvailable, Comment(rawValue: PostgresTestEnvironment.skipReason)), .timeLimit(.minutes(2)))
struct PostgresBackendCommandIntegrationTests {
    /// The URL from the environment (the configuration equivalent of --database-url).
    @Test func provisionsAndServesOnPostgreSQL() async throws {
        try await PostgresTestEnvironment.withDatabase { url in
            let clientId = try await BackendCommand.provisionAndServe(storage: [], environment: ["IDKIOSK_BACKEND_DATABASE_URL": url])
            try await Self.expectStored(clientId, in: url)
        }
    }

    @Test func databaseURLOptionSelectsPostgreSQL() async throws {
        try await PostgresTestEnvironment.withDatabase { url in
            let clientId = try await BackendCommand.provisionAndServe(storage: ["--database-url", url])
            try await Self.expectStored(clientId, in: url)
        }
    }

    /// The station is in the PostgreSQL database (and not in a SQLite file by mistake).
    static func expectStored(_ clientId: String, in url: String) async throws {
        let ids = try await PostgresReferenceStore.run(url: url, logger: PostgresTestEnvironment.logger) { try await $0.listClients().map(\.id) }
        #expect(ids == [clientId])
    }
}
