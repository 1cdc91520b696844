public import Backend
public import Capture
public import Display
import Foundation
import KioskTime
public import Logging
public import ScanFlow

/// The station loop: performs what ``StationMachine`` decides and feeds back what devices,
/// displays, the backend and timers report (DESIGN.md "State machines are values": the
/// machine and its `ScanFlow.Controller` decide, this loop does).
///
/// Between journeys it idles with the camera and reader ready; a document on the reader or
/// a touch on the display starts a journey, as configured. Every device task reports back
/// through one event stream, so events are handled one at a time and in order; each report
/// carries the journey's generation, so a late report of an ended journey is dropped.
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
        /// The station's time: timers, the heartbeat and the durations the metrics record.
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
        public var start: [StartTrigger]
        public var controller: Controller.Configuration
        public var resultScreen: Duration
        public var decisionWait: Duration
        /// Whether a flash/no-flash pair is taken of a document's front.
        public var useFlash: Bool
        /// How often the loop proves it is alive (the watchdog's heartbeat) and re-probes missing devices.
        public var tick: Duration
        /// The vision models as loaded at start, for `/health`.
        public var models: [ModelStatus] = []
        /// How often the idle station lets the camera watch the empty platen (also once after
        /// boot and after each journey), so documents are found against it from the first frame.
        public var platenWatchInterval: Duration = .seconds(600)
        /// How often the station asks the backend about a Digital Identity hand-off on screen.
        public var handoffPoll: Duration = .seconds(1)
        /// How many calls in a row may fail (the backend away for a moment) before the
        /// hand-off's part ends with the backend's error.
        public var handoffPollFailures = 5
        /// `backend.offline: refuse`: an unreachable backend puts the station out of service
        /// (device `backend`) until it answers again, instead of refusing each person in turn.
        public var refuseOffline = false
        /// The journeys' transaction identifiers where the display names none.
        public var transaction = TransactionDefaults()

        public init(
            profile: WorkflowProfile, start: [StartTrigger] = [.card, .touch],
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
            // The station's liveness capture; `idkiosk serve` clears it when the face models
            // did not load (no liveness can run then).
            controller.livenessProviderVersion = LivenessEvidence.providerVersion
            controller.maxAttemptsPerPart = configuration.journey.tries
            controller.maxDocumentPages = configuration.journey.maxPages
            self.init(
                profile: WorkflowProfile(configuration), start: configuration.journey.start, controller: controller,
                resultScreen: configuration.journey.resultScreen, decisionWait: configuration.journey.decisionWait)
            refuseOffline = configuration.backend.offline == "refuse"
            transaction = TransactionDefaults(configuration.journey)
        }
    }

    /// Where the station is, for `/health` and `STATUS=`.
    public enum Phase: String, Sendable, Hashable {
        /// Before the devices were first looked at.
        case booting
        case idle, starting, journey, result, outOfService = "out-of-service", stopped
    }

    enum Event: Sendable {
        case input(DisplayInput, DisplayClientID?)
        case presence(ReaderPresence)
        case started(generation: Int, Result<JourneyStarter.Start, BackendError>)
        case capture(generation: Int, CaptureEvent)
        case chip(generation: Int, ChipReport)
        case chipDone(generation: Int, Result<ChipOutcome, ChipDeviceError>)
        case handoff(generation: Int, Result<DigitalIdentityStatus, BackendError>)
        case timer(StationMachine.Timer)
        case answer(generation: Int, StationMachine.Answer)
        case tick
        case shutdown
    }

    let dependencies: Dependencies
    let settings: Settings
    let logger: Logger
    private let time: StationTime
    private let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    private var machine: StationMachine
    private var timers: [StationMachine.Timer.Key: Task<Void, Never>] = [:]
    private var captureTask: Task<Void, Never>?
    /// The camera watching the empty platen between journeys (StationMachine's `watchPlaten`).
    private var platenTask: Task<Void, Never>?
    private var trigger = CaptureTrigger()
    private var chipTask: Task<Void, Never>?
    private var handoffTask: Task<Void, Never>?
    private var backgroundTasks: [Task<Void, Never>] = []
    /// The starter asking an unreachable backend whether it answers again (`refuseOffline`).
    private var probeTask: Task<Void, Never>?

    public init(dependencies: Dependencies, settings: Settings, logger: Logger) {
        self.dependencies = dependencies
        self.settings = settings
        self.logger = logger
        time = StationTime(dependencies.clock)
        machine = StationMachine(settings: settings)
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    // MARK: Inputs from outside

    /// A command from a display; `client` is who gets the answer when it does not fit.
    public nonisolated func submit(_ input: DisplayInput, from client: DisplayClientID? = nil) {
        continuation.yield(.input(input, client))
    }

    /// Ends the loop: a journey in progress is cancelled and wiped; the outbox keeps what it holds.
    public nonisolated func shutdown() { continuation.yield(.shutdown) }

    /// Where the loop is.
    public var currentPhase: Phase { machine.phase }

    /// The devices as last seen.
    public var deviceStatus: [DeviceStatus] { machine.deviceStatus }

    /// How long ago the loop last handled its heartbeat, on its clock; the watchdog is fed
    /// only while this is short.
    public var heartbeatAge: Duration { time.now() - machine.lastHeartbeat }

    // MARK: The loop

    /// Runs until `shutdown()` or cancellation.
    public func run() async {
        let presence = dependencies.chip.presence()
        let presenceTask = Task { [continuation] in
            for await event in presence { continuation.yield(.presence(event)) }
        }
        let tickTask = Task { [continuation, time, tick = settings.tick] in
            while !Task.isCancelled {
                continuation.yield(.tick)
                do { try await time.sleep(tick) } catch { return }
            }
        }
        defer {
            presenceTask.cancel()
            tickTask.cancel()
        }
        await perform(machine.start(now: time.now()))
        await withTaskCancellationHandler {
            for await event in events {
                await handle(event)
                if machine.phase == .stopped { return }
            }
        } onCancel: { [continuation] in
            continuation.yield(.shutdown)
        }
        await perform(machine.shutdown(now: time.now()))
    }

    func handle(_ event: Event) async {
        let now = time.now()
        let actions: [StationMachine.Action]
        switch event {
        case .tick: actions = machine.tick(now: now)
        case .input(let input, let client): actions = machine.input(input, from: client, now: now)
        case .presence(let presence): actions = machine.readerPresence(presence, now: now)
        case .started(let generation, let result): actions = machine.journeyStarted(generation: generation, result, now: now)
        case .capture(let generation, let report): actions = machine.captureEvent(generation: generation, report, now: now)
        case .chip(let generation, let report): actions = machine.chipReport(generation: generation, report, now: now)
        case .chipDone(let generation, let result): actions = machine.chipDone(generation: generation, result, now: now)
        case .handoff(let generation, let result): actions = machine.handoffStatus(generation: generation, result, now: now)
        case .timer(let timer):
            if case .flow = timer { timers[timer.key] = nil }
            actions = machine.timerFired(timer, now: now)
        case .answer(let generation, let answer): actions = machine.answer(generation: generation, answer, now: now)
        case .shutdown: actions = machine.shutdown(now: now)
        }
        await perform(actions)
    }

    // MARK: Actions

    private func perform(_ actions: [StationMachine.Action]) async {
        for action in actions { await perform(action) }
    }

    private func perform(_ action: StationMachine.Action) async {
        switch action {
        case .show(let message):
            await dependencies.display.show(message)
        case .showScreen(let screen):
            await dependencies.display.show(screen)
        case .answer(let message, let client):
            await dependencies.display.answer(message, to: client)
        case .requestJourney(let generation, let authentication, let references):
            requestJourney(generation: generation, authentication: authentication, references: references)
        case .watchPlaten:
            // Only while the camera is free; a journey's capture cancels it first.
            guard captureTask == nil else { return }
            platenTask?.cancel()
            let camera = dependencies.camera
            platenTask = Task { await camera.watchPlaten(frames: 15) }
        case .probeDevices:
            let camera = await dependencies.camera.probe()
            let reader = await dependencies.chip.probe()
            var statuses = [DeviceStatus(.camera, camera), DeviceStatus(.reader, reader)]
            if settings.refuseOffline {
                // The starter knows from its last call whether the backend answers; while it
                // does not, it asks again once per recheck interval, in the background (a
                // backend that does not answer must not hold the loop), seen at a later tick.
                let starter = dependencies.starter
                let reachable = await starter.isReachable
                statuses.append(DeviceStatus(.backend, available: reachable, detail: reachable ? nil : StationMachine.backendUnreachable))
                if !reachable, probeTask == nil {
                    probeTask = Task { [weak self] in
                        await starter.probeIfDue()
                        await self?.probeFinished()
                    }
                }
            }
            await perform(machine.devicesProbed(statuses))
        case .startCapture(let generation, let mode, let part, let useFlash, let fullFrame, let portrait, let firstSide):
            // The camera is let go of by the platen's watch before the capture opens it.
            platenTask?.cancel()
            await platenTask?.value
            platenTask = nil
            captureTask?.cancel()
            trigger = CaptureTrigger()
            let request = CaptureRequest(
                mode: mode, part: part, trigger: trigger, useFlash: useFlash, keepFullFrame: fullFrame, portrait: portrait, firstSide: firstSide)
            let camera = dependencies.camera
            captureTask = Task { [continuation] in
                await camera.capture(request) { report in continuation.yield(.capture(generation: generation, report)) }
            }
        case .stopCapture:
            captureTask?.cancel()
            captureTask = nil
        case .pressShutter:
            trigger.press()
        case .pauseDetection(let paused):
            trigger.setPaused(paused)
        case .startChipRead(let generation, let key):
            startChipRead(generation: generation, key)
        case .stopChipRead:
            chipTask?.cancel()
            chipTask = nil
        case .watchHandoff(let generation, let execution, let credentialId):
            watchHandoff(generation: generation, execution, credentialId: credentialId)
        case .stopHandoffWatch:
            handoffTask?.cancel()
            handoffTask = nil
        case .enqueue(let item):
            do {
                try await dependencies.outbox.enqueue(item)
                if case .finalize = item { await perform(machine.finalizeQueued()) }
            } catch {
                await perform(machine.outboxRefused(item, error: "\(error)"))
            }
        case .wipeOutbox(let id):
            do {
                let wiped = try await dependencies.outbox.wipe(workflowExecutionId: id)
                if wiped > 0 { logger.info("unsent parts of an unfinished journey wiped", metadata: ["records": "\(wiped)"]) }
            } catch {
                logger.error("outbox wipe failed", metadata: ["error": "\(error)"])
            }
        case .awaitDecision(let execution):
            awaitDecision(for: execution)
        case .awaitAuthentication(let generation, let execution):
            awaitAuthentication(generation: generation, for: execution)
        case .schedule(let timer, let after):
            timers[timer.key]?.cancel()
            timers[timer.key] = Task { [continuation, time] in
                do { try await time.sleep(after) } catch { return }
                continuation.yield(.timer(timer))
            }
        case .cancelTimer(let key):
            timers.removeValue(forKey: key)?.cancel()
        case .cancelJourneyTimers:
            for (key, timer) in timers where key != .resultOver {
                timer.cancel()
                timers[key] = nil
            }
        case .answerLater(let generation, let answer):
            continuation.yield(.answer(generation: generation, answer))
        case .metric(let metric):
            dependencies.metrics.record(metric)
        case .log(let line):
            logger.log(level: line.level, "\(line.message)", metadata: line.metadata.mapValues { .string($0) })
        case .stop:
            platenTask?.cancel()
            handoffTask?.cancel()
            probeTask?.cancel()
            for task in backgroundTasks { task.cancel() }
            for timer in timers.values { timer.cancel() }
            timers = [:]
            continuation.finish()
        }
    }

    private func probeFinished() {
        probeTask = nil
    }

    private func requestJourney(generation: Int, authentication: AuthenticationReference?, references: JourneyReferences?) {
        let request: AccountRequest
        do throws(BackendError) {
            request = try settings.transaction.accountRequest(
                settings.profile, display: references, authentication: authentication, suffix: String(UUID().uuidString.prefix(8).lowercased()))
        } catch {
            continuation.yield(.started(generation: generation, .failure(error)))
            return
        }
        let starter = dependencies.starter
        backgroundTasks.removeAll { $0.isCancelled }
        backgroundTasks.append(Task { [continuation] in
            do throws(BackendError) {
                let start = try await starter.start(request)
                continuation.yield(.started(generation: generation, .success(start)))
            } catch {
                continuation.yield(.started(generation: generation, .failure(error)))
            }
        })
    }

    private func startChipRead(generation: Int, _ key: ChipAccessKey) {
        chipTask?.cancel()
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

    /// Asks the backend every `handoffPoll` where a Digital Identity hand-off stands and
    /// reports each change, until cancelled, the provider's outcome is final (a failed
    /// attempt is not: the person may open the hand-off again), or the calls kept failing.
    private func watchHandoff(generation: Int, _ execution: ExecutionRef, credentialId: String) {
        handoffTask?.cancel()
        let backend = dependencies.backend
        handoffTask = Task { [continuation, time, poll = settings.handoffPoll, allowed = settings.handoffPollFailures] in
            var last: DigitalIdentityStatus?
            var failures = 0
            while !Task.isCancelled {
                do throws(BackendError) {
                    let status = try await backend.digitalIdentity(execution, credentialId: credentialId)
                    failures = 0
                    if status != last {
                        last = status
                        continuation.yield(.handoff(generation: generation, .success(status)))
                    }
                    if status.status.isFinal, status.status != .FAILED { return }
                } catch {
                    failures += 1
                    // A moment without the backend is waited out; an answer that it has no
                    // such hand-off, or a long absence, ends the wait.
                    if !error.isRetryable || failures >= allowed {
                        guard !Task.isCancelled else { return }
                        continuation.yield(.handoff(generation: generation, .failure(error)))
                        return
                    }
                }
                do { try await time.sleep(poll) } catch { return }
            }
        }
    }

    /// Asks the backend for an Authentication's decision while the outbox delivers the
    /// journey: PASSED is SUCCESS; REJECTED or WARNING is FAILED (an Authentication is yes or
    /// no); NOT_EXECUTED (no face models at the backend) could not be processed (M). No
    /// decision within `decisionWait` is a network problem the person may retry (A).
    private func awaitAuthentication(generation: Int, for execution: ExecutionRef) {
        let backend = dependencies.backend
        backgroundTasks.removeAll { $0.isCancelled }
        backgroundTasks.append(Task { [continuation, time, wait = settings.decisionWait] in
            guard let details = await Self.decision(of: execution, backend: backend, time: time, wait: wait, poll: .milliseconds(250)) else {
                guard !Task.isCancelled else { return }
                continuation.yield(.answer(generation: generation, .finalizeFailed(FlowError(.A, detail: "\(BackendError.Call.retrieve.rawValue)0000"))))
                return
            }
            let outcome: JourneyResult.AuthenticationOutcome? = switch details.decision.type {
            case .PASSED: .SUCCESS
            case .REJECTED, .WARNING: .FAILED
            case .NOT_EXECUTED: nil
            }
            continuation.yield(.answer(generation: generation, .authenticated(outcome)))
        })
    }

    /// Asks the backend for the decision for a while, and shows it when it comes.
    private func awaitDecision(for execution: ExecutionRef) {
        let backend = dependencies.backend
        let display = dependencies.display
        let logger = self.logger
        backgroundTasks.removeAll { $0.isCancelled }
        backgroundTasks.append(Task { [time, wait = settings.decisionWait] in
            guard let details = await Self.decision(of: execution, backend: backend, time: time, wait: wait, poll: .milliseconds(500)) else {
                logger.notice("no decision yet; the outbox delivers the journey later", metadata: ["workflowExecution": "\(execution.workflowExecutionId)"])
                return
            }
            logger.notice("decision", metadata: [
                "account": "\(execution.accountId)", "workflowExecution": "\(execution.workflowExecutionId)", "decision": "\(details.decision.type.rawValue)",
                "risk": "\(details.decision.risk.score)",
            ])
            await display.show(.decision(reference: execution.workflowExecutionId, decision: details.decision.type.rawValue))
        })
    }

    /// The execution's details once the backend processed it, asked every `poll` for up to
    /// `wait` on the station's clock; nil when it did not decide in time or the task was cancelled.
    private static func decision(
        of execution: ExecutionRef, backend: any VerificationBackend, time: StationTime, wait: Duration, poll: Duration
    ) async -> WorkflowExecutionDetails? {
        var waited = Duration.zero
        while waited < wait, !Task.isCancelled {
            if let details = try? await backend.retrieve(execution), details.workflow.status == .PROCESSED { return details }
            do { try await time.sleep(poll) } catch { return nil }
            waited += poll
        }
        return nil
    }
}

/// The station's monotonic time on an injected clock: time since the loop was made, and sleeping.
struct StationTime: Sendable {
    private let stopwatch: Stopwatch
    let sleep: @Sendable (Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        stopwatch = Stopwatch(clock)
        sleep = { try await clock.sleep(for: $0, tolerance: nil) }
    }

    func now() -> Duration { stopwatch.elapsed }
}

extension DeviceStatus {
    /// A device as the display and `/health` list it, from what a look at it found.
    init(_ device: Device, _ probe: DeviceProbe) {
        self.init(device, available: probe.isReady, detail: probe.fault)
    }
}
