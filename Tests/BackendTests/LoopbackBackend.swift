import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1
import Backend
import Foundation
import Hummingbird
import HummingbirdTLS
import Logging
import NIOSSL
import ReferenceBackend
import ServiceLifecycle
import Synchronization
import Testing

/// The reference backend's time, moved by tests to expire tokens.
final class ManualTime: Sendable {
    private let date: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { date = Mutex(start) }
    var now: Date { date.withLock { $0 } }
    func advance(seconds: Double) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A reference backend on 127.0.0.1 with an ephemeral port and a temporary SQLite file,
/// and a station client provisioned in it.
struct LoopbackBackend: Sendable {
    let store: any ReferenceStore
    let port: Int
    let station: ProvisionedClient
    let httpClient: HTTPClient
    let faults: FaultPlan
    let time: ManualTime
    let directory: URL
    /// https when the backend serves TLS.
    let scheme: String

    var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    static let logger: Logger = {
        var logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        return logger
    }()

    /// Runs `body` with a fresh backend and stops it afterwards.
    /// - Parameter storage: SQLite in a temporary file, or a new database on the PostgreSQL test server.
    /// - Parameter tls: serve HTTPS with this server configuration instead of HTTP.
    static func with<T: Sendable>(
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
    func client(
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
    func raw(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(body) }
        let response = try await httpClient.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), response.headers, Data(bytes.readableBytesView))
    }

    /// An access token for the station, fetched by hand.
    func token(id: String? = nil, secret: String? = nil) async throws -> String {
        let basic = Data("\(id ?? station.id):\(secret ?? station.secret)".utf8).base64EncodedString()
        let answer = try await raw(.POST, "/oauth2/token", headers: [("Authorization", "Basic \(basic)"), ("Content-Type", "application/x-www-form-urlencoded")],
                                   body: Data("grant_type=client_credentials".utf8))
        return try JSONDecoder().decode(TokenResponse.self, from: answer.body).accessToken
    }
}

/// Where a test's reference backend stores.
enum TestStorage: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Opens a fresh store of this kind, runs `body` with it and removes it afterwards.
    func withStore<T: Sendable>(directory: URL, now: @escaping @Sendable () -> Date, _ body: (any ReferenceStore) async throws -> T) async throws -> T {
        try await withLocation(directory: directory) { location in try await location.open(now: now, body) }
    }

    /// A place for a store of this kind that can be opened more than once (a file, a database).
    func withLocation<T: Sendable>(directory: URL, _ body: (StoreLocation) async throws -> T) async throws -> T {
        switch self {
        case .sqlite: try await body(.sqlite(path: directory.appendingPathComponent("backend.sqlite").path))
        case .postgres: try await PostgresTestEnvironment.withDatabase { try await body(.postgres(url: $0)) }
        }
    }

    /// The schema version a migrated store of this kind is at.
    var latestSchemaVersion: Int {
        switch self {
        case .sqlite: SQLiteReferenceStore.migrations.count
        case .postgres: PostgresReferenceStore.migrations.count
        }
    }
}

enum StoreLocation: Sendable {
    case sqlite(path: String)
    case postgres(url: String)

    /// Opens (and migrates) the store, runs `body` and closes it.
    func open<T: Sendable>(now: @escaping @Sendable () -> Date, _ body: (any ReferenceStore) async throws -> T) async throws -> T {
        switch self {
        case .sqlite(let path):
            try await body(try SQLiteReferenceStore(path: path, now: now))
        case .postgres(let url):
            try await PostgresReferenceStore.run(url: url, logger: PostgresTestEnvironment.logger, now: now) { try await body($0) }
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Fixtures: documents of the ICAO 9303 specimen holder, made valid or expired on purpose.
enum Fixtures {
    /// TD3 with check digits valid and expiry 2034-12-31.
    static let validMRZ = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F3412318ZE184226B<<<<<18"]
    /// The ICAO specimen as printed: expired in 2012.
    static let expiredMRZ = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    /// The valid one with its document number check digit broken.
    static let badCheckDigitMRZ = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C37UTO7408122F3412318ZE184226B<<<<<18"]

    /// A real JPEG of a sharp, well-lit document-like page of this size.
    static func jpeg(width: Int, height: Int) -> Data {
        // Made once per size, under the lock, so parallel tests do not all make it at once.
        jpegs.withLock { cache in
            if let cached = cache["\(width)x\(height)"] { return cached }
            let made = TestImages.jpeg(TestImages.page(width: width, height: height))
            cache["\(width)x\(height)"] = made
            return made
        }
    }

    private static let jpegs = Mutex<[String: Data]>([:])

    /// Only a JPEG header with a start-of-frame of this size: no image to decode.
    static func jpegHeader(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                  0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    static func mrzPart(_ lines: [String]) -> Data {
        try! JSONEncoder().encode(MrzData(lines: lines))
    }

    /// DG1 (template 0x61 holding 0x5F1F) with this MRZ, and the station's verification.
    static func chipPart(_ lines: [String], stationPA: Decision = .PASSED) -> Data {
        let mrz = Array(lines.joined().utf8)
        let inner: [UInt8] = [0x5F, 0x1F, UInt8(mrz.count)] + mrz
        let dg1: [UInt8] = [0x61, UInt8(inner.count)] + inner
        let chip = ChipData(dataGroups: ["DG1": Data(dg1)], stationVerification: .init(passiveAuthentication: stationPA, accessControl: "BAC"))
        return try! JSONEncoder().encode(chip)
    }

    static func account(key: Int = 10015, callbackURL: String? = nil, tokenLifetime: Int? = nil) -> AccountRequest {
        AccountRequest(
            customerInternalReference: "kiosk-test/0001", userReference: "visitor-42", reportingCriteria: "contract-test",
            callbackUrl: callbackURL, tokenLifetime: tokenLifetime,
            workflowDefinition: WorkflowDefinition(key: key, credentials: nil)
        )
    }
}

extension AccountResponse {
    func credential(_ category: CredentialCategory) throws -> CredentialResponse {
        guard let credential = workflowExecution.credentials.first(where: { $0.category == category }) else {
            throw TestFailure("no \(category) credential")
        }
        return credential
    }
}
