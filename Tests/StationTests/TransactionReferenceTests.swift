import Backend
import Capture
import Display
import Foundation
import KioskTestKit
import ScanFlow
import Station
import Synchronization
import Testing

/// A journey's transaction identifiers (the seeds' customerInternalReference,
/// userReference, reportingCriteria, callbackUrl): from the display's `startJourney`, else
/// the configuration, else made up by the station; what the backend is asked for.
@Suite struct TransactionReferenceTests {
    static let defaults = TransactionDefaults(
        referencePrefix: "site7", callbackURL: "https://hooks.example.com/kiosk", reportingCriteria: "lobby-east")

    /// Runs a station loop against a backend that records what it is asked, until `done`.
    static func station(_ body: (StationLoop, RecordingDisplay, SwitchableBackend) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("references-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("outbox.key").path
        try OutboxKey.generate(path: keyPath)
        let outbox = try Outbox(path: directory.appendingPathComponent("outbox.sqlite").path, key: OutboxKey.load(path: keyPath), logger: StationHarness.logger)
        let backend = SwitchableBackend()
        let profile = WorkflowProfile(preset: .passportChipFace)
        let starter = JourneyStarter(
            backend: backend, policy: OfflinePolicy(mode: .refuseNewJourneys, preparedExecutions: 0),
            template: profile.accountRequest(reference: "kiosk-prepared"), logger: StationHarness.logger)
        let display = RecordingDisplay()
        var settings = StationLoop.Settings(profile: profile, start: [.touch], resultScreen: .milliseconds(100), tick: .milliseconds(50))
        settings.controller.livenessProviderVersion = 1
        settings.transaction = defaults
        let loop = StationLoop(
            dependencies: .init(
                display: display, camera: FakeCamera(.delivers, chipKey: StationHarness.chipKey, face: nil),
                chip: try FakeChip(.reads, mrz: StationHarness.mrz, issuer: ChipEvidenceTests.issuer), starter: starter, backend: backend, outbox: outbox,
                metrics: StationMetrics()),
            settings: settings, logger: StationHarness.logger)
        let running = Task { await loop.run() }
        do {
            // Bounds against hanging, not timing assertions: the whole suite shares two cores.
            try await display.waitForScreen("idle", limit: .seconds(120)) { if case .idle = $0 { true } else { false } }
            try await body(loop, display, backend)
        } catch {
            loop.shutdown()
            await running.value
            throw error
        }
        loop.shutdown()
        await running.value
    }

    static func firstRequest(_ backend: SwitchableBackend) async throws -> AccountRequest {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(120)
        while clock.now < end {
            if let request = backend.requests.withLock({ $0.first }) { return request }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("no workflow initiation")
    }

    @Test func theDisplaysIdentifiersGoToTheBackend() async throws {
        try await Self.station { loop, _, backend in
            let references = JourneyReferences(
                customerInternalReference: "booking-4711", userReference: "guest-42", callbackURL: "https://hooks.example.com/kiosk/booking?id=4711")
            loop.submit(.station(.startJourney(nil, references: references)))
            let request = try await Self.firstRequest(backend)
            #expect(request.customerInternalReference == "booking-4711")
            #expect(request.userReference == "guest-42")
            #expect(request.callbackUrl == "https://hooks.example.com/kiosk/booking?id=4711")
            #expect(request.reportingCriteria == "lobby-east")
        }
    }

    @Test func withoutThemTheConfigurationsAreUsedAndTheReferenceIsMadeUp() async throws {
        try await Self.station { loop, _, backend in
            loop.submit(.station(.startJourney()))
            let request = try await Self.firstRequest(backend)
            let reference = request.customerInternalReference
            #expect(reference.hasPrefix("site7-"))
            let suffix = reference.dropFirst("site7-".count)
            #expect(suffix.count == 8)
            #expect(suffix.allSatisfy { $0.isHexDigit })
            #expect(request.userReference == nil)
            #expect(request.callbackUrl == "https://hooks.example.com/kiosk")
            #expect(request.reportingCriteria == "lobby-east")
        }
    }

    /// A display does not choose where the backend's callbacks go: a callback URL on another
    /// origin than the configured one refuses the start (M), and nothing is asked of the backend.
    @Test func aDisplaysCallbackOnAnotherOriginIsRefused() async throws {
        try await Self.station { loop, display, backend in
            loop.submit(.station(.startJourney(nil, references: JourneyReferences(callbackURL: "https://attacker.example.net/collect"))))
            try await display.waitForMessage("error M", limit: .seconds(120)) { if case .error(let error) = $0 { error.code == "M200000" } else { false } }
            #expect(backend.requests.withLock { $0.isEmpty })
        }
        let none = TransactionDefaults()
        #expect(throws: BackendError.self) {
            try none.accountRequest(WorkflowProfile(preset: .passportChipFace), display: JourneyReferences(callbackURL: "https://hooks.example.com/x"), suffix: "1")
        }
        // The same origin with another port is another origin.
        #expect(throws: BackendError.self) {
            try Self.defaults.accountRequest(
                WorkflowProfile(preset: .passportChipFace), display: JourneyReferences(callbackURL: "https://hooks.example.com:8443/kiosk"), suffix: "1")
        }
    }

    @Test func theStartCommandCarriesThem() throws {
        let json = #"{"version": 3, "type": "startJourney", "customerInternalReference": "booking-4711", "userReference": "guest-42", "callbackUrl": "https://hooks.example.com/k"}"#
        let input = try DisplayInput(json: Data(json.utf8))
        #expect(input == .station(.startJourney(nil, references: JourneyReferences(
            customerInternalReference: "booking-4711", userReference: "guest-42", callbackURL: "https://hooks.example.com/k"))))
        // Round trip.
        #expect(try JSONDecoder().decode(DisplayInput.self, from: JSONEncoder().encode(input)) == input)
        // Nothing named: no references at all.
        #expect(try DisplayInput(json: Data(#"{"version": 3, "type": "startJourney"}"#.utf8)) == .station(.startJourney()))
        for bad in [
            #"{"version": 3, "type": "startJourney", "callbackUrl": "ftp://hooks.example.com/k"}"#,
            #"{"version": 3, "type": "startJourney", "callbackUrl": "https://user:pw@hooks.example.com/k"}"#,
            #"{"version": 3, "type": "startJourney", "userReference": ""}"#,
            #"{"version": 3, "type": "startJourney", "customerInternalReference": "\#(String(repeating: "x", count: 101))"}"#,
        ] {
            let refusal = #expect(throws: InputRefusal.self, "\(bad)") { try DisplayInput(json: Data(bad.utf8)) }
            #expect(refusal?.reason == .invalidPayload)
        }
        // The description names the fields, never their values.
        #expect(!"\(JourneyReferences(userReference: "guest-42"))".contains("guest-42"))
    }

    @Test func theConfigurationNamesThem() throws {
        let config = try Configuration.parse("""
            journey:
              reference-prefix: site7
              callback-url: https://hooks.example.com/kiosk
              reporting-criteria: lobby-east
            """)
        #expect(TransactionDefaults(config.journey) == Self.defaults)
        #expect(StationLoop.Settings(config).transaction == Self.defaults)
        #expect(TransactionDefaults(try Configuration.parse("").journey) == TransactionDefaults())
        for (text, key) in [
            ("journey:\n  callback-url: hooks.example.com\n", "journey.callback-url"),
            ("journey:\n  reference-prefix: \"a b\"\n", "journey.reference-prefix"),
            ("journey:\n  reporting-criteria: someone@example.com\n", "journey.reporting-criteria"),
        ] {
            let error = #expect(throws: ConfigurationError.self, "\(text)") { try Configuration.parse(text) }
            #expect(error?.key == key)
        }
    }
}
