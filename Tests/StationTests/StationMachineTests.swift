import Backend
import Capture
import Display
import Foundation
import ScanFlow
@testable import Station
import Testing

/// The station's phases by the actions of its state machine (STYLE rule 6): no devices, no
/// backend, no clock; time is a number the test moves.
@Suite struct StationMachineTests {
    static let camera = DeviceStatus(.camera, available: true)
    static let reader = DeviceStatus(.reader, available: true)
    static let key = ChipAccessKey.mrz(documentNumber: "D23145890", dateOfBirth: "900101", dateOfExpiry: "341231")

    static func machine(start: [StartTrigger] = [.card, .touch], useFlash: Bool = true, refuseOffline: Bool = false) -> StationMachine {
        var controller = Controller.Configuration()
        controller.livenessProviderVersion = 1
        var settings = StationLoop.Settings(
            profile: WorkflowProfile(preset: .passportChipFace, countries: ["AUT"]), start: start, controller: controller,
            resultScreen: .seconds(12), useFlash: useFlash)
        settings.refuseOffline = refuseOffline
        return StationMachine(settings: settings)
    }

    /// A machine idling with both devices there.
    static func idle(start: [StartTrigger] = [.card, .touch]) -> StationMachine {
        var machine = machine(start: start)
        _ = machine.start(now: .zero)
        _ = machine.devicesProbed([camera, reader])
        return machine
    }

    static let response = AccountResponse(
        timestamp: "", account: Ref(id: "account-1"), sdk: .init(token: "token-1"), consentItems: [],
        workflowExecution: .init(id: "execution-1", credentials: [
            CredentialResponse(id: "id-1", category: .ID, api: .init(parts: [:], workflowExecution: "execution-1")),
            CredentialResponse(id: "face-1", category: .FACEMAP, api: .init(parts: [:], workflowExecution: "execution-1")),
        ]), dataCenter: .EU)

    /// A machine in a journey (generation 1) that has started the ID credential's front.
    static func scanningFront() -> StationMachine {
        var machine = idle()
        _ = machine.readerPresence(.cardPresent(true), now: .seconds(1))
        _ = machine.journeyStarted(generation: 1, .success(.online(response)), now: .seconds(2))
        _ = machine.input(.flow(.startCredential(id: "id-1")), from: nil, now: .seconds(3))
        _ = machine.input(.flow(.setConfiguration(country: "AUT", document: Document(.passport))), from: nil, now: .seconds(3))
        return machine
    }

    @Test func bootsToIdleOnceTheDevicesWereLookedAt() {
        var machine = Self.machine()
        #expect(machine.phase == .booting)
        #expect(machine.start(now: .zero) == [.probeDevices])
        #expect(machine.devicesProbed([Self.camera, Self.reader]).filter(\.isShown) == [.showScreen(.idle(startBy: [.card, .touch]))])
        #expect(machine.phase == .idle)
        // The heartbeat re-probes between journeys; the same devices again show nothing new.
        // The first idle heartbeat lets the camera watch the empty platen, then every 10 min.
        #expect(machine.tick(now: .seconds(1)) == [.probeDevices, .watchPlaten])
        #expect(machine.lastHeartbeat == .seconds(1))
        #expect(machine.devicesProbed([Self.camera, Self.reader]) == [])
        #expect(machine.tick(now: .seconds(2)) == [.probeDevices])
        #expect(machine.tick(now: .seconds(600)) == [.probeDevices])
        #expect(machine.tick(now: .seconds(601)) == [.probeDevices, .watchPlaten])
    }

    @Test func aMissingDeviceIsOutOfServiceUntilItComesBack() {
        var machine = Self.machine()
        _ = machine.start(now: .zero)
        let missing = DeviceStatus(.camera, available: false, detail: "no video capture device")
        #expect(machine.devicesProbed([missing, Self.reader]).filter(\.isShown) == [.showScreen(.outOfService(devices: [missing]))])
        #expect(machine.phase == .outOfService)
        // Nobody can start a journey on a station out of service.
        #expect(machine.readerPresence(.cardPresent(true), now: .seconds(1)) == [])
        #expect(machine.input(.station(.startJourney()), from: nil, now: .seconds(1)) == [])
        #expect(machine.tick(now: .seconds(2)) == [.probeDevices])
        #expect(machine.devicesProbed([Self.camera, Self.reader]).filter(\.isShown) == [.showScreen(.idle(startBy: [.card, .touch]))])
        #expect(machine.deviceStatus == [Self.camera, Self.reader])
    }

    @Test func theReaderGoingAwayWhileIdleTakesTheStationOutOfService() {
        var machine = Self.idle()
        let actions = machine.readerPresence(.readerAvailable(false), now: .seconds(1))
        guard case .showScreen(.outOfService(let devices)) = actions.last else {
            Issue.record("no out-of-service screen: \(actions)")
            return
        }
        #expect(devices.map(\.device) == [.reader])
        #expect(machine.readerPresence(.readerAvailable(false), now: .seconds(1)) == [])
        #expect(machine.readerPresence(.readerAvailable(true), now: .seconds(2)).filter(\.isShown) == [.showScreen(.idle(startBy: [.card, .touch]))])
    }

    @Test func onlyTheConfiguredTriggersStartAJourney() {
        var machine = Self.idle(start: [.card])
        #expect(machine.input(.station(.startJourney()), from: DisplayClientID(1), now: .seconds(1)) == [])
        let actions = machine.readerPresence(.cardPresent(true), now: .seconds(1))
        #expect(actions.filter(\.isShown) == [.showScreen(.starting)])
        #expect(actions.contains(.requestJourney(generation: 1)))
        #expect(actions.contains(.metric(.journeyStarted)))
        #expect(machine.phase == .starting)
        // A second document while the journey is set up starts nothing.
        #expect(machine.readerPresence(.cardPresent(true), now: .seconds(1)) == [])
    }

    @Test func aCommandWithNoJourneyIsAnsweredToTheDisplayThatSentIt() {
        var machine = Self.idle()
        #expect(machine.input(.flow(.confirm), from: DisplayClientID(7), now: .seconds(1)) == [.answer(.logicalError(.deadController), to: DisplayClientID(7))])
        #expect(machine.input(.flow(.confirm), from: nil, now: .seconds(1)) == [])
    }

    @Test func aRefusedJourneyShowsTheErrorThenIdlesAfterTheResultScreen() {
        var machine = Self.idle()
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(1))
        let down = BackendError(.noConnection, call: .createAccount, message: "connect refused")
        // A late answer for another journey changes nothing.
        #expect(machine.journeyStarted(generation: 0, .failure(down), now: .seconds(2)) == [])
        let actions = machine.journeyStarted(generation: 1, .failure(down), now: .seconds(2))
        #expect(actions.filter(\.isShown) == [.show(.error(down.flowError))])
        #expect(actions.contains(.metric(.journeyEnded(outcome: "refused"))))
        #expect(actions.contains(.schedule(.resultOver(generation: 1), after: .seconds(12))))
        #expect(machine.phase == .result)
        #expect(machine.timerFired(.resultOver(generation: 0), now: .seconds(14)) == [])
        #expect(machine.timerFired(.resultOver(generation: 1), now: .seconds(14)).filter(\.isShown) == [.showScreen(.idle(startBy: [.card, .touch]))])
        // Back to idle: the last person took their document, the platen is watched at once.
        #expect(machine.tick(now: .seconds(15)) == [.probeDevices, .watchPlaten])
    }

    /// `backend.offline: refuse` (docs/operators.md): the person who found the backend away
    /// sees why, then the station is out of service, listing the backend, until a probe finds
    /// it answering again. With `queue` the station idles as before.
    @Test func anUnreachableBackendUnderRefusePutsTheStationOutOfService() {
        var machine = Self.machine(refuseOffline: true)
        _ = machine.start(now: .zero)
        _ = machine.devicesProbed([Self.camera, Self.reader])
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(1))
        let down = BackendError(.noConnection, call: .createAccount, message: "connect refused")
        #expect(machine.journeyStarted(generation: 1, .failure(down), now: .seconds(2)).filter(\.isShown) == [.show(.error(down.flowError))])
        let over = machine.timerFired(.resultOver(generation: 1), now: .seconds(14))
        let backend = DeviceStatus(.backend, available: false, detail: StationMachine.backendUnreachable)
        #expect(over.filter(\.isShown) == [.showScreen(.outOfService(devices: [backend]))])
        #expect(machine.phase == .outOfService)
        // Out of service, a touch starts nothing; the heartbeat probes.
        #expect(machine.input(.station(.startJourney()), from: nil, now: .seconds(15)) == [])
        #expect(machine.tick(now: .seconds(16)) == [.probeDevices])
        #expect(machine.devicesProbed([Self.camera, Self.reader, DeviceStatus(.backend, available: true)]).filter(\.isShown)
            == [.showScreen(.idle(startBy: [.card, .touch]))])

        // Refused for another reason (the station's credentials): no out of service for that.
        let refused = BackendError(.credentials, call: .createAccount, message: "401")
        _ = machine.input(.station(.startJourney()), from: nil, now: .seconds(20))
        _ = machine.journeyStarted(generation: 2, .failure(refused), now: .seconds(21))
        #expect(machine.timerFired(.resultOver(generation: 2), now: .seconds(33)).filter(\.isShown) == [.showScreen(.idle(startBy: [.card, .touch]))])
    }

    /// The backend's consent types are `PASSIVE` and `ACTIVE` (docs/backend-api.yaml): a passive
    /// item stays a notice, an active one needs the person's tap; an unknown type asks for it too.
    @Test func consentTypesFromTheBackendKeepTheirKind() {
        var response = Self.response
        response.consentItems = [
            ConsentItemResponse(id: "privacy", type: "PASSIVE", text: "notice", url: ""),
            ConsentItemResponse(id: "biometrics", type: "ACTIVE", text: "tap", url: ""),
            ConsentItemResponse(id: "odd", type: "SOMETHING", text: "?", url: ""),
        ]
        let workflow = WorkflowProfile(preset: .passportChipFace).workflow(for: response, token: SessionToken("t"))
        #expect(workflow.consentItems?.map(\.type) == [.passive, .active, .active])
    }

    @Test func theFrontIsCapturedWithTheFlashForTheOpenCredentialAndItsUploadAnsweredLater() throws {
        var machine = Self.scanningFront()
        let start = machine.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(4))
        #expect(start.contains(.startCapture(generation: 1, mode: .docFinder, part: .front, useFlash: true)))
        #expect(start.contains(.schedule(.flow(Timeout(.device, generation: 1)), after: .seconds(10))))
        #expect(machine.captureEvent(generation: 1, .started, now: .seconds(5)).contains(.cancelTimer(.flow(.device))))
        let image = CapturedImage(bytes: [0xFF, 0xD8, 0xFF, 0xD9], side: .front, chipAccessKey: Self.key)
        let taken = machine.captureEvent(generation: 1, .image(image, isLastOfSide: true), now: .seconds(6))
        let upload = try #require(taken.compactMap { action -> PartUpload? in
            if case .enqueue(.part(let upload)) = action { upload } else { nil }
        }.first)
        #expect(upload.credentialId == "id-1")
        #expect(upload.classifier == .front)
        #expect(upload.execution.workflowExecutionId == "execution-1")
        #expect(taken.contains(.stopCapture))
        #expect(taken.contains(.metric(.imageCaptured)))
        // "processing" is shown in the batch; the answer is queued behind it, not applied in it.
        #expect(taken.contains(.show(.step(.processing(.front)))))
        #expect(taken.contains(.answerLater(generation: 1, .partProcessed(.accepted))))
        #expect(!taken.contains(.show(.step(.confirmationView(.front)))))
        #expect(machine.answer(generation: 1, .partProcessed(.accepted), now: .seconds(6)).contains(.show(.step(.confirmationView(.front)))))
        // The time between steps is what the metrics see.
        #expect(taken.contains(.metric(.stepDuration(step: "scanView", .seconds(1)))))
    }

    /// The backend announced the camera's whole frames among the ID credential's parts: the
    /// document capture keeps them, the face's does not, and they go up under its classifiers.
    @Test func theFullFrameGoesWithTheCropWhereTheBackendWantsIt() throws {
        var machine = Self.idle()
        var response = Self.response
        response.workflowExecution.credentials[0].api.parts = ["FRONT": "f", "FRONT_FULL_FRAME": "ff", "BACK_FULL_FRAME": "bf"]
        response.workflowExecution.credentials[1].api.parts = ["FACE": "f", "FRONT_FULL_FRAME": "ff"]
        _ = machine.readerPresence(.cardPresent(true), now: .seconds(1))
        _ = machine.journeyStarted(generation: 1, .success(.online(response)), now: .seconds(2))
        _ = machine.input(.flow(.startCredential(id: "id-1")), from: nil, now: .seconds(3))
        _ = machine.input(.flow(.setConfiguration(country: "AUT", document: Document(.passport))), from: nil, now: .seconds(3))
        let start = machine.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(4))
        #expect(start.contains(.startCapture(generation: 1, mode: .docFinder, part: .front, useFlash: true, fullFrame: true)))
        let full = machine.captureEvent(generation: 1, .evidence(.fullFrame(side: .front, jpeg: [0xFF, 0xD8, 0xFF, 0xD9])), now: .seconds(5))
        let upload = try #require(full.compactMap { action -> PartUpload? in
            if case .enqueue(.part(let upload)) = action { upload } else { nil }
        }.first)
        #expect(upload.classifier == .frontFullFrame)
        #expect(upload.credentialId == "id-1")
        // Without it announced (the default response), no full frame is kept.
        var plain = Self.scanningFront()
        #expect(plain.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(4)).contains(.startCapture(generation: 1, mode: .docFinder, part: .front, useFlash: true, fullFrame: false)))
    }

    /// Instant Feedback at the station: an image the capture found unusable is not uploaded;
    /// the person sees the reject view with the seeds' reason and retakes.
    @Test func anImageTheStationRejectsIsNotUploadedAndThePersonSeesWhy() {
        var machine = Self.scanningFront()
        _ = machine.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(4))
        _ = machine.captureEvent(generation: 1, .started, now: .seconds(5))
        let blurred = CapturedImage(bytes: [0xFF, 0xD8, 0xFF, 0xD9], side: .front, rejectReason: .blurry)
        let taken = machine.captureEvent(generation: 1, .image(blurred, isLastOfSide: true), now: .seconds(6))
        #expect(!taken.contains { if case .enqueue = $0 { true } else { false } })
        #expect(taken.contains(.answerLater(generation: 1, .partProcessed(.rejected([.front: .blurry])))))
        let shown = machine.answer(generation: 1, .partProcessed(.rejected([.front: .blurry])), now: .seconds(6))
        #expect(shown.contains(.show(.step(.rejectView([.front: .blurry])))))
    }

    /// An analysis too slow for the camera: the journey switches to the fallback (manual) mode.
    @Test func aTooSlowAnalysisSwitchesToTheFallbackMode() {
        var machine = Self.scanningFront()
        _ = machine.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(4))
        _ = machine.captureEvent(generation: 1, .started, now: .seconds(5))
        let actions = machine.captureEvent(generation: 1, .lowPerformance, now: .seconds(6))
        #expect(actions.contains(.show(.update(.fallback(.lowPerformance)))))
        #expect(actions.contains { if case .startCapture(_, .manual, .front, _, _, _, _) = $0 { true } else { false } })
    }

    @Test func theChipIsReadWithTheFrontsKeyAndALiftedDocumentIsAskedBack() {
        var machine = Self.scanningFront()
        _ = machine.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(4))
        _ = machine.captureEvent(generation: 1, .started, now: .seconds(5))
        _ = machine.captureEvent(generation: 1, .image(CapturedImage(bytes: [1], side: .front, chipAccessKey: Self.key), isLastOfSide: true), now: .seconds(6))
        _ = machine.answer(generation: 1, .partProcessed(.accepted), now: .seconds(6))
        _ = machine.input(.flow(.confirm), from: nil, now: .seconds(7))
        #expect(machine.input(.flow(.finishScanPart), from: nil, now: .seconds(8)).contains(.startChipRead(generation: 1, Self.key)))
        #expect(machine.chipReport(generation: 1, .cardLost, now: .seconds(9)) == [.metric(.deviceReconnect("card")), .showScreen(.documentLifted)])
        #expect(machine.chipReport(generation: 1, .resumed, now: .seconds(10)) == [.showScreen(.documentReturned)])
        let failed = machine.chipDone(generation: 1, .failure(ChipDeviceError(.readerMissing, "pcscd went away")), now: .seconds(11))
        // A reader gone mid-read skips the chip add-on: the journey goes on without it.
        #expect(failed.contains(.stopChipRead))
        #expect(failed.contains(.show(.step(.canFinish(.nfc)))))
        #expect(failed.contains { if case .log(let line) = $0 { line.message == "chip read failed" } else { false } })
    }

    @Test func reportsOfAnEndedJourneyAreDroppedAndItsUnsentPartsWiped() {
        var machine = Self.scanningFront()
        _ = machine.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(4))
        let cancelled = machine.input(.flow(.cancel), from: nil, now: .seconds(5))
        #expect(cancelled.contains(.wipeOutbox(workflowExecutionId: "execution-1")))
        #expect(cancelled.contains(.cancelJourneyTimers))
        #expect(cancelled.contains(.stopCapture))
        #expect(cancelled.contains(.metric(.journeyDuration(.seconds(3)))))
        #expect(cancelled.contains(.schedule(.resultOver(generation: 1), after: .seconds(12))))
        #expect(!cancelled.contains { if case .showScreen(.decision) = $0 { true } else { false } })
        #expect(machine.phase == .result)
        #expect(machine.captureEvent(generation: 1, .started, now: .seconds(6)) == [])
        #expect(machine.chipReport(generation: 1, .started, now: .seconds(6)) == [])
        #expect(machine.answer(generation: 1, .finalized, now: .seconds(6)) == [])
    }

    @Test func aFinalisedJourneyIsKeptForTheOutboxAndItsDecisionAwaited() {
        var machine = Self.scanningFront()
        // The outbox stored the finalisation: the journey is the outbox's to deliver.
        #expect(machine.finalizeQueued() == [.answerLater(generation: 1, .finalized)])
        let ended = machine.input(.flow(.cancel), from: nil, now: .seconds(5))
        #expect(!ended.contains(.wipeOutbox(workflowExecutionId: "execution-1")))
        #expect(ended.contains(.showScreen(.decision(reference: "execution-1", decision: nil))))
        #expect(ended.contains { if case .awaitDecision(let execution) = $0 { execution.workflowExecutionId == "execution-1" } else { false } })
    }

    @Test func anOutboxThatRefusesAPartEndsTheJourneyWithN() {
        var machine = Self.scanningFront()
        let part = OutboxItem.part(PartUpload(
            execution: ExecutionRef(Self.response), credentialId: "id-1", classifier: .front, body: Data([1])))
        let actions = machine.outboxRefused(part, error: "full")
        #expect(actions.last == .answerLater(generation: 1, .sessionFailed(StationMachine.outboxUnusable)))
    }

    @Test func aLostCameraIsReportedToTheJourneyAndRecordedForHealth() {
        var machine = Self.scanningFront()
        _ = machine.input(.flow(.startScanPart(.front)), from: nil, now: .seconds(4))
        let actions = machine.captureEvent(generation: 1, .lost(reason: "unplugged"), now: .seconds(5))
        #expect(actions.contains(.stopCapture))
        #expect(actions.contains(.metric(.deviceReconnect("camera"))))
        #expect(machine.deviceStatus.first { $0.device == .camera } == DeviceStatus(.camera, available: false, detail: "unplugged"))
    }

    @Test func shutdownMidJourneyCancelsWipesAndStops() {
        var machine = Self.scanningFront()
        let actions = machine.shutdown(now: .seconds(5))
        #expect(actions.contains(.wipeOutbox(workflowExecutionId: "execution-1")))
        #expect(actions.last == .stop)
        #expect(machine.phase == .stopped)
        #expect(machine.shutdown(now: .seconds(6)) == [])
        #expect(machine.tick(now: .seconds(7)) == [])
    }
}

extension StationMachine.Action {
    /// Whether the action puts something on the display.
    var isShown: Bool {
        switch self {
        case .show, .showScreen, .answer: true
        default: false
        }
    }
}
