public import AsyncHTTPClient
import HTTPTypes
import NIOCore
public import NIOHTTP1
public import Backend
public import Foundation
import Hummingbird
import HummingbirdTLS
public import Logging
public import NIOSSL
public import ReferenceBackend
import ServiceLifecycle
import Synchronization

/// A reference backend on 127.0.0.1 with an ephemeral port and a temporary SQLite file,
/// and a station client provisioned in it.
public struct LoopbackBackend: Sendable {
    public let store: any ReferenceStore
    public let port: Int
    public let station: ProvisionedClient
    public let httpClient: HTTPClient
    public let faults: FaultPlan
    public let time: ManualTime
    public let directory: URL
    /// https when the backend serves TLS.
    public let scheme: String

    public var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    public static let logger: Logger = {
        var logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        return logger
    }()

    /// Runs `body` with a fresh backend and stops it afterwards.
    /// - Parameter storage: SQLite in a temporary file, or a new database on the PostgreSQL test server.
    /// - Parameter tls: serve HTTPS with this server configuration instead of HTTP.
    public static func with<T: Sendable>(
        storage: TestStorage = .sqlite,
        tls: TLSConfiguration? = nil,
        configure: (inout ReferenceServer.Configuration) -> Void = { _ in },
        _ body: (LoopbackBackend) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-backend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = ManualTime()
        return try await storage.withStore(directory: directory, now: { time.now }) { store in
            try await serve(store: store, time: time, directory: directory, tls: tls, configure: configure, body)
        }
    }

    private static func serve<T: Sendable>(
        store: any ReferenceStore, time: ManualTime, directory: URL, tls: TLSConfiguration?,
        configure: (inout ReferenceServer.Configuration) -> Void, _ body: (LoopbackBackend) async throws -> T
    ) async throws -> T {
        let station = try await store.addClient(name: "station-1")
        var configuration = ReferenceServer.Configuration()
        configure(&configuration)
        let faults = FaultPlan()
        let server = ReferenceServer(store: store, configuration: configuration, faults: faults)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let running: @Sendable (Int) async -> Void = { port in
            continuation.yield(port)
            continuation.finish()
        }
        let app: any Service
        if let tls {
            app = Application(
                router: server.makeRouter(), server: try .tls(.http1(), tlsConfiguration: tls),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await running($0.localAddress?.port ?? 0) }, logger: logger
            )
        } else {
            app = server.makeApplication(host: "127.0.0.1", port: 0, logger: logger, onServerRunning: running)
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw TestFailure("server did not start") }
            let backend = LoopbackBackend(
                store: store, port: port, station: station, httpClient: httpClient, faults: faults, time: time, directory: directory,
                scheme: tls == nil ? "http" : "https"
            )
            do {
                let value = try await body(backend)
                try await httpClient.shutdown()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return value
            } catch {
                try? await httpClient.shutdown()
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// A client of this backend; retries are quick so fault tests stay short.
    public func client(
        id: String? = nil, secret: String? = nil, configure: (inout HTTPVerificationBackend<ContinuousClock>.Configuration) -> Void = { _ in }
    ) -> HTTPVerificationBackend<ContinuousClock> {
        var configuration = HTTPVerificationBackend<ContinuousClock>.Configuration(
            baseURL: baseURL, clientId: id ?? station.id, clientSecret: secret ?? station.secret
        )
        configuration.retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(40), maxRetryAfter: .seconds(2))
        configuration.requestTimeout = .seconds(10)
        configure(&configuration)
        return HTTPVerificationBackend(configuration: configuration, httpClient: httpClient, clock: ContinuousClock(), logger: Self.logger, random: { 0.5 })
    }

    /// A raw request, for what the client would never send.
    public func raw(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(body) }
        let response = try await httpClient.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), response.headers, Data(bytes.readableBytesView))
    }

    /// An access token for the station, fetched by hand.
    public func token(id: String? = nil, secret: String? = nil) async throws -> String {
        let basic = Data("\(id ?? station.id):\(secret ?? station.secret)".utf8).base64EncodedString()
        let answer = try await raw(.POST, "/oauth2/token", headers: [("Authorization", "Basic \(basic)"), ("Content-Type", "application/x-www-form-urlencoded")],
                                   body: Data("grant_type=client_credentials".utf8))
        return try JSONDecoder().decode(TokenResponse.self, from: answer.body).accessToken
    }
}

/// Where a test's reference backend stores.
public enum TestStorage: String, Sendable, CaseIterable {
    case sqlite
    case postgres

    /// Opens a fresh store of this kind, runs `body` with it and removes it afterwards.
    public func withStore<T: Sendable>(directory: URL, now: @escaping @Sendable () -> Date, _ body: (any ReferenceStore) async throws -> T) async throws -> T {
        try await withLocation(directory: directory) { location in try await location.open(now: now, body) }
    }

    /// A place for a store of this kind that can be opened more than once (a file, a database).
    public func withLocation<T: Sendable>(directory: URL, _ body: (StoreLocation) async throws -> T) async throws -> T {
        switch self {
        case .sqlite: try await body(.sqlite(path: directory.appendingPathComponent("backend.sqlite").path))
        case .postgres: try await PostgresTestEnvironment.withDatabase { try await body(.postgres(url: $0)) }
        }
    }

    /// The schema version a migrated store of this kind is at.
    public var latestSchemaVersion: Int {
        switch self {
        case .sqlite: SQLiteReferenceStore.migrations.count
        case .postgres: PostgresReferenceStore.migrations.count
        }
    }
}

public enum StoreLocation: Sendable {
    case sqlite(path: String)
    case postgres(url: String)

    /// Opens (and migrates) the store, runs `body` and closes it.
    public func open<T: Sendable>(now: @escaping @Sendable () -> Date, _ body: (any ReferenceStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite(let path):
            try await body(try SQLiteReferenceStore(path: path, now: now))
        case .postgres(let url):
            try await PostgresReferenceStore.run(url: url, logger: PostgresTestEnvironment.logger, now: now) { try await body($0) }
        }
    }
}

