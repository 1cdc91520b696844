import Display
import KioskTestKit
import ScanFlow

/// A station loop for the browser tests: a real `ScanFlow.Controller` driven by what the
/// displays send, whose actions a scripted performer answers as the devices and the backend
/// would. Device and backend answers that a screenshot should catch in between (capture, chip
/// read, finalisation) wait until the test calls for them.
actor ScriptedStation {
    /// What the performer was asked to do and has not done yet.
    enum Request: Hashable, Sendable {
        case capture(Scan.Mode)
        case chipRead
        case finalize
    }

    let hub: DisplayHub
    let workflow: Workflow
    let startBy: [StartTrigger]
    private var controller = Controller()
    private var running = false
    /// Instant Feedback for the next uploads, in order; `accepted` when empty.
    private var outcomes: [Controller.PartOutcome]
    private var inactivity: Timeout?
    private var queue: [(Controller.Action, DisplayClientID?)] = []
    private var draining = false
    private(set) var pending: Set<Request> = []
    /// The commands the displays sent, in order.
    private(set) var commands: [DisplayInput] = []
    /// The logical errors answered to a display.
    private(set) var logicalErrors: [LogicalError] = []
    private let requests: AsyncStream<Request>.Continuation
    let requested: EventProbe<Request>

    init(hub: DisplayHub, workflow: Workflow, startBy: [StartTrigger] = [.card, .touch], outcomes: [Controller.PartOutcome] = []) {
        self.hub = hub
        self.workflow = workflow
        self.startBy = startBy
        self.outcomes = outcomes
        let (stream, continuation) = AsyncStream.makeStream(of: Request.self)
        requests = continuation
        requested = EventProbe(stream)
    }

    /// Shows the idle screen, then serves the displays' inputs until they end.
    func run() async {
        await hub.publish(.station(.idle(startBy: startBy)))
        for await (input, client) in hub.inputs {
            commands.append(input)
            switch input {
            case .station(.startJourney):
                guard !running, startBy.contains(.touch) else { continue }
                await startJourney()
            case .flow(let command):
                await perform(controller.handle(command), answering: client)
            }
        }
    }

    /// A card placed on the reader.
    func cardPlaced() async {
        guard !running else { return }
        await startJourney()
    }

    private func startJourney() async {
        running = true
        await hub.publish(.station(.starting))
        controller = Controller()
        await perform(controller.start(workflow: workflow), answering: nil)
    }

    // MARK: The test's hands

    /// The pipeline's prompts while the person positions the document or face.
    func update(_ update: Scan.Update) async {
        await perform(controller.scanUpdate(update), answering: nil)
    }

    /// The capture pipeline took the picture of the current part (`mrzRead`: and read a chip
    /// key off a front).
    func capture(mrzRead: Bool = true) async {
        guard let request = pending.first(where: { if case .capture = $0 { true } else { false } }) else { return }
        pending.remove(request)
        guard let (part, _) = controller.currentScanPart else { return }
        let key: ChipAccessKey? = part == .front && mrzRead ? .mrz(documentNumber: "C01X00T47", dateOfBirth: "640812", dateOfExpiry: "311031") : nil
        await perform(controller.imageCaptured(CapturedImage(bytes: [0xFF, 0xD8, 0xFF, 0xD9], side: part, chipAccessKey: key)), answering: nil)
    }

    /// The chip reader read the chip, reporting `progress` on the way; `finish: false` stops before the end.
    func readChip(progress: [Int], finish: Bool = true) async {
        if pending.contains(.chipRead) {
            await perform(controller.chipReadStarted(), answering: nil)
            pending.remove(.chipRead)
        }
        for percent in progress {
            await perform(controller.chipReadProgress(percent), answering: nil)
        }
        if finish {
            await perform(controller.chipReadFinished(), answering: nil)
        }
    }

    /// The chip refused the key it was given.
    func chipRefusesKey() async {
        guard pending.remove(.chipRead) != nil else { return }
        await perform(controller.chipRefusedKey(), answering: nil)
    }

    /// The backend finalised, or failed to.
    func finalize(failing error: FlowError? = nil) async {
        guard pending.remove(.finalize) != nil else { return }
        await perform(error.map { controller.finalizeFailed($0) } ?? controller.finalized(), answering: nil)
    }

    /// The inactivity timer the controller scheduled ran out.
    func inactivityTimerFired() async {
        guard let inactivity else { return }
        await perform(controller.timeoutFired(inactivity), answering: nil)
    }

    /// Back to idle after the result screen.
    func returnToIdle() async {
        running = false
        await hub.publish(.station(.idle(startBy: startBy)))
    }

    // MARK: Actions

    /// Performs actions strictly in order: the actions of an answer (say `partProcessed` after
    /// `uploadPart`) wait behind the rest of the batch that asked for it, so the display sees
    /// `processing` before `confirmationView`.
    private func perform(_ actions: [Controller.Action], answering client: DisplayClientID?) async {
        queue += actions.map { ($0, client) }
        guard !draining else { return }
        draining = true
        while !queue.isEmpty {
            let (action, client) = queue.removeFirst()
            await execute(action, answering: client)
        }
        draining = false
    }

    private func execute(_ action: Controller.Action, answering client: DisplayClientID?) async {
        switch action {
        case .display(let message):
            if case .logicalError(let error) = message { logicalErrors.append(error) }
            await hub.show(message, answering: client)
        case .startCamera(let mode):
            await perform(controller.cameraStarted(), answering: nil)
            // Automatic modes capture when the picture is good; manual ones wait for the shutter.
            if mode != .manual, mode != .faceManual { request(.capture(mode)) }
        case .captureImage:
            if let mode = controller.currentScanPart?.mode { request(.capture(mode)) }
        case .uploadPart:
            let outcome = outcomes.isEmpty ? .accepted : outcomes.removeFirst()
            await perform(controller.partProcessed(outcome), answering: nil)
        case .startChipRead:
            request(.chipRead)
        case .finalize:
            request(.finalize)
        case .scheduleTimeout(let timeout, _) where timeout.kind == .inactivity:
            inactivity = timeout
        case .wipeSession:
            running = false
            pending = []
        case .stopCamera, .pauseDetection, .resumeDetection, .requestFile, .stopChipRead, .uploadChipData,
            .scheduleTimeout, .cancelTimeout:
            break
        }
    }

    private func request(_ request: Request) {
        pending.insert(request)
        requests.yield(request)
    }
}
