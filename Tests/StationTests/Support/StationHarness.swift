import Backend
import Capture
import Display
import Foundation
import KioskTestKit
import Logging
import MRTD
import ReferenceBackend
import ScanFlow
import Station
import VirtualPassport
import Testing

/// A station loop with fake devices against a real reference backend on loopback, with a
/// real outbox file: what `idkiosk serve` wires, minus the hardware and the display server.
struct StationHarness: Sendable {
    static let logger: Logger = {
        var logger = Logger(label: "station-test", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        return logger
    }()

    /// A passport valid until 2034, in the test issuer's country.
    static let mrz = DemoPassport.mrz
    static var chipKey: ChipAccessKey { .mrz(documentNumber: "D23145890", dateOfBirth: "900101", dateOfExpiry: "341231") }

    let loop: StationLoop
    let display: RecordingDisplay
    let autopilot: Autopilot?
    let outbox: Outbox
    let backend: HTTPVerificationBackend<ContinuousClock>
    let store: any ReferenceStore
    let camera: FakeCamera
    let chip: FakeChip
    /// The station's client id at the reference backend.
    let clientId: String
    /// Its client secret, for a configuration file that names it (support-bundle).
    let clientSecret: String
    /// Where the outbox and its key are (`outbox.sqlite`, `outbox.key`).
    let directory: URL

    /// Sends everything due in the outbox to the backend once.
    func drainOutbox() async throws -> Int {
        try await OutboxSender(outbox: outbox, backend: backend, clock: ContinuousClock(), logger: Self.logger).drainOnce()
    }

    struct Options {
        var camera: FakeCamera.Behaviour = .delivers
        var chip: FakeChip.Behaviour = .reads
        var autopilot = true
        var start: [StartTrigger] = [.card, .touch]
        var inactivity: Duration = .seconds(60)
        var grace: Duration = .seconds(15)
        var preset: Configuration.WorkflowPreset = .passportChipFace
        /// The document's MRZ, on its chip (the camera reads ``StationHarness/chipKey`` from it).
        var mrz: [String] = StationHarness.mrz
        var resultScreen: Duration = .milliseconds(200)
        /// Whether the outbox sender runs during the journey (the backend "is up").
        var sender = true
        var decisionWait: Duration = .seconds(10)
        /// The reference backend's face checks (none: NOT_EXECUTED, as without the models).
        var faces: (any FaceVerifier)?
        /// What the camera's face parts show (with a liveness frame and record); nil: the
        /// same picture as every other part, and no liveness evidence.
        var face: [UInt8]?
        /// At an Authentication station, the enrollment each of the autopilot's journeys names.
        var references: [AuthenticationReference] = []
        var journeys = 1
        /// `backend.offline: refuse` with this backend for starting journeys (rechecked every
        /// 50 ms while unreachable) instead of the reference backend.
        var refusingWith: SwitchableBackend?
        /// In `barcode` mode: the bytes the card's back decodes to, and the hints the first
        /// captures of the back report instead.
        var barcode: [UInt8]?
        var backHints: [FlowError] = []
        /// What the reader's document reads as; nil: a test passport without Active or Chip
        /// Authentication, signed by the harness's issuer.
        var chipReading: ChipReading?
        /// The document signer's issuer the backend trusts; nil: one made for the run.
        var issuer: TestIssuer?
        /// The data center the reference backend serves (the station is in EU).
        var backendDataCenter: DataCenter = .EU
        /// The pages of the autopilot's paper document.
        var documentPages = 2
        /// Where the station's parts log (none by default).
        var logger = StationHarness.logger
        /// The loop's metrics (none by default).
        var metrics = StationMetrics()
    }

    /// Runs `body` with a running station and a reference backend that trusts the test issuer.
    static func with<T: Sendable>(_ options: Options = Options(), _ body: (StationHarness) async throws -> T) async throws -> T {
        let logger = options.logger
        let issuer = try options.issuer ?? TestIssuer(signerValidity: 1_600_000_000...2_100_000_000)
        return try await LoopbackBackend.with(configure: { server in
            server.passiveAuthentication = TrustStoreVerifier(trustStore: TrustStore(certificates: [issuer.cscaCertificate]))
            if let faces = options.faces { server.faces = faces }
            if options.preset == .digitalIdentity { server.digitalIdentityProviders = [.simulated] }
            server.dataCenter = options.backendDataCenter
            // The backend offers the test country's documents (the station names none).
            server.countries = ["UTO"]
        }) { reference in
            let keyPath = reference.directory.appendingPathComponent("outbox.key").path
            try OutboxKey.generate(path: keyPath)
            let outbox = try Outbox(
                path: reference.directory.appendingPathComponent("outbox.sqlite").path, key: OutboxKey.load(path: keyPath), logger: logger)
            let backend = reference.client { configuration in
                configuration.retry = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(10), maxDelay: .milliseconds(20))
            }
            let profile = WorkflowProfile(preset: options.preset)
            let starter = if let refusing = options.refusingWith {
                JourneyStarter(
                    backend: refusing, policy: OfflinePolicy(mode: .refuseNewJourneys, recheckInterval: .milliseconds(50)),
                    template: profile.accountRequest(reference: "kiosk-prepared"), logger: logger)
            } else {
                JourneyStarter(
                    backend: backend, policy: OfflinePolicy(mode: .queue, preparedExecutions: 0), template: profile.accountRequest(reference: "kiosk-prepared"),
                    logger: logger)
            }
            let camera = FakeCamera(options.camera, chipKey: chipKey, face: options.face, barcode: options.barcode, backHints: options.backHints, documentPages: options.documentPages)
            let chip = try options.chipReading.map { FakeChip(options.chip, reading: $0) } ?? FakeChip(options.chip, mrz: options.mrz, issuer: issuer)
            let recording = RecordingDisplay()
            let autopilot = options.autopilot
                ? Autopilot(
                    wrapping: recording, journeys: options.journeys, pause: .zero, references: options.references, documentPages: options.documentPages,
                    logger: logger) : nil
            var controller = Controller.Configuration()
            controller.defaultInactivityTimeout = options.inactivity
            controller.inactivityWarningGrace = options.grace
            controller.livenessProviderVersion = 1
            var settings = StationLoop.Settings(
                profile: profile, start: options.start, controller: controller, resultScreen: options.resultScreen,
                decisionWait: options.decisionWait, tick: .milliseconds(50))
            settings.refuseOffline = options.refusingWith != nil
            let loop = StationLoop(
                dependencies: .init(
                    display: autopilot ?? recording, camera: camera, chip: chip, starter: starter, backend: backend, outbox: outbox,
                    metrics: options.metrics),
                settings: settings,
                logger: logger)
            autopilot?.attach(to: loop)
            let harness = StationHarness(
                loop: loop, display: recording, autopilot: autopilot, outbox: outbox, backend: backend, store: reference.store, camera: camera, chip: chip,
                clientId: reference.station.id, clientSecret: reference.station.secret, directory: reference.directory)
            let running = Task { await loop.run() }
            let sender = options.sender
                ? Task {
                    while !Task.isCancelled {
                        _ = try? await harness.drainOutbox()
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                } : nil
            func stop() async {
                sender?.cancel()
                loop.shutdown()
                await running.value
            }
            do {
                let value = try await body(harness)
                await stop()
                return value
            } catch {
                await stop()
                throw error
            }
        }
    }
}
