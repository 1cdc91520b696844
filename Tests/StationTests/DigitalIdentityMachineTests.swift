import Backend
import Display
import Foundation
import ScanFlow
@testable import Station
import Testing

/// A Digital Identity at the station by the machine's actions: the hand-off on screen makes
/// the station ask the backend; what the backend says moves the journey on.
@Suite struct DigitalIdentityMachineTests {
    static let provider = DigitalDocument(id: "reference-eid", title: "Reference eID")
    static let url = "https://backend.example/handoff/one-time-TOKEN?provider=reference-eid"
    static let execution = ExecutionRef(accountId: "account-1", workflowExecutionId: "execution-1", sessionToken: "token-1")
    static let response = AccountResponse(
        timestamp: "", account: Ref(id: "account-1"), sdk: .init(token: "token-1"), consentItems: [],
        workflowExecution: .init(id: "execution-1", credentials: [
            CredentialResponse(
                id: "id-1", category: .ID, country: ValueList(["UTO"]), api: .init(parts: [:], workflowExecution: "execution-1"),
                digitalIdentities: [DigitalIdentityOffer(provider: provider.id, title: provider.title, countries: [], handoffUrl: url)])
        ]), dataCenter: .EU)

    /// A journey whose person chose the Digital Identity: the hand-off is on screen.
    static func atHandoff() -> (StationMachine, [StationMachine.Action]) {
        var machine = StationMachine(
            settings: StationLoop.Settings(profile: WorkflowProfile(preset: .digitalIdentity, countries: ["UTO"]), controller: .init()))
        _ = machine.start(now: .zero)
        _ = machine.devicesProbed([DeviceStatus(.camera, available: true), DeviceStatus(.reader, available: true)])
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(1))
        _ = machine.journeyStarted(generation: 1, .success(.online(response)), now: .seconds(1))
        _ = machine.input(.flow(.startCredential(id: "id-1")), from: nil, now: .seconds(2))
        _ = machine.input(.flow(.setDigitalConfiguration(country: "UTO", digitalDocument: provider)), from: nil, now: .seconds(3))
        let actions = machine.input(.flow(.startScanPart(.digital)), from: nil, now: .seconds(3))
        return (machine, actions)
    }

    static func status(_ state: DigitalIdentityStatus.State, attempt: Int = 1) -> Result<DigitalIdentityStatus, BackendError> {
        .success(DigitalIdentityStatus(provider: state == .PENDING ? nil : provider.id, status: state, attempt: attempt))
    }

    static func shown(_ actions: [StationMachine.Action]) -> [DisplayMessage] {
        actions.compactMap { if case .show(let message) = $0 { message } else { nil } }
    }

    @Test func theProfileOffersTheBackendsDigitalIdentityWithItsHandoff() {
        let profile = WorkflowProfile(preset: .digitalIdentity, countries: ["UTO"])
        let request = profile.accountRequest(reference: "kiosk-1")
        #expect(request.workflowDefinition.credentials == [CredentialFilter(category: .ID, countries: ["UTO"], types: [.PASSPORT], digitalIdentity: true)])
        let workflow = profile.workflow(for: Self.response, token: SessionToken("token-1"))
        #expect(workflow.credentials.first?.digitalDocuments == ["UTO": [Self.provider]])
        #expect(workflow.credentials.first?.countries["UTO"] == [Document(.passport, .plastic)])
        #expect(workflow.digitalHandoffs == [DigitalHandoff(provider: Self.provider.id, url: Self.url)])
        // The other presets never ask for one.
        #expect(WorkflowProfile(preset: .passportChipFace).accountRequest(reference: "kiosk-1").workflowDefinition.credentials?.first?.digitalIdentity == nil)
    }

    @Test func theHandoffOnScreenMakesTheStationAskTheBackendUntilTheProviderVerified() {
        var (machine, actions) = Self.atHandoff()
        #expect(Self.shown(actions).contains(.digitalHandoff(DigitalHandoff(provider: Self.provider.id, url: Self.url))))
        #expect(Self.shown(actions).last == .step(.digitalIdentityView(.digital)))
        #expect(actions.contains(.watchHandoff(generation: 1, Self.execution, credentialId: "id-1")))
        #expect(machine.handoffStatus(generation: 1, Self.status(.PENDING), now: .seconds(4)) == [])
        // The phone opened the address: the station waits for the provider.
        let opened = machine.handoffStatus(generation: 1, Self.status(.OPENED), now: .seconds(5))
        #expect(Self.shown(opened) == [.step(.thirdPartyVerification(.digital))])
        // The provider verified: processing, then the part is accepted, and the watch ends.
        let verified = machine.handoffStatus(generation: 1, Self.status(.VERIFIED), now: .seconds(6))
        #expect(Self.shown(verified) == [.step(.processing(.digital))])
        #expect(verified.contains(.stopHandoffWatch))
        #expect(verified.last == .answerLater(generation: 1, .partProcessed(.accepted)))
        let processed = machine.answer(generation: 1, .partProcessed(.accepted), now: .seconds(6))
        #expect(Self.shown(processed).contains(.step(.canFinish(.digital))))
        // A late report of the ended watch changes nothing.
        #expect(machine.handoffStatus(generation: 1, Self.status(.VERIFIED), now: .seconds(7)) == [])
        _ = machine.input(.flow(.finishScanPart), from: nil, now: .seconds(8))
        _ = machine.input(.flow(.finishCredential), from: nil, now: .seconds(8))
        let finish = machine.input(.flow(.finish), from: nil, now: .seconds(8))
        #expect(finish.contains(.enqueue(.finalize(Self.execution))))
    }

    @Test func aFailedAttemptIsRetriedAndTheOldOutcomeIsNotTakenForTheNewOne() {
        var (machine, _) = Self.atHandoff()
        _ = machine.handoffStatus(generation: 1, Self.status(.OPENED), now: .seconds(4))
        let failed = machine.handoffStatus(generation: 1, .success(DigitalIdentityStatus(provider: "reference-eid", status: .FAILED, reason: "NOT_VERIFIED")), now: .seconds(5))
        #expect(Self.shown(failed) == [.step(.retry(.digital, Retry.Reason(code: StationMachine.handoffNotVerified, message: "NOT_VERIFIED")))])
        #expect(failed.contains(.stopHandoffWatch))
        // The person tries again: the hand-off shows again and the station asks again.
        let again = machine.input(.flow(.retake), from: nil, now: .seconds(6))
        #expect(again.contains(.watchHandoff(generation: 1, Self.execution, credentialId: "id-1")))
        // The backend still says attempt 1 failed until the phone opens the address again.
        #expect(machine.handoffStatus(generation: 1, Self.status(.FAILED), now: .seconds(7)) == [])
        #expect(Self.shown(machine.handoffStatus(generation: 1, Self.status(.OPENED, attempt: 2), now: .seconds(8))) == [.step(.thirdPartyVerification(.digital))])
        #expect(Self.shown(machine.handoffStatus(generation: 1, Self.status(.VERIFIED, attempt: 2), now: .seconds(9))) == [.step(.processing(.digital))])
    }

    @Test func declinedAtTheProviderTheCredentialGoesBackToTheSelection() {
        var (machine, _) = Self.atHandoff()
        let declined = machine.handoffStatus(generation: 1, Self.status(.CANCELLED), now: .seconds(4))
        #expect(Self.shown(declined).first == .credentialStarted(id: "id-1", isConfigured: false, parts: []))
        #expect(declined.contains(.stopHandoffWatch))
        // Cancel is the way out at the station.
        let cancelled = machine.input(.flow(.cancel), from: nil, now: .seconds(5))
        let result = Self.shown(cancelled).compactMap { if case .finished(let result) = $0 { result } else { nil } }.first
        #expect(result?.error == .cancelledByUser)
        #expect(cancelled.contains(.wipeOutbox(workflowExecutionId: "execution-1")))
    }

    @Test func anExpiredHandoffEndsTheJourneyWithJ() {
        var (machine, _) = Self.atHandoff()
        let expired = machine.handoffStatus(generation: 1, Self.status(.EXPIRED), now: .seconds(4))
        let result = Self.shown(expired).compactMap { if case .finished(let result) = $0 { result } else { nil } }.first
        #expect(result?.error == StationMachine.handoffExpired)
        #expect(result?.error?.family == .J)
        #expect(expired.contains(.stopHandoffWatch))
        #expect(machine.phase == .result)
    }

    @Test func aBackendThatStaysAwayIsARetryableErrorThatHandsOverAgain() {
        var (machine, _) = Self.atHandoff()
        let away = machine.handoffStatus(generation: 1, .failure(BackendError(.network, call: .digitalIdentity, httpStatus: 503, message: "down")), now: .seconds(4))
        #expect(Self.shown(away) == [.error(FlowError(.A, detail: "520503"))])
        #expect(away.contains(.stopHandoffWatch))
        let retried = machine.input(.flow(.retryAfterError), from: nil, now: .seconds(5))
        #expect(Self.shown(retried).contains(.step(.digitalIdentityView(.digital))))
        #expect(retried.contains(.watchHandoff(generation: 1, Self.execution, credentialId: "id-1")))
        // A backend that forgot the hand-off (404) cannot be waited for: D ends the journey.
        let gone = machine.handoffStatus(generation: 1, .failure(BackendError(.forbidden, call: .digitalIdentity, httpStatus: 404, message: "no hand-off")), now: .seconds(6))
        #expect(Self.shown(gone).contains { if case .finished(let result) = $0 { result.error?.family == .D } else { false } })
    }

    @Test func reportsOfAnotherJourneyOrWithoutAWatchAreDropped() {
        var (machine, _) = Self.atHandoff()
        #expect(machine.handoffStatus(generation: 2, Self.status(.VERIFIED), now: .seconds(4)) == [])
        var idle = StationMachine(settings: StationLoop.Settings(profile: WorkflowProfile(preset: .digitalIdentity)))
        #expect(idle.handoffStatus(generation: 0, Self.status(.VERIFIED), now: .seconds(4)) == [])
    }
}
