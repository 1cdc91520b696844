import Backend
import Capture
import Display
import Foundation
import KioskTestKit
import ReferenceBackend
import ScanFlow
@testable import Station
import Testing

/// What the station checks of the backend's workflow before a journey starts, against
/// something real: the data center and liveness provider version the backend says, the
/// countries it offers; and the backend's URL chosen by the configured data center.
@Suite struct WorkflowChecksTests {
    static func response(dataCenter: DataCenter?, liveness: Int? = nil, countries: [String]? = nil) -> AccountResponse {
        AccountResponse(
            timestamp: "", account: Ref(id: "account-1"), sdk: .init(token: "token-1"), consentItems: [],
            workflowExecution: .init(id: "execution-1", credentials: [
                CredentialResponse(
                    id: "id-1", category: .ID, country: countries.map(ValueList.init), api: .init(parts: [:], workflowExecution: "execution-1")),
                CredentialResponse(id: "face-1", category: .FACEMAP, api: .init(parts: [:], workflowExecution: "execution-1")),
            ]), dataCenter: dataCenter, livenessProviderVersion: liveness)
    }

    static func started(_ response: AccountResponse) -> (StationMachine, [StationMachine.Action]) {
        var machine = StationMachineTests.idle()
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(1))
        let actions = machine.journeyStarted(generation: 1, .success(.online(response)), now: .seconds(2))
        return (machine, actions)
    }

    /// The station is in EU (the machine's configuration).
    @Test(arguments: [DataCenter.US, .SG])
    func aWorkflowOfAnotherDataCenterIsRefusedAndTheStationIdlesAgain(center: DataCenter) {
        var (machine, actions) = Self.started(Self.response(dataCenter: center))
        #expect(actions.filter(\.isShown) == [.show(.error(FlowError(.F, detail: "000010")))])
        #expect(actions.contains { if case .log(let line) = $0 { line.metadata["logicalError"] == "dataCenterValidationFailed" } else { false } })
        #expect(machine.phase == .result)
        #expect(machine.timerFired(.resultOver(generation: 1), now: .seconds(14)).filter(\.isShown) == [.showScreen(.idle(startBy: [.card, .touch]))])
    }

    @Test func aBackendThatDoesNotSayItsDataCenterIsRefused() {
        let (machine, actions) = Self.started(Self.response(dataCenter: nil))
        #expect(actions.contains(.show(.error(FlowError(.F, detail: "000010")))))
        #expect(machine.phase == .result)
    }

    @Test func theSameDataCenterStarts() {
        let (machine, actions) = Self.started(Self.response(dataCenter: .EU))
        #expect(actions.contains { if case .show(.initialized) = $0 { true } else { false } })
        #expect(machine.phase == .journey)
    }

    /// The backend's liveness provider version against the station's liveness capture's.
    @Test func aLivenessProviderOfAnotherVersionIsRefused() {
        #expect(LivenessEvidence.providerVersion == 1)
        let (_, other) = Self.started(Self.response(dataCenter: .EU, liveness: LivenessEvidence.providerVersion + 1))
        #expect(other.contains { if case .log(let line) = $0 { line.metadata["logicalError"] == "dependencyWrongVersion" } else { false } })
        let (same, _) = Self.started(Self.response(dataCenter: .EU, liveness: LivenessEvidence.providerVersion))
        #expect(same.phase == .journey)
        // A station whose face models did not load has no liveness provider.
        var settings = StationMachineTests.machine().settings
        settings.controller.livenessProviderVersion = nil
        var machine = StationMachine(settings: settings)
        _ = machine.start(now: .zero)
        _ = machine.devicesProbed([StationMachineTests.camera, StationMachineTests.reader])
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(1))
        let actions = machine.journeyStarted(
            generation: 1, .success(.online(Self.response(dataCenter: .EU, liveness: LivenessEvidence.providerVersion))), now: .seconds(2))
        #expect(actions.contains(.show(.error(FlowError(.F, detail: "000010")))))
    }

    /// What the backend offers, else the configuration's countries, never an invented one.
    /// Neither the backend nor the configuration offers a country: refused (F000010), not stuck
    /// on an empty choice and not an invented country.
    @Test func aWorkflowWithNoCountryToOfferIsRefused() {
        var machine = StationMachine(settings: StationLoop.Settings(profile: WorkflowProfile(preset: .passportChipFace), controller: {
            var controller = Controller.Configuration()
            controller.livenessProviderVersion = 1
            return controller
        }()))
        _ = machine.start(now: .zero)
        _ = machine.devicesProbed([StationMachineTests.camera, StationMachineTests.reader])
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(1))
        let actions = machine.journeyStarted(generation: 1, .success(.online(Self.response(dataCenter: .EU))), now: .seconds(2))
        #expect(actions.contains(.show(.error(FlowError(.F, detail: "000010")))))
        #expect(actions.contains { if case .log(let line) = $0 { line.metadata["problem"] == "noCountryOffered" } else { false } })
        #expect(machine.phase == .result)
    }

    @Test func theCountriesOfferedAreTheBackendsOrTheConfigurations() throws {
        let token = SessionToken("t")
        let bare = WorkflowProfile(preset: .passportChipFace).workflow(for: Self.response(dataCenter: .EU), token: token)
        let id = try #require(bare.credentials.first { $0.category == .id })
        #expect(id.countries.isEmpty)
        #expect(id.preselection == nil)
        let configured = WorkflowProfile(preset: .passportChipFace, countries: ["AUT"]).workflow(for: Self.response(dataCenter: .EU), token: token)
        #expect(configured.credentials.first { $0.category == .id }?.countries.keys.sorted() == ["AUT"])
        #expect(configured.credentials.first { $0.category == .id }?.preselection?.country == "AUT")
        let offered = WorkflowProfile(preset: .passportChipFace).workflow(for: Self.response(dataCenter: .EU, countries: ["UTO", "D"]), token: token)
        #expect(offered.credentials.first { $0.category == .id }?.countries.keys.sorted() == ["D", "UTO"])
        #expect(offered.dataCenter == .EU)
    }

    /// The reference backend says its data center, the liveness provider version of its face
    /// checks (a face workflow only), and offers its countries where the station names none.
    @Test func theReferenceBackendSaysWhatTheStationChecks() async throws {
        struct VersionedFaces: FaceVerifier {
            func similarity(portrait: [UInt8], face: [UInt8]) -> (decision: Decision, reason: String?) { (.NOT_EXECUTED, nil) }
            func liveness(frames: [Int: [UInt8]], record: Data) -> (decision: Decision, reason: String?) { (.NOT_EXECUTED, nil) }
            var livenessProviderVersion: Int? { 7 }
        }
        try await LoopbackBackend.with(configure: { server in
            server.dataCenter = .SG
            server.countries = ["UTO", "D"]
            server.faces = VersionedFaces()
        }) { backend in
            let client = backend.client()
            let face = try await client.createAccount(WorkflowProfile(preset: .passportChipFace).accountRequest(reference: "kiosk-1"))
            #expect(face.dataCenter == .SG)
            #expect(face.livenessProviderVersion == 7)
            #expect(face.workflowExecution.credentials.first { $0.category == .ID }?.country?.values == ["UTO", "D"])
            let named = try await client.createAccount(WorkflowProfile(preset: .passportChipFace, countries: ["AUT"]).accountRequest(reference: "kiosk-2"))
            #expect(named.workflowExecution.credentials.first { $0.category == .ID }?.country?.values == ["AUT"])
            let idOnly = try await client.createAccount(WorkflowProfile(preset: .fastfill).accountRequest(reference: "kiosk-3"))
            #expect(idOnly.livenessProviderVersion == nil)
        }
        #expect(VisionFaceVerifier.livenessProviderVersion == LivenessEvidence.providerVersion)
    }

    /// A whole journey against a backend in another data center: refused with F, no journey.
    @Test func aStationInEUAgainstAUSBackendRefusesTheJourney() async throws {
        var options = StationHarness.Options()
        options.backendDataCenter = .US
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("error F") { if case .error(let error) = $0 { error.code == "F000010" } else { false } }
            #expect(!station.display.messages.contains { if case .initialized = $0 { true } else { false } })
        }
    }

    @Test func theDataCenterSelectsTheBackendsURL() throws {
        let config = try Configuration.parse("""
            backend:
              data-center: SG
              data-centers:
                EU: https://eu.backend.example
                SG: https://sg.backend.example
            """)
        #expect(config.backend.baseURL == "https://sg.backend.example")
        #expect(StationLoop.Settings(config).controller.dataCenter == .SG)
        // Without the list, backend.url.
        #expect(try Configuration.parse("backend:\n  url: http://10.0.0.5:8480\n  data-center: US\n").backend.baseURL == "http://10.0.0.5:8480")
        for (text, key) in [
            ("backend:\n  data-center: US\n  data-centers:\n    EU: https://eu.backend.example\n", "backend.data-centers"),
            ("backend:\n  url: https://x.example\n  data-centers:\n    EU: https://eu.backend.example\n", "backend.url"),
            ("backend:\n  data-centers:\n    EU: eu.backend.example\n", "backend.data-centers.EU"),
            ("backend:\n  data-centers:\n    MARS: https://mars.backend.example\n", "backend.data-centers.MARS"),
        ] {
            let error = #expect(throws: ConfigurationError.self, "\(text)") { try Configuration.parse(text) }
            #expect(error?.key == key, "\(text)")
        }
    }
}
