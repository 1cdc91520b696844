import ArgumentParser
import AsyncHTTPClient
import Backend
import Foundation
import Logging
import MRTD
import ReferenceBackend
import Vision
import ServiceLifecycle

/// The reference verification backend: `serve` the API, `clients add` to provision a station.
///
/// Exit codes: 0 success, 1 failure (message on standard error), 64 usage error.
@main
struct IDKioskBackend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idkiosk-backend",
        abstract: "An open verification backend speaking docs/backend-api.yaml.",
        subcommands: [Serve.self, Clients.self]
    )
}

/// Where the backend stores: a SQLite file by default, PostgreSQL when a URL is given.
struct StorageOptions: ParsableArguments {
    /// The configuration equivalent of `--database-url`; it keeps the password out of `ps`.
    static let urlVariable = "IDKIOSK_BACKEND_DATABASE_URL"

    @Option(name: .long, help: "The SQLite database file (created and migrated when needed).")
    var database = "idkiosk-backend.sqlite"
    @Option(name: .long, help: ArgumentHelp(
        "PostgreSQL instead of SQLite: postgres://user:password@host:port/database[?sslmode=disable|prefer|require] (migrated when needed).",
        discussion: "Also read from the environment variable \(StorageOptions.urlVariable), which keeps the password out of the process list."
    ))
    var databaseURL: String?

    var postgresURL: String? {
        databaseURL ?? ProcessInfo.processInfo.environment[Self.urlVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        if let url = postgresURL {
            do { _ = try PostgresURL(url) } catch { throw ValidationError("--database-url: \(error)") }
        }
    }

    /// Opens the configured store (migrating it), runs `body` with it and closes it.
    func withStore<T: Sendable>(logger: Logger, _ body: (any ReferenceStore) async throws -> T) async throws -> T {
        if let url = postgresURL {
            logger.info("storage: PostgreSQL", metadata: ["url": "\((try? PostgresURL(url).redacted) ?? "?")"])
            return try await PostgresReferenceStore.run(url: url, logger: logger) { try await body($0) }
        }
        logger.info("storage: SQLite", metadata: ["path": "\(database)"])
        return try await body(try SQLiteReferenceStore(path: database))
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the API until SIGTERM or SIGINT.")

    @OptionGroup var storage: StorageOptions
    @Option(help: "Address to bind.") var host = "127.0.0.1"
    @Option(help: "Port to bind; 0 picks a free one.") var port = 8080
    @Option(help: "Base URL put into part upload URLs (default: from the request's Host).") var publicURL: String?
    @Option(help: "Access token lifetime in seconds.") var tokenLifetime = 3600
    @Option(help: "RSA private key (PEM) to publish for application-layer encryption; none: uploads are not sealed.")
    var encryptionKey: String?
    @Option(help: "Mean luma (0-255) below which an image is too dark.") var minLuma = ImageQualityThresholds().minimumMeanLuma
    @Option(help: "Mean luma (0-255) above which an image is too bright.") var maxLuma = ImageQualityThresholds().maximumMeanLuma
    @Option(help: "Mean luma (0-255) above which a page of a paper document (PAGE_n) is too bright.")
    var maxPageLuma = ImageQualityThresholds().maximumPageMeanLuma
    @Option(help: "Laplacian variance below which an image is blurred.") var minSharpness = ImageQualityThresholds().minimumSharpness
    @Option(help: "Directory of CSCA certificates (.pem .crt .cer .der, .crl, ICAO .ml) for server-side passive authentication; none: NOT_EXECUTED.")
    var csca: String?
    @Flag(help: "Ask for the camera's whole frames beside the document crops (FRONT_FULL_FRAME, BACK_FULL_FRAME among an ID credential's parts).")
    var fullFrames = false

    @Flag(help: "Offer the simulated Digital Identity provider (its hand-off page lets anyone share an identity): demos and tests only, never in production.")
    var simulatedDigitalIdentity = false
    @Option(help: ArgumentHelp(
        "The consent items of each journey: passive (a notice, accepted by going on), active (a tap of the person's own), both, or none.",
        valueName: "passive|active|both|none"))
    var consent = "passive"
    @Option(help: "The folder of the face models (make vision-models) for similarity and liveness; none: NOT_EXECUTED.")
    var models: String?
    @Option(help: "Face embedding distance below which two faces are one person (dlib's 0.6).")
    var matchThreshold = FaceMatcher.Settings().threshold
    @Option(help: "Distances within this of the threshold are WARNING (staff review): an Authentication takes them as FAILED.")
    var matchReviewBand = FaceMatcher.Settings().reviewBand
    @Option(help: "The data center this backend serves (US, EU, SG); stations registered in another refuse its workflows.")
    var dataCenter = "EU"
    @Option(help: "The countries (ISO 3166-1 alpha-3, comma-separated) an ID credential accepts when the station names none; none: any.")
    var countries: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard tokenLifetime >= 1 else { throw ValidationError("--token-lifetime must be positive") }
        guard (0...255).contains(minLuma), (0...255).contains(maxLuma), minLuma < maxLuma else {
            throw ValidationError("--min-luma and --max-luma must be 0...255, the minimum below the maximum")
        }
        guard (0...255).contains(maxPageLuma), minLuma < maxPageLuma else { throw ValidationError("--max-page-luma must be 0...255, above --min-luma") }
        guard minSharpness >= 0 else { throw ValidationError("--min-sharpness must not be negative") }
        guard ConsentOffer(rawValue: consent) != nil else { throw ValidationError("--consent must be passive, active, both or none") }
        guard DataCenter(rawValue: dataCenter) != nil else { throw ValidationError("--data-center must be US, EU or SG") }
        guard offeredCountries.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isUppercase } }) else {
            throw ValidationError("--countries must be ISO 3166-1 alpha-3 codes such as UTO,D,AUT")
        }
    }

    var offeredCountries: [String] {
        (countries ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() async throws {
        var logger = Logger(label: "idkiosk-backend")
        logger.logLevel = .info
        try await storage.withStore(logger: logger) { store in try await serve(store: store, logger: logger) }
    }

    private func serve(store: any ReferenceStore, logger: Logger) async throws {
        var configuration = ReferenceServer.Configuration(publicBaseURL: publicURL)
        configuration.accessTokenLifetime = tokenLifetime
        configuration.fullFrames = fullFrames
        configuration.digitalIdentityProviders = simulatedDigitalIdentity ? [.simulated] : []
        configuration.consent = ConsentOffer(rawValue: consent) ?? .passive
        configuration.dataCenter = DataCenter(rawValue: dataCenter) ?? .EU
        configuration.countries = offeredCountries
        configuration.imageQuality = ImageQualityThresholds(
            minimumMeanLuma: minLuma, maximumMeanLuma: maxLuma, maximumPageMeanLuma: maxPageLuma, minimumSharpness: minSharpness)
        if let encryptionKey {
            configuration.encryption = try EncryptionKeyring(pem: try String(contentsOfFile: encryptionKey, encoding: .utf8))
        }
        if let csca {
            let trustStore = try TrustStore(directory: csca)
            guard !trustStore.certificates.isEmpty else { throw ValidationError("--csca \(csca) holds no CSCA certificate") }
            configuration.passiveAuthentication = TrustStoreVerifier(trustStore: trustStore)
            logger.info("CSCA trust store loaded", metadata: ["certificates": "\(trustStore.certificates.count)", "crls": "\(trustStore.revocationLists.count)"])
        }
        if let models {
            do {
                let loaded = try FaceModels(folder: models)
                var match = FaceMatcher.Settings()
                match.threshold = matchThreshold
                match.reviewBand = matchReviewBand
                configuration.faces = VisionFaceVerifier(models: loaded, match: match)
                logger.info("face models loaded", metadata: ["milliseconds": "\(Int(loaded.cost.milliseconds))"])
            } catch {
                throw ValidationError("--models: \(error)")
            }
        }
        let server = ReferenceServer(store: store, configuration: configuration)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let app = server.makeApplication(host: host, port: port, logger: logger) { port in
            // Scripts read the bound port from this line.
            FileHandle.standardOutput.write(Data("listening on \(port)\n".utf8))
        }
        let sender = CallbackSender(store: store, httpClient: httpClient, logger: logger)
        let group = ServiceGroup(
            configuration: .init(services: [app, sender], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        do {
            try await group.run()
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }
}

struct Clients: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Provision stations.", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a station; its secrets are shown once and stored hashed.")

        @OptionGroup var storage: StorageOptions
        @Option(help: "A name for the station (no personal data).") var name: String
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let client = try await storage.withStore(logger: quietLogger) { try await $0.addClient(name: name) }
            if json {
                let object = ["clientId": client.id, "clientSecret": client.secret, "callbackSecret": client.callbackSecret]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                print("client id:       \(client.id)")
                print("client secret:   \(client.secret)")
                print("callback secret: \(client.callbackSecret)")
                print("The secrets are shown only now; the database keeps a hash of the client secret.")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List stations (ids and names).")
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            for client in try await storage.withStore(logger: quietLogger, { try await $0.listClients() }) { print("\(client.id)\t\(client.name)") }
        }
    }
}

/// The provisioning commands print only their result; warnings still reach standard error.
let quietLogger: Logger = {
    var logger = Logger(label: "idkiosk-backend")
    logger.logLevel = .warning
    return logger
}()
