import AsyncHTTPClient
package import Backend
import Capture
import Display
import Flash
import Foundation
public import Logging
import MRTD
import Prometheus
import Synchronization
import ServiceLifecycle

/// `idkiosk serve`: every long-lived part of a station as a Service in one ServiceGroup
/// (DESIGN.md): the reader monitor and chip reader, the camera, the flash, the station loop,
/// the display server, the outbox sender, the journey starter's refill, `/health` and
/// `/metrics`, and systemd's notifications. SIGTERM and SIGINT drain: the journey in
/// progress is cancelled and wiped, the outbox keeps what it holds.
public struct StationApp: Sendable {
    public struct Options: Sendable {
        /// Journeys the built-in scripted person runs (`--autopilot`); 0: none.
        public var autopilotJourneys: Int
        public var autopilotPause: Duration
        /// Called with the display's and the status server's bound ports.
        public var onListening: @Sendable (_ display: Int, _ status: Int) -> Void
        /// Called with what the autopilot saw of its journeys.
        public var onAutopilot: @Sendable (Autopilot.Report) -> Void

        public init(
            autopilotJourneys: Int = 0, autopilotPause: Duration = .milliseconds(700),
            onListening: @escaping @Sendable (Int, Int) -> Void = { _, _ in }, onAutopilot: @escaping @Sendable (Autopilot.Report) -> Void = { _ in }
        ) {
            self.autopilotJourneys = autopilotJourneys
            self.autopilotPause = autopilotPause
            self.onListening = onListening
            self.onAutopilot = onAutopilot
        }
    }

    /// Why the station cannot start: each names the key or file to fix.
    public struct StartError: Error, CustomStringConvertible {
        public var message: String
        public var hint: String
        public var description: String { message }
    }

    let configuration: Configuration
    let options: Options
    let logger: Logger

    public init(configuration: Configuration, options: Options = Options(), logger: Logger) {
        self.configuration = configuration
        self.options = options
        self.logger = logger
    }

    /// The backend client's configuration as `idkiosk serve` uses it (and `diag backend`):
    /// the URL, the client credentials (under systemd the secret comes as a credential,
    /// `LoadCredential=`, readable by this service only), the retries and the SPKI pins.
    package static func backendConfiguration(_ c: Configuration) throws(StartError) -> HTTPVerificationBackend<ContinuousClock>.Configuration {
        let credentials = ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"]
        let credentialSecret = credentials.map { $0 + "/client.secret" }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        let secret = try readSecret(credentialSecret ?? c.backend.clientSecretFile, key: "backend.client-secret-file")
        var configuration = HTTPVerificationBackend<ContinuousClock>.Configuration(baseURL: c.backend.baseURL, clientId: c.backend.clientID, clientSecret: secret)
        configuration.retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(200), maxDelay: .seconds(2))
        if !c.backend.spkiPins.isEmpty {
            do {
                configuration.pinning = try SPKIPinning(
                    base64SHA256: c.backend.spkiPins, trustRoots: c.backend.trustRoots.isEmpty ? .default : .file(c.backend.trustRoots))
            } catch {
                throw StartError(message: "\(error)", hint: "fix backend.spki-pins")
            }
        }
        return configuration
    }

    static func readSecret(_ path: String, key: String) throws(StartError) -> String {
        guard !path.isEmpty else { return "" }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw StartError(message: "cannot read \(key) \(path)", hint: "create it (root-only, mode 600) or fix \(key)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Builds the services and runs them until SIGTERM or SIGINT.
    public func run() async throws {
        let c = configuration
        let registry = PrometheusCollectorRegistry()
        let metrics = StationMetrics(factory: PrometheusMetricsFactory(registry: registry))

        // Backend and outbox.
        let credentials = ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"]
        let backendConfiguration = try Self.backendConfiguration(c)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let backend = HTTPVerificationBackend(configuration: backendConfiguration, httpClient: httpClient, clock: ContinuousClock(), logger: logger)
        let outboxKey: OutboxKey
        do {
            // First start: no outbox yet, so no key either. Make one (root-only); a missing key
            // beside an existing outbox is an error, since that outbox cannot be read without it.
            let credentialKey = credentials.map { $0 + "/outbox.key" }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
            if credentialKey == nil, !FileManager.default.fileExists(atPath: c.backend.outboxKeyFile), !FileManager.default.fileExists(atPath: c.backend.outbox) {
                try FileManager.default.createDirectory(
                    atPath: (c.backend.outboxKeyFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try OutboxKey.generate(path: c.backend.outboxKeyFile)
                logger.notice("outbox key created", metadata: ["path": "\(c.backend.outboxKeyFile)"])
            }
            outboxKey = credentialKey != nil ? try OutboxKey.loadCredential(name: "outbox.key") : try OutboxKey.load(path: c.backend.outboxKeyFile)
        } catch {
            try? await httpClient.shutdown()
            throw StartError(message: "\(error)", hint: "restore the key that belongs to \(c.backend.outbox), or move that outbox aside to start a new one")
        }
        let outbox: Outbox
        do {
            outbox = try Outbox(path: c.backend.outbox, key: outboxKey, logger: logger)
        } catch {
            try? await httpClient.shutdown()
            throw StartError(message: "\(error)", hint: "check backend.outbox; a damaged file was set aside, never deleted")
        }
        let profile = WorkflowProfile(c)
        // An Authentication names its enrollment when it starts: nothing can be prepared for it.
        let policy = OfflinePolicy(
            mode: c.backend.offline == "refuse" ? .refuseNewJourneys : .queue, preparedExecutions: profile.preset == .authentication ? 0 : 5)
        // Prepared executions carry the configured identifiers (no display named any yet).
        let template = (try? TransactionDefaults(c.journey).accountRequest(profile, display: nil, suffix: c.station.name))
            ?? profile.accountRequest(reference: "kiosk-\(c.station.name)")
        let starter = JourneyStarter(backend: backend, policy: policy, template: template, logger: logger)

        // Devices.
        var flash: Flash<ContinuousClock>?
        do {
            let line = try FlashConfiguration(
                chip: c.flash.chip.isEmpty ? nil : c.flash.chip, line: c.flash.line.isEmpty ? nil : c.flash.line,
                maximumOnMilliseconds: c.flash.maximumOnMilliseconds
            ).makeLine()
            flash = Flash(line: line, maximumOn: .milliseconds(c.flash.maximumOnMilliseconds), clock: ContinuousClock(), logger: logger)
        } catch {
            logger.error("flash unavailable: documents are captured without it", metadata: ["error": "\(error)"])
        }
        let preview = PreviewFeed()
        var cameraSettings = CameraCapture.Settings(
            name: c.camera.name, previewFramesPerSecond: c.camera.previewFramesPerSecond, minimumSharpness: Double(c.camera.minimumSharpness))
        c.vision.document.apply(to: &cameraSettings)
        c.vision.face.apply(to: &cameraSettings)
        cameraSettings.modelsFolder = c.vision.models
        cameraSettings.minimumAnalysedFramesPerSecond = c.vision.minimumAnalysedFramesPerSecond
        let camera = CameraCapture(
            settings: cameraSettings,
            flash: flash, preview: preview,
            metrics: metrics, clock: ContinuousClock(), logger: logger)
        var trustStore: TrustStore?
        if FileManager.default.fileExists(atPath: c.chip.trust) {
            do {
                trustStore = try TrustStore(directory: c.chip.trust)
            } catch {
                logger.error("trust store unusable: passive authentication is left to the backend", metadata: ["error": "\(error)"])
            }
        }
        let chip = ChipCapture(
            settings: .init(readerPattern: c.reader.name, exclusive: c.reader.exclusive, transmitTimeout: c.reader.transmitTimeout),
            trustStore: trustStore, metrics: metrics, clock: ContinuousClock(), logger: logger)

        // Display and loop.
        let hub = DisplayHub(logger: logger)
        let hubDisplay = HubDisplay(hub: hub)
        let autopilot = options.autopilotJourneys > 0
            ? Autopilot(wrapping: hubDisplay, journeys: options.autopilotJourneys, pause: options.autopilotPause, logger: logger) : nil
        var loopSettings = StationLoop.Settings(c)
        loopSettings.models = [camera.mrzModelStatus, camera.faceModelStatus]
        if !camera.faceModelStatus.available { loopSettings.controller.livenessProviderVersion = nil }
        let loop = StationLoop(
            dependencies: .init(
                display: autopilot ?? hubDisplay, camera: camera, chip: chip, starter: starter, backend: backend, outbox: outbox, metrics: metrics),
            settings: loopSettings, logger: logger)
        autopilot?.attach(to: loop)

        let token = try Self.readSecret(c.display.tokenFile, key: "display.token-file")
        let theme = c.display.theme.display
        let ports = Ports()
        let displayServer = DisplayServer(
            configuration: .init(
                host: c.display.host, port: c.display.port, token: token.isEmpty ? nil : token, theme: theme,
                logoFile: c.display.theme.logo.isEmpty ? nil : c.display.theme.logo, defaultLanguage: c.display.language),
            hub: hub, preview: PreviewFeedSource(feed: preview), logger: logger
        ) { port in
            ports.display(port, options.onListening)
        }
        let status = StatusServer(loop: loop, outbox: outbox, registry: registry).makeApplication(
            host: c.status.host, port: c.status.port, logger: logger
        ) { port in
            ports.status(port, options.onListening)
        }
        let sender = OutboxSender(outbox: outbox, backend: backend, clock: ContinuousClock(), logger: logger)
        let forwarder = ForwardService(display: hubDisplay, loop: loop)
        let systemd = SystemdService(loop: loop, notifier: SystemdNotifier(), outbox: outbox, logger: logger) { ports.bothListening }
        var services: [any Service] = [StationLoopService(loop: loop), forwarder, displayServer, status, sender, systemd]
        if policy.preparedExecutions > 0 {
            services.append(JourneyStarterRefill(starter: starter, clock: ContinuousClock()))
        }
        let resultTask = autopilot.map { autopilot in
            Task {
                for await report in autopilot.results { options.onAutopilot(report) }
            }
        }
        let group = ServiceGroup(
            configuration: .init(
                services: services.map { .init(service: $0) }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        defer { resultTask?.cancel() }
        // The reader monitor's thread must leave libpcsclite before the process exits (its
        // destructor frees the contexts): stop it on every path; `serve` then waits for it.
        defer { chip.stopWatching() }
        do {
            try await group.run()
        } catch {
            await flash?.shutdown()
            try? await httpClient.shutdown()
            throw error
        }
        await flash?.shutdown()
        try? await outbox.checkpoint()
        try await httpClient.shutdown()
    }
}

/// Forwards display input into the loop for as long as the service runs.
struct ForwardService: Service {
    let display: HubDisplay
    let loop: StationLoop

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await display.forward(to: loop)
        }
    }
}

/// The bound ports, reported once both servers listen.
final class Ports: Sendable {
    private let state = Mutex<(display: Int?, status: Int?)>((nil, nil))

    func display(_ port: Int, _ report: @Sendable (Int, Int) -> Void) {
        let both = state.withLock { s -> (Int, Int)? in
            s.display = port
            return s.status.map { (port, $0) }
        }
        if let both { report(both.0, both.1) }
    }

    func status(_ port: Int, _ report: @Sendable (Int, Int) -> Void) {
        let both = state.withLock { s -> (Int, Int)? in
            s.status = port
            return s.display.map { ($0, port) }
        }
        if let both { report(both.0, both.1) }
    }

    var bothListening: Bool { state.withLock { $0.display != nil && $0.status != nil } }
}
