public import Backend
public import Capture
import Foundation
public import Logging
public import ScanFlow
import Synchronization

/// The station loop: turns device, display, backend and timer events into the
/// controller's events and performs the controller's actions (DESIGN.md "State machines
/// are values": `ScanFlow.Controller` decides, this loop does).
///
/// Between journeys it idles with the camera and reader ready; a document on the reader or
/// a touch on the display starts a journey, as configured. All its state is isolated to the
/// actor, and every device task reports back through one event stream, so events are handled
/// one at a time and in order.
public actor StationLoop {
    /// Everything the loop needs from outside.
    public struct Dependencies: Sendable {
        public var display: any StationDisplay
        public var camera: any CaptureDevice
        public var chip: any ChipDevice
        public var starter: JourneyStarter
        public var backend: any VerificationBackend
        public var outbox: Outbox
        public var metrics: StationMetrics
        public var clock: any Clock<Duration>

        public init(
            display: any StationDisplay, camera: any CaptureDevice, chip: any ChipDevice, starter: JourneyStarter,
            backend: any VerificationBackend, outbox: Outbox, metrics: StationMetrics, clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.display = display
            self.camera = camera
            self.chip = chip
            self.starter = starter
            self.backend = backend
            self.outbox = outbox
            self.metrics = metrics
            self.clock = clock
        }
    }

    public struct Settings: Sendable {
        public var profile: WorkflowProfile
        public var start: [Configuration.StartTrigger]
        public var controller: Controller.Configuration
        public var resultScreen: Duration
        public var decisionWait: Duration
        /// Whether a flash/no-flash pair is taken of a document's front.
        public var useFlash: Bool
        /// How often the loop proves it is alive (the watchdog's heartbeat) and re-probes missing devices.
        public var tick: Duration

        public init(
            profile: WorkflowProfile, start: [Configuration.StartTrigger] = [.card, .touch],
            controller: Controller.Configuration = .init(), resultScreen: Duration = .seconds(12),
            decisionWait: Duration = .seconds(20), useFlash: Bool = true, tick: Duration = .seconds(1)
        ) {
            self.profile = profile
            self.start = start
            self.controller = controller
            self.resultScreen = resultScreen
            self.decisionWait = decisionWait
            self.useFlash = useFlash
            self.tick = tick
        }

        public init(_ configuration: Configuration) {
            var controller = Controller.Configuration(dataCenter: WorkflowProfile(configuration).dataCenter)
            controller.defaultInactivityTimeout = configuration.journey.inactivityTimeout
            controller.inactivityWarningGrace = configuration.journey.inactivityGrace
            controller.livenessProviderVersion = 1
            self.init(
                profile: WorkflowProfile(configuration), start: configuration.journey.start, controller: controller,
                resultScreen: configuration.journey.resultScreen, decisionWait: configuration.journey.decisionWait)
        }
    }

    /// Where the station is, for `/health` and `STATUS=`.
    public enum Phase: String, Sendable, Hashable {
        /// Before the devices were first looked at.
        case booting
        case idle, starting, journey, result, outOfService = "out-of-service", stopped
    }

    enum Event: Sendable {
        case input(StationInput, DisplayClient?)
        case presence(ReaderPresence)
        case started(generation: Int, Result<JourneyStarter.Start, BackendError>)
        case capture(generation: Int, CaptureEvent)
        case chip(generation: Int, ChipReport)
        case chipDone(generation: Int, Result<ChipOutcome, ChipDeviceError>)
        case timeout(generation: Int, Timeout)
        case resultOver(generation: Int)
        /// The answer to an action of the current batch (an upload queued, a finalisation
        /// queued): handled after the batch, so the display sees the batch's own messages first.
        case answer(generation: Int, Answer)
        case tick
        case shutdown
    }

    enum Answer: Sendable {
        case partProcessed(Controller.PartOutcome)
        case finalized
        case finalizeFailed(FlowError)
        case sessionFailed(FlowError)
        case scanFailed(FlowError)
    }

    /// One journey's data: personal data lives here and in the outbox only, and is wiped at the end.
    struct Journey {
        var execution: ExecutionRef
        /// The open credential: the one every part and piece of evidence uploaded now belongs to.
        var credentialID: String?
        var chip: ChipOutcome?
        var finalized = false
        var startedAt: ContinuousClock.Instant
        var stepStarted: (name: String, at: ContinuousClock.Instant)?
    }

    let dependencies: Dependencies
    let settings: Settings
    let logger: Logger
    private let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    private var phase: Phase = .booting
    private var controller: Controller?
    private var journey: Journey?
    private var generation = 0
    private var timers: [Timeout.Kind: Task<Void, Never>] = [:]
    private var captureTask: Task<Void, Never>?
    private var trigger = CaptureTrigger()
    private var chipTask: Task<Void, Never>?
    private var currentPart: Credential.Part?
    private var devices: [String: DeviceHealth] = [:]
    private var lastTick = ContinuousClock.now
    private var backgroundTasks: [Task<Void, Never>] = []

    public init(dependencies: Dependencies, settings: Settings, logger: Logger) {
        self.dependencies = dependencies
        self.settings = settings
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// The outbox cannot keep what the person gave: the journey cannot go on (N, not retryable).
    static let outboxUnusable = FlowError(.N, detail: "000010")

    // MARK: Inputs from outside

    /// A command from a display; `client` is who gets the answer when it does not fit.
    public nonisolated func submit(_ input: StationInput, from client: DisplayClient? = nil) {
        continuation.yield(.input(input, client))
    }

    /// Ends the loop: a journey in progress is cancelled and wiped; the outbox keeps what it holds.
    public nonisolated func shutdown() { continuation.yield(.shutdown) }

    /// Where the loop is.
    public var currentPhase: Phase { phase }

    /// The devices as last seen.
    public var deviceHealth: [DeviceHealth] { devices.values.sorted { $0.name < $1.name } }

    /// When the loop last handled its heartbeat; the watchdog is fed only while this is recent.
    public var lastHeartbeat: ContinuousClock.Instant { lastTick }

    // MARK: The loop

    /// Runs until `shutdown()` or cancellation.
    public func run() async {
        let presence = dependencies.chip.presence()
        let presenceTask = Task { [continuation] in
            for await event in presence { continuation.yield(.presence(event)) }
        }
        let tickTask = Task { [continuation, clock = dependencies.clock, tick = settings.tick] in
            while !Task.isCancelled {
                continuation.yield(.tick)
                do { try await clock.sleep(for: tick, tolerance: nil) } catch { return }
            }
        }
        await probeDevices()
        await showIdleOrOutOfService()
        defer {
            presenceTask.cancel()
            tickTask.cancel()
        }
        await withTaskCancellationHandler {
            for await event in events {
                if case .shutdown = event {
                    await stop()
                    return
                }
                await handle(event)
            }
        } onCancel: { [continuation] in
            continuation.yield(.shutdown)
        }
        await stop()
    }

    private func stop() async {
        guard phase != .stopped else { return }
        if controller != nil {
            logger.notice("shutting down mid-journey: the journey is cancelled and wiped")
            await apply { $0.cancel() }
        }
        await endJourney(outcome: "shutdown")
        phase = .stopped
        for task in backgroundTasks { task.cancel() }
        continuation.finish()
    }

    func handle(_ event: Event) async {
        switch event {
        case .tick:
            lastTick = ContinuousClock.now
            if phase == .outOfService || phase == .idle { await probeDevices(showChanges: true) }
        case .input(.startJourney, _):
            if phase == .idle, settings.start.contains(.touch) { await startJourney(trigger: "touch") }
        case .input(.command(let command), let client):
            guard var controller, phase == .journey else {
                if let client { await dependencies.display.answer(.logicalError(.deadController), to: client) }
                return
            }
            let actions = controller.handle(command)
            self.controller = controller
            if actions.count == 1, case .display(.logicalError(let error)) = actions[0], let client {
                // A command from a stale screen: only that display hears about it.
                await dependencies.display.answer(.logicalError(error), to: client)
                return
            }
            await perform(actions)
        case .presence(let presence):
            await readerPresence(presence)
        case .started(let generation, let result):
            guard generation == self.generation, phase == .starting else { return }
            await journeyStarted(result)
        case .capture(let generation, let report):
            guard generation == self.generation, controller != nil else { return }
            await captureReport(report)
        case .chip(let generation, let report):
            guard generation == self.generation, controller != nil else { return }
            await chipReport(report)
        case .chipDone(let generation, let result):
            guard generation == self.generation, controller != nil else { return }
            await chipDone(result)
        case .timeout(let generation, let timeout):
            guard generation == self.generation else { return }
            timers[timeout.kind] = nil
            await apply { $0.timeoutFired(timeout) }
        case .resultOver(let generation):
            guard generation == self.generation, phase == .result else { return }
            await showIdleOrOutOfService()
        case .answer(let generation, let answer):
            guard generation == self.generation, controller != nil else { return }
            switch answer {
            case .partProcessed(let outcome): await apply { $0.partProcessed(outcome) }
            case .finalized: await apply { $0.finalized() }
            case .finalizeFailed(let error): await apply { $0.finalizeFailed(error) }
            case .sessionFailed(let error): await apply { $0.sessionFailed(error) }
            case .scanFailed(let error): await apply { $0.scanFailed(error) }
            }
        case .shutdown:
            break
        }
    }

    private func apply(_ event: (inout Controller) -> [Controller.Action]) async {
        guard var controller else { return }
        let actions = event(&controller)
        self.controller = controller
        await perform(actions)
    }

    // MARK: Journeys

    private func startJourney(trigger: String) async {
        generation += 1
        phase = .starting
        dependencies.metrics.journeyStarted()
        logger.info("journey starting", metadata: ["trigger": "\(trigger)", "journey": "\(generation)"])
        await dependencies.display.show(.starting)
        let request = settings.profile.accountRequest(reference: "kiosk-\(UUID().uuidString.prefix(8).lowercased())")
        let generation = self.generation
        let starter = dependencies.starter
        backgroundTasks.append(Task { [continuation] in
            do throws(BackendError) {
                let start = try await starter.start(request)
                continuation.yield(.started(generation: generation, .success(start)))
            } catch {
                continuation.yield(.started(generation: generation, .failure(error)))
            }
        })
    }

    private func journeyStarted(_ result: Result<JourneyStarter.Start, BackendError>) async {
        switch result {
        case .failure(let error):
            logger.warning("journey refused: the backend could not start it", metadata: ["code": "\(error.flowError.code)"])
            dependencies.metrics.journeyEnded(outcome: "refused")
            await dependencies.display.show(.error(error.flowError))
            phase = .result
            scheduleResultOver()
        case .success(let start):
            let response = start.response
            let execution = ExecutionRef(response)
            var offline = false
            if case .offline = start { offline = true }
            journey = Journey(execution: execution, startedAt: .now)
            let workflow = settings.profile.workflow(for: response, token: SessionToken(response.sdk.token))
            var controller = Controller(configuration: settings.controller)
            let actions = controller.start(workflow: workflow)
            self.controller = controller
            phase = .journey
            logger.info("journey started", metadata: ["workflowExecution": "\(execution.workflowExecutionId)", "offline": "\(offline)"])
            await perform(actions)
        }
    }

    private func readerPresence(_ presence: ReaderPresence) async {
        switch presence {
        case .readerAvailable(let available):
            let health = DeviceHealth(
                name: "reader", ready: available, detail: available ? "" : "no contactless reader: check its cable and `idkiosk diag nfc`")
            guard devices["reader"] != health else { return }
            devices["reader"] = health
            if controller != nil {
                await apply { available ? $0.deviceRestored(.reader) : $0.deviceLost(.reader) }
            } else if phase == .idle || phase == .outOfService {
                await showIdleOrOutOfService()
            }
        case .cardPresent(true):
            if phase == .idle, settings.start.contains(.card) { await startJourney(trigger: "card") }
        case .cardPresent(false):
            break
        }
    }

    // MARK: Actions

    func perform(_ actions: [Controller.Action]) async {
        for action in actions { await perform(action) }
    }

    private func perform(_ action: Controller.Action) async {
        switch action {
        case .display(let message):
            await show(message)
        case .startCamera(let mode):
            startCapture(mode: mode)
        case .stopCamera:
            captureTask?.cancel()
            captureTask = nil
        case .captureImage:
            trigger.press()
        case .pauseDetection:
            trigger.setPaused(true)
        case .resumeDetection:
            trigger.setPaused(false)
        case .requestFile:
            // A kiosk has no file picker: the workflow should not offer file mode here.
            logger.warning("file upload requested: a kiosk cannot take files; the part fails")
            answer(.scanFailed(.cameraUnavailable))
        case .startChipRead(let key):
            startChipRead(key)
        case .stopChipRead:
            chipTask?.cancel()
            chipTask = nil
        case .uploadPart(let part, let images):
            await upload(part: part, images: images)
        case .uploadChipData:
            await uploadChipData()
        case .finalize:
            await finalize()
        case .scheduleTimeout(let timeout, let after):
            schedule(timeout, after: after)
        case .cancelTimeout(let kind):
            timers.removeValue(forKey: kind)?.cancel()
        case .wipeSession:
            await endJourney(outcome: nil)
        }
    }

    private func show(_ message: DisplayMessage) async {
        switch message {
        case .credentialStarted(let id, _, _):
            journey?.credentialID = id
        case .step(let step):
            stepBegan(step)
        case .finished(let result):
            let outcome = result.isSuccess ? "success" : (result.error.map { "error-\($0.code)" } ?? "ended")
            dependencies.metrics.journeyEnded(outcome: result.error?.code == nil && !result.isSuccess ? "cancelled" : outcome)
        default:
            break
        }
        await dependencies.display.show(message)
    }

    private func stepBegan(_ step: Scan.Step) {
        let name = step.metricName
        if case .started(let part, _) = step { currentPart = part }
        if case .prepare(let part) = step { currentPart = part }
        let now = ContinuousClock.now
        if let previous = journey?.stepStarted {
            dependencies.metrics.stepDuration(previous.name, now - previous.at)
        }
        journey?.stepStarted = (name, now)
    }

    private func schedule(_ timeout: Timeout, after: Duration) {
        timers[timeout.kind]?.cancel()
        let generation = self.generation
        timers[timeout.kind] = Task { [continuation, clock = dependencies.clock] in
            do { try await clock.sleep(for: after, tolerance: nil) } catch { return }
            continuation.yield(.timeout(generation: generation, timeout))
        }
    }

    /// Queues the answer to an action behind the rest of the current batch.
    private func answer(_ answer: Answer) {
        continuation.yield(.answer(generation: generation, answer))
    }

    private func scheduleResultOver() {
        let generation = self.generation
        backgroundTasks.append(Task { [continuation, clock = dependencies.clock, wait = settings.resultScreen] in
            do { try await clock.sleep(for: wait, tolerance: nil) } catch { return }
            continuation.yield(.resultOver(generation: generation))
        })
    }

    // MARK: Camera

    private func startCapture(mode: Scan.Mode) {
        captureTask?.cancel()
        trigger = CaptureTrigger()
        let part = currentPart ?? .front
        let request = CaptureRequest(mode: mode, part: part, trigger: trigger, useFlash: settings.useFlash && (part == .front || part == .multipart))
        let generation = self.generation
        let camera = dependencies.camera
        captureTask = Task { [continuation] in
            await camera.capture(request) { report in continuation.yield(.capture(generation: generation, report)) }
        }
    }

    private func captureReport(_ report: CaptureEvent) async {
        switch report {
        case .started:
            devices["camera"] = DeviceHealth(name: "camera", ready: true)
            await apply { $0.cameraStarted() }
        case .update(let update):
            if case .flash = update { dependencies.metrics.flashFired() }
            await apply { $0.scanUpdate(update) }
        case .image(let image, let isLast):
            dependencies.metrics.imageCaptured()
            await apply { $0.imageCaptured(image, isLastOfSide: isLast) }
        case .evidence(let evidence):
            if let upload = evidence.upload { await enqueue(classifier: upload.classifier, body: upload.body) }
        case .lost(let reason):
            logger.error("camera lost", metadata: ["reason": "\(reason)"])
            dependencies.metrics.deviceReconnect("camera")
            devices["camera"] = DeviceHealth(name: "camera", ready: false, detail: reason)
            captureTask = nil
            await apply { $0.deviceLost(.camera) }
        }
    }

    // MARK: Chip

    private func startChipRead(_ key: ChipAccessKey) {
        chipTask?.cancel()
        let generation = self.generation
        let chip = dependencies.chip
        chipTask = Task { [continuation] in
            let result: Result<ChipOutcome, ChipDeviceError>
            do throws(ChipDeviceError) {
                result = .success(ChipOutcome(try await chip.read(key: key) { continuation.yield(.chip(generation: generation, $0)) }))
            } catch {
                result = .failure(error)
            }
            continuation.yield(.chipDone(generation: generation, result))
        }
    }

    private func chipReport(_ report: ChipReport) async {
        switch report {
        case .waitingForCard:
            break
        case .started:
            await apply { $0.chipReadStarted() }
        case .progress(let percent, _):
            await apply { $0.chipReadProgress(percent) }
        case .cardLost:
            dependencies.metrics.deviceReconnect("card")
            await dependencies.display.show(.documentLifted)
        case .resumed:
            await dependencies.display.show(.documentReturned)
        }
    }

    private func chipDone(_ result: Result<ChipOutcome, ChipDeviceError>) async {
        chipTask = nil
        switch result {
        case .success(let outcome):
            journey?.chip = outcome
            logger.info("chip read", metadata: ["result": "\(outcome.summary)"])
            await apply { $0.chipReadFinished() }
        case .failure(let error) where error.kind == .readerMissing:
            logger.warning("chip read failed", metadata: ["error": "\(error)"])
            await apply { $0.deviceLost(.reader) }
        case .failure(let error):
            logger.warning("chip read failed", metadata: ["error": "\(error)"])
            await apply { $0.chipUnreadable() }
        }
    }

    // MARK: Backend

    private func upload(part: Credential.Part, images: [CapturedImage]) async {
        for image in images {
            await enqueue(classifier: WorkflowProfile.classifier(for: image.side), body: Data(image.bytes))
        }
        // Usability was judged at capture; the backend judges again. Offline, parts wait in
        // the outbox, so the journey goes on either way.
        answer(.partProcessed(.accepted))
    }

    private func uploadChipData() async {
        guard let chip = journey?.chip else { return }
        do {
            let body = try JSONEncoder().encode(chip.chipData)
            await enqueue(classifier: .nfc, body: body)
        } catch {
            logger.error("chip data could not be encoded", metadata: ["error": "\(error)"])
        }
    }

    private func enqueue(classifier: PartClassifier, body: Data) async {
        guard let journey else { return }
        let upload = PartUpload(
            execution: journey.execution, credentialId: journey.credentialID ?? "", classifier: classifier, body: body)
        do {
            try await dependencies.outbox.enqueue(upload)
        } catch {
            logger.error("outbox refused a part", metadata: ["error": "\(error)", "classifier": "\(classifier)"])
            answer(.sessionFailed(StationLoop.outboxUnusable))
        }
    }

    private func finalize() async {
        guard let journey else { return }
        do {
            try await dependencies.outbox.enqueue(.finalize(journey.execution))
            self.journey?.finalized = true
            answer(.finalized)
        } catch {
            logger.error("outbox refused the finalisation", metadata: ["error": "\(error)"])
            answer(.finalizeFailed(StationLoop.outboxUnusable))
        }
    }

    // MARK: End of a journey

    /// Forgets the journey: timers, device tasks, images and chip data; unsent parts of a
    /// journey that was not finalised are wiped from the outbox too.
    private func endJourney(outcome: String?) async {
        for timer in timers.values { timer.cancel() }
        timers = [:]
        captureTask?.cancel()
        captureTask = nil
        chipTask?.cancel()
        chipTask = nil
        currentPart = nil
        controller = nil
        guard let ended = journey else { return }
        journey = nil
        if !ended.finalized {
            do {
                let wiped = try await dependencies.outbox.wipe(workflowExecutionId: ended.execution.workflowExecutionId)
                if wiped > 0 { logger.info("unsent parts of an unfinished journey wiped", metadata: ["records": "\(wiped)"]) }
            } catch {
                logger.error("outbox wipe failed", metadata: ["error": "\(error)"])
            }
        }
        dependencies.metrics.journeyDuration(.now - ended.startedAt)
        guard phase != .stopped, outcome == nil else { return }
        phase = .result
        if ended.finalized {
            let reference = ended.execution.workflowExecutionId
            await dependencies.display.show(.decision(reference: reference, decision: nil))
            awaitDecision(for: ended.execution)
        }
        scheduleResultOver()
    }

    /// Asks the backend for the decision for a while, and shows it when it comes.
    private func awaitDecision(for execution: ExecutionRef) {
        let backend = dependencies.backend
        let display = dependencies.display
        let logger = self.logger
        backgroundTasks.removeAll { $0.isCancelled }
        backgroundTasks.append(Task { [clock = dependencies.clock, wait = settings.decisionWait] in
            let poll = Duration.milliseconds(500)
            var waited = Duration.zero
            while waited < wait, !Task.isCancelled {
                if let details = try? await backend.retrieve(execution), details.workflow.status == .PROCESSED {
                    logger.notice("decision", metadata: [
                        "account": "\(execution.accountId)", "workflowExecution": "\(execution.workflowExecutionId)", "decision": "\(details.decision.type.rawValue)",
                        "risk": "\(details.decision.risk.score)",
                    ])
                    await display.show(.decision(reference: execution.workflowExecutionId, decision: details.decision.type.rawValue))
                    return
                }
                do { try await clock.sleep(for: poll, tolerance: nil) } catch { return }
                waited += poll
            }
            logger.notice("no decision yet; the outbox delivers the journey later", metadata: ["workflowExecution": "\(execution.workflowExecutionId)"])
        })
    }

    // MARK: Devices

    private func probeDevices(showChanges: Bool = false) async {
        let before = devices
        let camera = await dependencies.camera.probe()
        let reader = await dependencies.chip.probe()
        devices[camera.name] = camera
        devices[reader.name] = reader
        if showChanges, before != devices { await showIdleOrOutOfService() }
    }

    private func showIdleOrOutOfService() async {
        let missing = devices.values.filter { !$0.ready }.sorted { $0.name < $1.name }
        if missing.isEmpty {
            if phase != .idle { logger.info("station idle") }
            phase = .idle
            await dependencies.display.show(.idle(start: settings.start))
        } else {
            if phase != .outOfService {
                logger.error("out of service", metadata: ["devices": "\(missing.map(\.name).joined(separator: ","))"])
            }
            phase = .outOfService
            await dependencies.display.show(.outOfService(missing))
        }
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
        }
    }
}
