import Foundation
public import Logging
import PostgresNIO
import ReferenceBackend

/// The real PostgreSQL server the PostgreSQL tests run against: a private cluster that
/// `scripts/postgres.sh start` runs and `make test` exports as `IDKIOSK_POSTGRES_URL`.
public enum PostgresTestEnvironment {
    public static var url: String? {
        ProcessInfo.processInfo.environment["IDKIOSK_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Set by `make test`; in CI the tests always run, so a missing server fails them.
    public static var isAvailable: Bool { url != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    public static let skipReason = "needs a PostgreSQL server: run `make test`, or scripts/postgres.sh start and export IDKIOSK_POSTGRES_URL as it prints"

    public static let logger: Logger = {
        var logger = Logger(label: "test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        return logger
    }()

    /// Runs `body` with the URL of a new, empty database, dropped afterwards: every test
    /// starts from nothing and migrates it itself.
    public static func withDatabase<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        guard let url else { throw TestFailure("IDKIOSK_POSTGRES_URL is not set (\(skipReason))") }
        let name = "idkiosk_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        guard var components = URLComponents(string: url) else { throw TestFailure("IDKIOSK_POSTGRES_URL is not a URL") }
        components.path = "/" + name
        guard let databaseURL = components.string else { throw TestFailure("cannot name the test database") }
        try await admin(url, "CREATE DATABASE \(name)")
        do {
            let value = try await body(databaseURL)
            try await admin(url, "DROP DATABASE \(name) WITH (FORCE)")
            return value
        } catch {
            try? await admin(url, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    /// One statement on the server's administrative database (the URL's own).
    private static func admin(_ url: String, _ sql: String) async throws {
        let client = PostgresClient(configuration: try PostgresURL(url).configuration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { await client.run() }
            defer { tasks.cancelAll() }
            try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }
}
