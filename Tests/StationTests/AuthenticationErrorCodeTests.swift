import Backend
import Capture
import Display
import ScanFlow
@testable import Station
import Testing

/// An Authentication (seed 004) shows the Authentication SDK's error codes, six characters
/// (`A[x][yyyy]`, `L00000`), where the other journeys show seven: each code the seed
/// defines that the station can hit, as the display (and so a Custom UI) receives it.
/// A and M after finalising come from the backend's answer: AuthenticationStationTests.
@Suite struct AuthenticationErrorCodeTests {
    /// An Authentication station idling with both devices there.
    static func idle() -> StationMachine {
        var controller = Controller.Configuration()
        controller.livenessProviderVersion = 1
        var machine = StationMachine(
            settings: StationLoop.Settings(profile: WorkflowProfile(preset: .authentication), start: [.reference], controller: controller))
        _ = machine.start(now: .zero)
        _ = machine.devicesProbed([StationMachineTests.camera, StationMachineTests.reader])
        return machine
    }

    static let response = AccountResponse(
        timestamp: "", account: Ref(id: "account-1"), sdk: .init(token: "token-1"), consentItems: [],
        workflowExecution: .init(id: "execution-1", credentials: [
            CredentialResponse(id: "face-1", category: .FACEMAP, api: .init(parts: [:], workflowExecution: "execution-1"))
        ]), dataCenter: .EU)

    /// An Authentication journey (generation 1) under way.
    static func authenticating() -> StationMachine {
        var machine = idle()
        _ = machine.input(.station(.startJourney(.enrollment("enrollment-1"))), from: nil, now: .seconds(1))
        _ = machine.journeyStarted(generation: 1, .success(.online(response)), now: .seconds(2))
        return machine
    }

    static func errors(_ actions: [StationMachine.Action]) -> [String] {
        actions.compactMap { action in
            switch action {
            case .show(.error(let error)): error.code
            case .show(.finished(let result)): result.error.map { "finished \($0.code)" }
            default: nil
            }
        }
    }

    /// The backend's refusals before the journey starts, as the seed writes them.
    @Test(arguments: [
        (BackendError(.network, call: .createAccount, httpStatus: 503, message: "busy"), "A20503"),
        (BackendError(.secureConnection, call: .token, message: "untrusted chain"), "B10000"),
        (BackendError(.credentials, call: .token, httpStatus: 401, message: "refused"), "C10401"),
        (BackendError(.forbidden, call: .createAccount, httpStatus: 403, message: "not this station's"), "D20403"),
        (BackendError(.noConnection, call: .token, message: "connect refused"), "E10000"),
        (BackendError(.notConfigured, call: .token, message: "no base URL"), "F00000"),
        (BackendError(.encryptionKeyInvalid, call: .createAccount, httpStatus: 400, message: "key expired"), "I00000"),
        (BackendError(.transactionFinished, call: .createAccount, httpStatus: 410, message: "finished"), "J00000"),
        (BackendError(.referenceInvalid, call: .createAccount, httpStatus: 422, message: "no such enrollment"), "L00000"),
    ])
    func aRefusedStartShowsTheSeedsCode(error: BackendError, code: String) {
        var machine = Self.idle()
        _ = machine.input(.station(.startJourney(.enrollment("enrollment-1"))), from: nil, now: .seconds(1))
        let actions = machine.journeyStarted(generation: 1, .failure(error), now: .seconds(2))
        #expect(Self.errors(actions) == [code])
        #expect(actions.contains(.log(StationMachine.LogLine(
            level: .warning, message: "journey refused: the backend could not start it", metadata: ["code": code]))))
    }

    /// Another journey keeps the seven characters of the 4.x SDK.
    @Test func aVerificationKeepsItsOwnCodes() {
        var machine = StationMachineTests.idle()
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(1))
        let actions = machine.journeyStarted(generation: 1, .failure(BackendError(.referenceInvalid, call: .createAccount, message: "")), now: .seconds(2))
        #expect(Self.errors(actions) == ["L000000"])
    }

    @Test func cancellingIsG00000() {
        var machine = Self.authenticating()
        #expect(Self.errors(machine.input(.flow(.cancel), from: nil, now: .seconds(3))) == ["finished G00000"])
    }

    @Test func theSessionsEndIsJ00000() {
        var machine = Self.authenticating()
        let actions = machine.timerFired(.flow(Timeout(.session, generation: 0)), now: .seconds(900))
        #expect(Self.errors(actions).contains("finished J00000"), "\(Self.errors(actions))")
    }

    @Test func aLostCameraIsH00000() {
        var machine = Self.authenticating()
        _ = machine.input(.flow(.startCredential(id: "face-1")), from: nil, now: .seconds(3))
        _ = machine.input(.flow(.startScanPart(.face)), from: nil, now: .seconds(3))
        let actions = machine.captureEvent(generation: 1, .lost(reason: "unplugged"), now: .seconds(4))
        #expect(Self.errors(actions).contains("finished H00000"), "\(Self.errors(actions))")
    }
}
