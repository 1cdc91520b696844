import Backend
import Capture
import Display
import Foundation
import Logging
import ScanFlow

/// The station's phases and devices as a value: every event in, the actions to perform out.
///
/// It owns the journey's `ScanFlow.Controller` and turns its actions into the station's
/// (start the camera for this part, queue this upload, show this screen); it holds the
/// generation that tells a late report of an ended journey from a current one, the devices
/// as last seen, and the heartbeat. It does no I/O, never sleeps and reads no clock: time comes
/// in with the events (`now`, the station's monotonic time). ``StationLoop`` performs its
/// actions and feeds back what they produced (DESIGN.md "State machines are values").
struct StationMachine {
    /// What the owner does.
    enum Action: Hashable, Sendable {
        /// A message of the journey, to every display.
        case show(DisplayMessage)
        /// A station screen (idle, starting, out of service, the document's notices, the decision).
        case showScreen(StationScreen)
        /// The answer to one display's command that did not fit (a stale screen).
        case answer(DisplayMessage, to: DisplayClientID)
        /// Ask the backend (through the journey starter) for a journey; answer with `journeyStarted`.
        /// `authentication` names the enrollment of an Authentication; `references` what
        /// the display named of the journey's transaction identifiers.
        case requestJourney(generation: Int, authentication: AuthenticationReference? = nil, references: JourneyReferences? = nil)
        /// Look at the camera and the reader; answer with `devicesProbed`.
        case probeDevices
        /// Let the camera watch the empty station so the finder knows its platen (between journeys).
        case watchPlaten
        /// Run the camera for a part until `stopCapture`; it reports with `captureEvent`.
        /// A face capture compares its best image with `portrait`, the chip's (personal data).
        /// `firstSide` 1 starts a card's capture at its back (resuming there after Z).
        case startCapture(
            generation: Int, mode: Scan.Mode, part: Credential.Part, useFlash: Bool, fullFrame: Bool = false, portrait: [UInt8]? = nil,
            firstSide: Int = 0)
        case stopCapture
        /// The person pressed the shutter.
        case pressShutter
        /// Pause (or resume) detection while a help screen shows.
        case pauseDetection(Bool)
        /// Read the chip; it reports with `chipReport` and ends with `chipDone`.
        case startChipRead(generation: Int, ChipAccessKey)
        case stopChipRead
        /// Ask the backend, until `stopHandoffWatch`, where the credential's Digital Identity
        /// hand-off stands; it reports each change with `handoffStatus`.
        case watchHandoff(generation: Int, ExecutionRef, credentialId: String)
        case stopHandoffWatch
        /// Store a record durably in the outbox; answer with `finalizeQueued` (for a finalisation)
        /// or `outboxRefused`.
        case enqueue(OutboxItem)
        /// Wipe what is queued, unsent, for a workflow execution.
        case wipeOutbox(workflowExecutionId: String)
        /// Ask the backend for the decision for a while and show it when it comes.
        case awaitDecision(ExecutionRef)
        /// An Authentication's outcome comes from the backend's decision: ask for it for a
        /// while and answer with `authenticated`, or `finalizeFailed` when none came.
        case awaitAuthentication(generation: Int, ExecutionRef)
        /// Fire `timerFired` after `after`; it replaces a timer of the same key.
        case schedule(Timer, after: Duration)
        case cancelTimer(Timer.Key)
        /// Cancel every timer of the journey (not the result screen's).
        case cancelJourneyTimers
        /// Handle `answer` after the current batch, so the display sees the batch's own messages first.
        case answerLater(generation: Int, Answer)
        case metric(Metric)
        case log(LogLine)
        /// The loop is over: stop every task and end the event stream.
        case stop
    }

    /// The station's timers.
    enum Timer: Hashable, Sendable {
        /// A timeout the controller asked for.
        case flow(Timeout)
        /// The result screen's time is up.
        case resultOver(generation: Int)

        enum Key: Hashable, Sendable {
            case flow(Timeout.Kind)
            case resultOver
        }

        var key: Key {
            switch self {
            case .flow(let timeout): .flow(timeout.kind)
            case .resultOver: .resultOver
            }
        }
    }

    /// The answer to an action of the current batch, handled after the batch.
    enum Answer: Hashable, Sendable {
        case partProcessed(Controller.PartOutcome)
        case finalized
        /// The backend decided an Authentication; nil: it could not (the journey ends with M).
        case authenticated(JourneyResult.AuthenticationOutcome?)
        case finalizeFailed(FlowError)
        case sessionFailed(FlowError)
        case scanFailed(FlowError)
    }

    /// What the metrics count (``StationMetrics``).
    enum Metric: Hashable, Sendable {
        case journeyStarted
        case journeyEnded(outcome: String)
        case journeyDuration(Duration)
        case stepDuration(step: String, Duration)
        case flashFired
        case imageCaptured
        case deviceReconnect(String)
    }

    /// A line for the log: never personal data (the values are codes, ids and device faults).
    struct LogLine: Hashable, Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String] = [:]
    }

    /// One journey's data: personal data lives here and in the outbox only, and goes with the journey.
    private struct Journey {
        var controller: Controller
        var execution: ExecutionRef
        /// The open credential: the one every part and piece of evidence uploaded now belongs to.
        var credentialID: String?
        /// The part being scanned (the camera's next capture is for it).
        var part: Credential.Part?
        var chip: ChipOutcome?
        /// The credentials whose parts include the camera's whole frames (the backend announced
        /// FRONT_FULL_FRAME or BACK_FULL_FRAME among them).
        var fullFrameCredentials: Set<String> = []
        var finalized = false
        /// A Fastfill journey finalised for extraction only: the backend decides nothing, so
        /// no decision is awaited.
        var extractionOnly = false
        /// An Authentication's enrollment: its outcome waits for the backend's decision.
        var authentication: AuthenticationReference?
        /// The station's face checks, by face credential, for the journey's result.
        var faceChecks: [String: JourneyResult.FaceCheck] = [:]
        var startedAt: Duration
        var step: (name: String, at: Duration)?
        /// Whether the backend is asked about the open credential's Digital Identity hand-off.
        var watchingHandoff = false
        /// The last hand-off attempt whose end the controller heard: a new watch sees it
        /// again until the person opens the hand-off anew.
        var handoffAttemptEnded = 0
    }

    private enum State {
        /// Before the devices were first looked at.
        case booting
        case idle
        case outOfService
        /// A journey is being set up with the backend.
        case starting
        case journey(Journey)
        /// The result screen of the journey that just ended.
        case result
        case stopped
    }

    /// What a technician reads on the out-of-service screen when the backend does not answer.
    static let backendUnreachable = "the verification backend does not answer; new journeys are refused (backend.offline: refuse)"

    /// The outbox cannot keep what the person gave: the journey cannot go on (N, not retryable).
    static let outboxUnusable = FlowError(.N, detail: "000010")
    /// The backend's workflow cannot run at this station (its data center or liveness
    /// provider version is not the station's): resources cannot be loaded (F, kiosk detail).
    static let workflowRefused = FlowError(.F, detail: "000010")

    /// The station's settings (the loop's `tick` and `decisionWait` are the loop's own).
    let settings: StationLoop.Settings
    private var state = State.booting
    private(set) var generation = 0
    private var devices: [DeviceStatus.Device: DeviceStatus] = [:]
    /// When the loop last handled its heartbeat, in the station's time.
    private(set) var lastHeartbeat = Duration.zero
    /// When the camera last watched the empty platen; nil: due at the next idle heartbeat.
    private var platenWatched: Duration?
    /// The enrollment of the Authentication being started, until the backend answers.
    private var startingAuthentication: AuthenticationReference?

    init(settings: StationLoop.Settings) {
        self.settings = settings
    }

    /// Where the station is, for `/health` and `STATUS=`.
    var phase: StationLoop.Phase {
        switch state {
        case .booting: .booting
        case .idle: .idle
        case .outOfService: .outOfService
        case .starting: .starting
        case .journey: .journey
        case .result: .result
        case .stopped: .stopped
        }
    }

    /// The devices as last seen, by name.
    var deviceStatus: [DeviceStatus] { devices.values.sorted { $0.device.rawValue < $1.device.rawValue } }

    // MARK: Events

    /// The loop runs: look at the devices first.
    mutating func start(now: Duration) -> [Action] {
        lastHeartbeat = now
        return [.probeDevices]
    }

    /// What a look at the devices found.
    mutating func devicesProbed(_ statuses: [DeviceStatus]) -> [Action] {
        let before = devices
        for status in statuses { devices[status.device] = status }
        switch state {
        case .booting: return showIdleOrOutOfService()
        case .idle, .outOfService: return before == devices ? [] : showIdleOrOutOfService()
        case .starting, .journey, .result, .stopped: return []
        }
    }

    /// The heartbeat: the loop is alive; between journeys, missing devices are looked at again.
    mutating func tick(now: Duration) -> [Action] {
        lastHeartbeat = now
        switch state {
        case .idle:
            // The platen is watched once idle after boot or a journey (the last person took
            // their document), then every `platenWatchInterval` (the light drifts).
            guard platenWatched.map({ now - $0 >= settings.platenWatchInterval }) ?? true else { return [.probeDevices] }
            platenWatched = now
            return [.probeDevices, .watchPlaten]
        case .outOfService: return [.probeDevices]
        case .booting, .starting, .journey, .result, .stopped: return []
        }
    }

    /// What a display sent; `client` is who gets the answer when it does not fit.
    mutating func input(_ input: DisplayInput, from client: DisplayClientID?, now: Duration) -> [Action] {
        switch input {
        case .station(.startJourney(let reference, let references)):
            guard case .idle = state else { return [] }
            if settings.start.contains(.reference) {
                // An Authentication station: the display names the enrollment.
                guard let reference else {
                    return [.log(LogLine(level: .notice, message: "startJourney without a reference at an Authentication station: ignored"))]
                }
                return startJourney(trigger: "reference", authentication: reference, references: references)
            }
            guard settings.start.contains(.touch) else { return [] }
            return startJourney(trigger: "touch", references: references)
        case .flow(let command):
            guard case .journey(var journey) = state else {
                return client.map { [.answer(.logicalError(.deadController), to: $0)] } ?? []
            }
            let actions = journey.controller.handle(command)
            state = .journey(journey)
            if actions.count == 1, case .display(.logicalError(let error)) = actions[0], let client {
                // A command from a stale screen: only that display hears about it.
                return [.answer(.logicalError(error), to: client)]
            }
            return perform(actions, now: now)
        }
    }

    /// A document placed on or lifted off the reader, or the reader itself coming and going.
    mutating func readerPresence(_ presence: ReaderPresence, now: Duration) -> [Action] {
        switch presence {
        case .readerAvailable(let available):
            let status = DeviceStatus(.reader, available: available, detail: available ? nil : "no contactless reader: check its cable and `idkiosk diag nfc`")
            guard devices[.reader] != status else { return [] }
            devices[.reader] = status
            switch state {
            case .journey: return apply(now: now) { available ? $0.deviceRestored(.reader) : $0.deviceLost(.reader) }
            case .idle, .outOfService: return showIdleOrOutOfService()
            case .booting, .starting, .result, .stopped: return []
            }
        case .cardPresent(true):
            guard case .idle = state, settings.start.contains(.card) else { return [] }
            return startJourney(trigger: "card")
        case .cardPresent(false):
            return []
        }
    }

    /// The backend's answer to `requestJourney`.
    mutating func journeyStarted(generation: Int, _ result: Result<JourneyStarter.Start, BackendError>, now: Duration) -> [Action] {
        guard generation == self.generation, case .starting = state else { return [] }
        let authentication = startingAuthentication
        startingAuthentication = nil
        switch result {
        case .failure(let error):
            // An Authentication shows the Authentication SDK's codes (seed 004).
            let flowError = authentication == nil ? error.flowError : error.flowError.inAuthenticationFormat
            state = .result
            if settings.refuseOffline, error.meansOffline {
                // `backend.offline: refuse`: after this person's screen, the station is out of
                // service until the backend answers again (the probe asks the starter).
                devices[.backend] = DeviceStatus(.backend, available: false, detail: Self.backendUnreachable)
            }
            return [
                .log(LogLine(level: .warning, message: "journey refused: the backend could not start it", metadata: ["code": flowError.code])),
                .metric(.journeyEnded(outcome: "refused")),
                .show(.error(flowError)),
                .schedule(.resultOver(generation: generation), after: settings.resultScreen),
            ]
        case .success(let start):
            let response = start.response
            let execution = ExecutionRef(response)
            var offline = false
            if case .offline = start { offline = true }
            let workflow = settings.profile.workflow(for: response, token: SessionToken(response.sdk.token), authentication: authentication)
            // An ID credential with no country offered (the backend names none, nor does
            // journey.countries) leaves the person nothing to choose: refused, not invented.
            if workflow.credentials.contains(where: { $0.category == .id && $0.countries.isEmpty && $0.digitalDocuments.isEmpty }) {
                return refuseWorkflow(
                    "workflow refused by the station: no country to offer; set journey.countries or the backend's countries",
                    reason: ["problem": "noCountryOffered"], execution: execution, authentication: authentication)
            }
            var controller = Controller(configuration: settings.controller)
            let actions = controller.start(workflow: workflow)
            if actions.count == 1, case .display(.logicalError(let refusal)) = actions[0] {
                // The workflow cannot run here (another data center, a liveness provider of
                // another version, no token): the station is not set up for what the backend
                // started.
                return refuseWorkflow(
                    "workflow refused by the station: check backend.data-center and the face models", reason: ["logicalError": refusal.rawValue],
                    execution: execution, authentication: authentication)
            }
            var journey = Journey(controller: controller, execution: execution, startedAt: now)
            journey.authentication = authentication
            journey.fullFrameCredentials = Set(response.workflowExecution.credentials.filter { credential in
                [PartClassifier.frontFullFrame, .backFullFrame].contains { credential.api.parts[$0.rawValue] != nil }
            }.map(\.id))
            state = .journey(journey)
            let started = Action.log(LogLine(
                level: .info, message: "journey started",
                metadata: ["workflowExecution": execution.workflowExecutionId, "offline": "\(offline)"]))
            return [started] + perform(actions, now: now)
        }
    }

    /// What a running capture reported.
    mutating func captureEvent(generation: Int, _ event: CaptureEvent, now: Duration) -> [Action] {
        guard generation == self.generation, case .journey = state else { return [] }
        switch event {
        case .started:
            devices[.camera] = DeviceStatus(.camera, available: true)
            return apply(now: now) { $0.cameraStarted() }
        case .update(let update):
            var actions: [Action] = []
            if case .flash = update { actions.append(.metric(.flashFired)) }
            return actions + apply(now: now) { $0.scanUpdate(update) }
        case .image(let image, let isLast):
            return [.metric(.imageCaptured)] + apply(now: now) { $0.imageCaptured(image, isLastOfSide: isLast) }
        case .evidence(let evidence):
            if case .liveness(let record) = evidence { noteFaceCheck(record) }
            guard let upload = evidence.upload else { return [] }
            return enqueue(classifier: upload.classifier, body: upload.body)
        case .lowPerformance:
            return [.log(LogLine(level: .warning, message: "automatic capture given up: the fallback mode takes over"))]
                + apply(now: now) { $0.lowPerformance() }
        case .scanFailed(let error):
            return [.log(LogLine(level: .info, message: "the document shown cannot be taken", metadata: ["code": error.code]))]
                + apply(now: now) { $0.scanFailed(error) }
        case .lost(let reason):
            devices[.camera] = DeviceStatus(.camera, available: false, detail: reason)
            return [
                .log(LogLine(level: .error, message: "camera lost", metadata: ["reason": reason])),
                .metric(.deviceReconnect("camera")),
                .stopCapture,
            ] + apply(now: now) { $0.deviceLost(.camera) }
        }
    }

    /// What a running chip read reported.
    mutating func chipReport(generation: Int, _ report: ChipReport, now: Duration) -> [Action] {
        guard generation == self.generation, case .journey = state else { return [] }
        switch report {
        case .waitingForCard: return []
        case .started: return apply(now: now) { $0.chipReadStarted() }
        case .progress(let percent, _): return apply(now: now) { $0.chipReadProgress(percent) }
        case .cardLost: return [.metric(.deviceReconnect("card")), .showScreen(.documentLifted)]
        case .resumed: return [.showScreen(.documentReturned)]
        }
    }

    /// A chip read ended.
    mutating func chipDone(generation: Int, _ result: Result<ChipOutcome, ChipDeviceError>, now: Duration) -> [Action] {
        guard generation == self.generation, case .journey(var journey) = state else { return [] }
        switch result {
        case .success(let outcome):
            journey.chip = outcome
            state = .journey(journey)
            return [.log(LogLine(level: .info, message: "chip read", metadata: ["result": outcome.summary]))] + apply(now: now) { $0.chipReadFinished() }
        case .failure(let error):
            let log = Action.log(LogLine(level: .warning, message: "chip read failed", metadata: ["error": "\(error)"]))
            if error.kind == .readerMissing { return [log] + apply(now: now) { $0.deviceLost(.reader) } }
            if error.kind == .accessDenied { return [log] + apply(now: now) { $0.chipRefusedKey() } }
            return [log] + apply(now: now) { $0.chipUnreadable() }
        }
    }

    /// Where the Digital Identity hand-off stands, as the backend said; a failure after the
    /// watch's own retries ends the part with the backend error's code.
    mutating func handoffStatus(generation: Int, _ result: Result<DigitalIdentityStatus, BackendError>, now: Duration) -> [Action] {
        guard generation == self.generation, case .journey(var journey) = state, journey.watchingHandoff else { return [] }
        let status: DigitalIdentityStatus
        switch result {
        case .failure(let error):
            journey.watchingHandoff = false
            state = .journey(journey)
            return [
                .log(LogLine(level: .warning, message: "Digital Identity hand-off unknown to the backend", metadata: ["error": error.code])),
                .stopHandoffWatch,
            ] + apply(now: now) { $0.thirdPartyFinished(.error(error.flowError)) }
        case .success(let answer):
            status = answer
        }
        // The end of an attempt the controller already heard (a watch that started again).
        if status.status.isFinal, status.attempt <= journey.handoffAttemptEnded { return [] }
        if status.status.isFinal {
            journey.handoffAttemptEnded = status.attempt
            state = .journey(journey)
        }
        let log = Action.log(LogLine(
            level: .info, message: "Digital Identity hand-off", metadata: ["status": status.status.rawValue, "attempt": "\(status.attempt)"]))
        switch status.status {
        case .PENDING:
            return []
        case .OPENED:
            return [log] + apply(now: now) { $0.thirdPartySessionOpened() }
        case .VERIFIED:
            // The backend holds the provider's data for the credential: the part is processed.
            let actions = apply(now: now) { $0.thirdPartyFinished(.success) }
            return [log] + actions + [.answerLater(generation: generation, .partProcessed(.accepted))]
        case .FAILED:
            let reason = Retry.Reason(code: Self.handoffNotVerified, message: status.reason ?? "NOT_VERIFIED")
            return [log] + apply(now: now) { $0.thirdPartyFinished(.failed(reason)) }
        case .CANCELLED:
            return [log] + apply(now: now) { $0.thirdPartyFinished(.cancelled) }
        case .EXPIRED:
            return [log] + apply(now: now) { $0.thirdPartyFinished(.error(Self.handoffExpired)) }
        }
    }

    /// The retry code when the provider could not verify the person.
    static let handoffNotVerified = 3001
    /// The hand-off's address expired before the person finished: it cannot be used again (J).
    static let handoffExpired = FlowError(.J, detail: "520410")

    /// A workflow nobody can go on with at this station: say so (F000010) and idle again.
    private mutating func refuseWorkflow(
        _ message: String, reason: [String: String], execution: ExecutionRef, authentication: AuthenticationReference?
    ) -> [Action] {
        let error = authentication == nil ? Self.workflowRefused : Self.workflowRefused.inAuthenticationFormat
        state = .result
        return [
            .log(LogLine(
                level: .error, message: message,
                metadata: reason.merging(["workflowExecution": execution.workflowExecutionId, "code": error.code]) { first, _ in first })),
            .metric(.journeyEnded(outcome: "refused")),
            .show(.error(error)),
            .schedule(.resultOver(generation: generation), after: settings.resultScreen),
        ]
    }

    /// A timer ran out.
    mutating func timerFired(_ timer: Timer, now: Duration) -> [Action] {
        switch timer {
        case .flow(let timeout):
            guard case .journey = state else { return [] }
            return apply(now: now) { $0.timeoutFired(timeout) }
        case .resultOver(let generation):
            guard generation == self.generation, case .result = state else { return [] }
            return showIdleOrOutOfService()
        }
    }

    /// The answer to an action of an earlier batch.
    mutating func answer(generation: Int, _ answer: Answer, now: Duration) -> [Action] {
        guard generation == self.generation, case .journey = state else { return [] }
        switch answer {
        case .partProcessed(let outcome): return apply(now: now) { $0.partProcessed(outcome) }
        case .finalized: return apply(now: now) { $0.finalized() }
        case .authenticated(let outcome): return apply(now: now) { $0.finalized(outcome) }
        case .finalizeFailed(let error): return apply(now: now) { $0.finalizeFailed(error) }
        case .sessionFailed(let error): return apply(now: now) { $0.sessionFailed(error) }
        case .scanFailed(let error): return apply(now: now) { $0.scanFailed(error) }
        }
    }

    /// The outbox stored the journey's finalisation: from now on the journey is the outbox's to deliver.
    mutating func finalizeQueued() -> [Action] {
        guard case .journey(var journey) = state else { return [] }
        journey.finalized = true
        state = .journey(journey)
        // An Authentication ends with the backend's yes or no, so it waits for the decision.
        if journey.authentication != nil { return [.awaitAuthentication(generation: generation, journey.execution)] }
        return [.answerLater(generation: generation, .finalized)]
    }

    /// The outbox refused a record.
    mutating func outboxRefused(_ item: OutboxItem, error: String) -> [Action] {
        guard case .journey = state else { return [] }
        switch item {
        case .part(let upload):
            return [
                .log(LogLine(level: .error, message: "outbox refused a part", metadata: ["error": error, "classifier": "\(upload.classifier)"])),
                .answerLater(generation: generation, .sessionFailed(Self.outboxUnusable)),
            ]
        case .finalize:
            return [
                .log(LogLine(level: .error, message: "outbox refused the finalisation", metadata: ["error": error])),
                .answerLater(generation: generation, .finalizeFailed(Self.outboxUnusable)),
            ]
        }
    }

    /// The loop is asked to end: a journey in progress is cancelled and wiped; the outbox keeps what it holds.
    mutating func shutdown(now: Duration) -> [Action] {
        if case .stopped = state { return [] }
        var actions: [Action] = []
        if case .journey = state {
            actions.append(.log(LogLine(level: .notice, message: "shutting down mid-journey: the journey is cancelled and wiped")))
            actions += apply(now: now) { $0.cancel() }
        }
        actions += endJourney(now: now, stopping: true)
        state = .stopped
        return actions + [.stop]
    }

    // MARK: Journeys

    private mutating func startJourney(trigger: String, authentication: AuthenticationReference? = nil, references: JourneyReferences? = nil) -> [Action] {
        generation += 1
        state = .starting
        startingAuthentication = authentication
        return [
            .metric(.journeyStarted),
            .log(LogLine(level: .info, message: "journey starting", metadata: ["trigger": trigger, "journey": "\(generation)"])),
            .showScreen(.starting),
            .requestJourney(generation: generation, authentication: authentication, references: references),
        ]
    }

    /// Feeds an event to the journey's controller and performs what it asks.
    private mutating func apply(now: Duration, _ event: (inout Controller) -> [Controller.Action]) -> [Action] {
        guard case .journey(var journey) = state else { return [] }
        let actions = event(&journey.controller)
        state = .journey(journey)
        return perform(actions, now: now)
    }

    private mutating func perform(_ actions: [Controller.Action], now: Duration) -> [Action] {
        actions.flatMap { perform($0, now: now) }
    }

    /// One of the controller's actions, as the station performs it.
    private mutating func perform(_ action: Controller.Action, now: Duration) -> [Action] {
        guard case .journey(var journey) = state else { return [] }
        switch action {
        case .display(let shown):
            var actions: [Action] = []
            let message = journey.authentication == nil ? shown : Self.inAuthenticationFormat(shown)
            switch message {
            case .credentialStarted(let id, _, _):
                journey.credentialID = id
                if journey.watchingHandoff {
                    journey.watchingHandoff = false
                    actions.append(.stopHandoffWatch)
                }
            case .step(let step):
                // A digital part waits on the backend while its hand-off is on screen; any
                // other step ends the wait.
                switch step {
                case .digitalIdentityView, .thirdPartyVerification:
                    if !journey.watchingHandoff, let credential = journey.credentialID {
                        journey.watchingHandoff = true
                        actions.append(.watchHandoff(generation: generation, journey.execution, credentialId: credential))
                    }
                default:
                    if journey.watchingHandoff {
                        journey.watchingHandoff = false
                        actions.append(.stopHandoffWatch)
                    }
                }
                if case .started(let part, _) = step { journey.part = part }
                if case .prepare(let part) = step { journey.part = part }
                if let previous = journey.step { actions.append(.metric(.stepDuration(step: previous.name, now - previous.at))) }
                journey.step = (step.metricName, now)
            case .finished(let result):
                let outcome = result.isSuccess ? "success" : (result.error.map { "error-\($0.code)" } ?? "ended")
                actions.append(.metric(.journeyEnded(outcome: result.error?.code == nil && !result.isSuccess ? "cancelled" : outcome)))
            default:
                break
            }
            state = .journey(journey)
            if case .finished(let result) = message {
                var completed = result
                for index in completed.credentials.indices where completed.credentials[index].category == .face {
                    completed.credentials[index].face = journey.faceChecks[completed.credentials[index].id]
                }
                return actions + [.show(.finished(completed))]
            }
            return actions + [.show(message)]
        case .startCamera(let mode):
            let part = journey.part ?? .front
            let fullFrame = journey.credentialID.map { journey.fullFrameCredentials.contains($0) } ?? false
            let isFace = mode == .faceLiveness || mode == .faceManual
            return [
                .startCapture(
                    generation: generation, mode: mode, part: part, useFlash: settings.useFlash && (part == .front || part == .multipart),
                    fullFrame: fullFrame && !isFace, portrait: isFace ? journey.chip?.portrait : nil,
                    firstSide: journey.controller.currentSide ?? 0)
            ]
        case .stopCamera:
            return [.stopCapture]
        case .captureImage:
            return [.pressShutter]
        case .pauseDetection:
            return [.pauseDetection(true)]
        case .resumeDetection:
            return [.pauseDetection(false)]
        case .requestFile:
            // A kiosk has no file picker: the workflow should not offer file mode here.
            return [
                .log(LogLine(level: .warning, message: "file upload requested: a kiosk cannot take files; the part fails")),
                .answerLater(generation: generation, .scanFailed(.cameraUnavailable)),
            ]
        case .startChipRead(let key):
            return [.startChipRead(generation: generation, key)]
        case .stopChipRead:
            return [.stopChipRead]
        case .uploadPart(_, let images):
            // Instant Feedback at the station: an image the capture found unusable is not
            // uploaded, and the person retakes it (ScanFlow's reject view, retries, fallback).
            let rejected = Dictionary(images.compactMap { image in image.rejectReason.map { (image.side, $0) } }, uniquingKeysWith: { first, _ in first })
            if !rejected.isEmpty {
                return [
                    .log(LogLine(level: .notice, message: "image rejected at the station", metadata: ["reasons": rejected.values.map(\.description).sorted().joined(separator: ",")])),
                    .answerLater(generation: generation, .partProcessed(.rejected(rejected))),
                ]
            }
            // The backend judges usable images again. Offline, parts wait in the outbox, so
            // the journey goes on either way.
            return images.enumerated().flatMap { index, image in
                enqueue(classifier: WorkflowProfile.classifier(for: image.side, index: index), body: Data(image.bytes))
            }
                + [.answerLater(generation: generation, .partProcessed(.accepted))]
        case .uploadChipData:
            guard let chip = journey.chip else { return [] }
            do {
                return enqueue(classifier: .nfc, body: try JSONEncoder().encode(chip.chipData))
            } catch {
                return [.log(LogLine(level: .error, message: "chip data could not be encoded", metadata: ["error": "\(error)"]))]
            }
        case .finalize(let extractionOnly):
            journey.extractionOnly = extractionOnly
            state = .journey(journey)
            return [.enqueue(.finalize(journey.execution, extractionOnly: extractionOnly))]
        case .scheduleTimeout(let timeout, let after):
            return [.schedule(.flow(timeout), after: after)]
        case .cancelTimeout(let kind):
            return [.cancelTimer(.flow(kind))]
        case .wipeSession:
            return endJourney(now: now, stopping: false)
        }
    }

    /// An Authentication's message with its error in the Authentication SDK's code (seed
    /// 004: `L00000`, `A[x][yyyy]`), as the display and a Custom UI receive it.
    static func inAuthenticationFormat(_ message: DisplayMessage) -> DisplayMessage {
        switch message {
        case .error(let error):
            return .error(error.inAuthenticationFormat)
        case .finished(var result):
            result.error = result.error?.inAuthenticationFormat
            return .finished(result)
        default:
            return message
        }
    }

    /// The station's own face checks from a liveness capture's record, for the journey's result.
    private mutating func noteFaceCheck(_ record: LivenessEvidence) {
        guard case .journey(var journey) = state, let credential = journey.credentialID else { return }
        let liveness: JourneyResult.FaceCheck.Liveness = switch record.result.decision {
        case .live: .live
        case .attack: .attack
        case .notPossible: .notPossible
        }
        let match: JourneyResult.FaceCheck.Match? = record.match.map {
            switch $0.outcome {
            case .match: .match
            case .review: .review
            case .noMatch: .noMatch
            case .noFaceInPortrait, .noFaceInImage: .notPossible
            }
        }
        journey.faceChecks[credential] = JourneyResult.FaceCheck(liveness: liveness, match: match, similarity: record.match?.similarity)
        state = .journey(journey)
    }

    private func enqueue(classifier: PartClassifier, body: Data) -> [Action] {
        guard case .journey(let journey) = state else { return [] }
        return [.enqueue(.part(PartUpload(execution: journey.execution, credentialId: journey.credentialID ?? "", classifier: classifier, body: body)))]
    }

    // MARK: End of a journey

    /// Forgets the journey: timers, device tasks, images and chip data; unsent parts of a
    /// journey that was not finalised are wiped from the outbox too.
    private mutating func endJourney(now: Duration, stopping: Bool) -> [Action] {
        var actions: [Action] = [.cancelJourneyTimers, .stopCapture, .stopChipRead, .stopHandoffWatch]
        guard case .journey(let ended) = state else { return actions }
        state = stopping ? .stopped : .result
        if !ended.finalized { actions.append(.wipeOutbox(workflowExecutionId: ended.execution.workflowExecutionId)) }
        actions.append(.metric(.journeyDuration(now - ended.startedAt)))
        guard !stopping else { return actions }
        if ended.finalized {
            // The reference for staff; a Fastfill journey's stays without a decision (none is made).
            actions.append(.showScreen(.decision(reference: ended.execution.workflowExecutionId, decision: nil)))
            if !ended.extractionOnly { actions.append(.awaitDecision(ended.execution)) }
        }
        return actions + [.schedule(.resultOver(generation: generation), after: settings.resultScreen)]
    }

    // MARK: Devices

    private mutating func showIdleOrOutOfService() -> [Action] {
        let missing = deviceStatus.filter { !$0.available }
        var actions: [Action] = []
        if missing.isEmpty {
            if case .idle = state {} else {
                actions.append(.log(LogLine(level: .info, message: "station idle")))
                platenWatched = nil
            }
            state = .idle
            return actions + [.showScreen(.idle(startBy: settings.start))]
        }
        if case .outOfService = state {} else {
            actions.append(.log(LogLine(level: .error, message: "out of service", metadata: ["devices": missing.map(\.device.rawValue).joined(separator: ",")])))
        }
        state = .outOfService
        return actions + [.showScreen(.outOfService(devices: missing))]
    }
}

extension Scan.Step {
    /// The step's name for metrics: its case, no payload.
    var metricName: String {
        switch self {
        case .prepare: "prepare"
        case .started: "started"
        case .scanView: "scanView"
        case .digitalIdentityView: "digitalIdentityView"
        case .thirdPartyVerification: "thirdPartyVerification"
        case .imageTaken: "imageTaken"
        case .processing: "processing"
        case .confirmationView: "confirmationView"
        case .rejectView: "rejectView"
        case .retry: "retry"
        case .canFinish: "canFinish"
        case .addonScanPart: "addonScanPart"
        case .nextPart: "nextPart"
        case .chipKeyView: "chipKeyView"
        }
    }
}
