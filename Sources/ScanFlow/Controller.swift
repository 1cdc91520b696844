/// The journey of one person at the station, from "ready" to a result, as a pure state
/// machine (seeds: `Jumio.Controller` with its credentials and scan parts).
///
/// ScanFlow does no I/O, starts no threads and reads no clock. Every event is one
/// mutating function; it returns the `Action`s the owner performs in order: messages
/// for the display, device and backend requests, timers and the final wipe.
///
/// **Time.** The controller never needs the current time. A deadline is an action,
/// `scheduleTimeout(_:after:)`, measured from the moment the owner performs it; its
/// expiry comes back as the event `timeoutFired(_:)`. The owner keeps one timer per
/// `Timeout.Kind` (a new schedule replaces the old one) and may run them on any clock;
/// tests fire them by hand. Each timeout carries a generation so that a firing that
/// raced with a newer schedule is ignored.
///
/// **Misuse.** An event that is not allowed in the current state changes nothing and
/// returns `.display(.logicalError(_))`, never a crash. Events from devices and the
/// backend that arrive after their moment (a frame in flight, a late answer) are dropped
/// silently: a race is not a misuse.
///
/// **End.** Every journey ends with exactly one `.display(.finished(_))`, directly
/// followed by `.wipeSession`. After that the only answer to a command is
/// `.logicalError(.deadController)`, and device, backend and timer events return nothing.
public struct Controller: Sendable {
    private enum State: Sendable {
        /// Not started yet.
        case idle
        /// Waiting for the active consent items whose ids are pending.
        case consent(Journey, pending: Set<String>)
        /// Credentials and scan parts run.
        case active(Journey)
        /// Finalising with the backend; `failed` holds a retryable error waiting for `retryAfterError`.
        case finishing(Journey, failed: FlowError?)
        case ended
    }

    /// What a running journey knows.
    private struct Journey: Sendable {
        let workflow: Workflow
        var credentials: [Credential]
        /// The index of the credential started and not yet finished.
        var open: Int?
        /// The scan part of the open credential, if one runs.
        var scan: ScanPart?
        /// The mode each finished part was captured in, per credential id.
        var modes: [String: [Credential.Part: Scan.Mode]] = [:]
        var cameraAvailable = true
        var readerAvailable = true

        init(workflow: Workflow) {
            self.workflow = workflow
            self.credentials = workflow.credentials.map(Credential.init(info:))
        }
    }

    /// What the timers depend on, taken before an event to see what changed.
    private struct TimerView {
        var phase: InactivityPhase?
        var deviceStarting: Bool
    }

    public let configuration: Configuration
    private var state: State = .idle
    private var inactivityGeneration = 0
    private var inactivityWarned = false
    private var deviceGeneration = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The credentials of the running journey, as they stand; empty before start and after the end.
    public var credentials: [Credential] {
        journey?.credentials ?? []
    }

    /// The part being scanned and its current mode.
    public var currentScanPart: (part: Credential.Part, mode: Scan.Mode)? {
        guard let scan = journey?.scan else { return nil }
        return (scan.part, scan.mode)
    }

    /// The side of the part the camera is asked for while it starts or scans: 0 the front
    /// (or the only side), 1 a card's back (resuming there after Z). Nil otherwise.
    public var currentSide: Int? { journey?.scan?.currentSide }

    /// Whether the journey has ended (and the session was wiped).
    public var hasEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    private var journey: Journey? {
        switch state {
        case .idle, .ended: nil
        case .consent(let journey, _), .active(let journey), .finishing(let journey, _): journey
        }
    }

    // MARK: Controller events

    /// Starts the journey with what the backend's workflow initiation returned.
    ///
    /// - Parameter workflow: credentials, consent items, data center and token.
    /// - Returns: the session timer and `initialized`, or a logical error when the
    ///   workflow cannot run on this station (the controller then stays unstarted).
    public mutating func start(workflow: Workflow) -> [Action] {
        switch state {
        case .idle: break
        case .ended: return logical(.deadController)
        case .consent, .active, .finishing: return logical(.controllerNotCompleted)
        }
        guard !workflow.token.value.isEmpty, workflow.tokenLifetime > .zero else {
            return logical(.tokenValidationFailed)
        }
        guard workflow.dataCenter == configuration.dataCenter else { return logical(.dataCenterValidationFailed) }
        if case .fastfill = workflow.flow, workflow.credentials.contains(where: { $0.category == .face }) {
            return logical(.faceNotAllowedInFastfill)
        }
        let needsLiveness = workflow.credentials.contains { $0.category == .face && $0.faceMode == .faceLiveness }
        if needsLiveness, let required = workflow.livenessProviderVersion,
            configuration.livenessProviderVersion != required
        {
            return logical(.dependencyWrongVersion)
        }
        let before = timerView
        let journey = Journey(workflow: workflow)
        let pending = Set((workflow.consentItems ?? []).filter { $0.type == .active }.map(\.id))
        state = pending.isEmpty ? .active(journey) : .consent(journey, pending: pending)
        return [
            .scheduleTimeout(Timeout(.session, generation: 0), after: workflow.tokenLifetime),
            .display(.initialized(credentials: workflow.credentials, consentItems: workflow.consentItems)),
        ] + settle(from: before, activity: true)
    }

    /// The person answered a consent item (seeds: `userConsented(consentItem:decision:)`).
    ///
    /// Refusing any item ends the journey cleanly with `FlowError.consentRefused`.
    public mutating func userConsented(itemID: String, decision: Bool) -> [Action] {
        let journey: Journey
        var pending: Set<String>
        switch state {
        case .idle, .ended: return logical(.deadController)
        case .finishing: return logical(.isBeingFinished)
        case .active(let running):
            journey = running
            pending = []
        case .consent(let waiting, let ids):
            journey = waiting
            pending = ids
        }
        guard journey.workflow.consentItems?.contains(where: { $0.id == itemID }) == true else {
            return logical(.needToConsentFirst)
        }
        guard decision else { return end(error: .consentRefused) }
        guard case .consent = state else { return [] }
        let before = timerView
        pending.remove(itemID)
        state = pending.isEmpty ? .active(journey) : .consent(journey, pending: pending)
        return settle(from: before, activity: true)
    }

    /// Opens a credential of the workflow (seeds: `controller.start(credentialInfo:)`).
    ///
    /// A preselected credential (one country, one document) comes back configured.
    public mutating func startCredential(id: String) -> [Action] {
        guard case .active(var journey) = state else { return notActive() }
        guard journey.open == nil else { return logical(.multipleCredentials) }
        guard let index = journey.credentials.firstIndex(where: { $0.id == id }) else {
            return logical(.unknownCredential)
        }
        let credential = journey.credentials[index]
        guard !credential.isFinished else { return logical(.deadCredential) }
        let before = timerView
        journey.open = index
        state = .active(journey)
        return [.display(.credentialStarted(id: id, isConfigured: credential.isConfigured, parts: credential.parts))]
            + settle(from: before, activity: true)
    }

    /// Chooses the country and document of the open `id` credential.
    public mutating func setConfiguration(country: String, document: Document) -> [Action] {
        configureOpenCredential { credential in
            guard credential.isSupportedConfiguration(country: country, document: document) else { return false }
            credential.setConfiguration(country: country, document: document)
            return true
        }
    }

    /// Chooses a Digital Identity for the open `id` credential (seeds: `setConfiguration` with a
    /// `Jumio.Document.Digital`); its one part is `digital`.
    ///
    /// Refused as not supported when the workflow does not offer it, or brought no hand-off for its provider.
    public mutating func setConfiguration(country: String, digitalDocument: DigitalDocument) -> [Action] {
        let handoffs = journey?.workflow.digitalHandoffs ?? []
        return configureOpenCredential { credential in
            guard credential.isSupportedConfiguration(country: country, digitalDocument: digitalDocument),
                handoffs.contains(where: { $0.provider == digitalDocument.id })
            else { return false }
            credential.setConfiguration(country: country, digitalDocument: digitalDocument)
            return true
        }
    }

    /// Chooses how the open `document` credential acquires its image.
    public mutating func setAcquireMode(_ mode: Credential.AcquireMode) -> [Action] {
        configureOpenCredential { credential in
            guard credential.isSupportedConfiguration(acquireMode: mode) else { return false }
            credential.acquireMode = mode
            return true
        }
    }

    private mutating func configureOpenCredential(_ configure: (inout Credential) -> Bool) -> [Action] {
        guard case .active(var journey) = state else { return notActive() }
        guard let index = journey.open else { return logical(.unknownCredential) }
        guard journey.scan == nil, journey.credentials[index].finishedParts.isEmpty else {
            return logical(.scanPartNotCompleted)
        }
        let before = timerView
        var credential = journey.credentials[index]
        let accepted = configure(&credential)
        journey.credentials[index] = credential
        state = .active(journey)
        let message: DisplayMessage =
            accepted
            ? .credentialConfigured(id: credential.id, parts: credential.parts)
            : .configurationNotSupported(id: credential.id)
        return [.display(message)] + settle(from: before, activity: true)
    }

    /// Starts scanning a part of the open credential (seeds: `initScanPart` + `start`).
    public mutating func startScanPart(_ part: Credential.Part) -> [Action] {
        guard case .active(var journey) = state else { return notActive() }
        guard let index = journey.open else { return logical(.unknownCredential) }
        guard journey.scan == nil else { return logical(.multipleScanParts) }
        let credential = journey.credentials[index]
        guard credential.isConfigured else { return logical(.credentialNotCompleted) }
        guard credential.parts.contains(part) else { return logical(.unknownScanPart) }
        guard !credential.finishedParts.contains(part) else { return logical(.deadScanPart) }
        let mode = credential.mode(for: part)
        if mode.usesCamera, !journey.cameraAvailable {
            return end(error: .cameraUnavailable)
        }
        let before = timerView
        let handoff = credential.digitalConfiguration.flatMap { chosen in
            journey.workflow.digitalHandoffs.first { $0.provider == chosen.document.id }
        }
        let (scan, actions) = ScanPart.start(
            part,
            mode: mode,
            handoff: part == .digital ? handoff : nil,
            maxImages: part == .document && mode.usesCamera ? configuration.maxDocumentPages : nil,
            maxAttempts: configuration.maxAttemptsPerPart
        )
        journey.scan = scan
        state = .active(journey)
        return actions + settle(from: before, activity: true, actions: actions)
    }

    /// The shutter button in a manual mode.
    public mutating func takeImage() -> [Action] {
        onScanPart(command: true) { $0.takeImage() }
    }

    /// The person says the last page of a paper document was taken: `imageTaken`, and the
    /// pages go to the backend. A logical error before the first page, or for a part that
    /// takes one image.
    public mutating func lastPage() -> [Action] {
        onScanPart(command: true) { $0.lastPage() }
    }

    /// Accepts the capture on the confirmation view (seeds: `confirmationHandler.confirm()`).
    public mutating func confirm() -> [Action] {
        onScanPart(command: true) { $0.confirm() }
    }

    /// Captures the part again from the confirmation, reject or retry view.
    public mutating func retake() -> [Action] {
        onScanPart(command: true) { $0.retake() }
    }

    /// Switches the part to its fallback mode (seed 002: `switchToFallback`).
    public mutating func switchToFallback() -> [Action] {
        onScanPart(command: true) { $0.switchToFallback(.userAction) }
    }

    /// A help screen opened: detection pauses, the preview goes on (seed 002: `pauseScan`).
    public mutating func pauseScan() -> [Action] {
        onScanPart(command: true) { $0.pause() }
    }

    /// The help screen closed: detection resumes (seed 002: `retryScan`).
    public mutating func retryScan() -> [Action] {
        onScanPart(command: true) { $0.resume() }
    }

    /// The person says they opened the Digital Identity hand-off on their phone: the display
    /// waits for the provider (`thirdPartyVerification`).
    public mutating func handoffConfirmed() -> [Action] {
        onScanPart(command: true) { $0.thirdPartyStarted(command: true) }
    }

    /// Finishes the part after `canFinish`; a passport's data page may lead to the chip add-on.
    public mutating func finishScanPart() -> [Action] {
        guard case .active(var journey) = state else { return notActive() }
        guard let index = journey.open else { return logical(.unknownCredential) }
        guard var scan = journey.scan else { return logical(.unknownScanPart) }
        guard scan.phase == .canFinish else { return logical(.scanPartNotCompleted) }
        let before = timerView
        scan.finish()
        var credential = journey.credentials[index]
        var actions: [Action] = []
        journey.scan = nil
        if scan.part == .nfc {
            credential.chipRead = !scan.chipSkipped
        } else {
            credential.finishedParts.insert(scan.part)
            journey.modes[credential.id, default: [:]][scan.part] = scan.mode
            // Without a key read from the MRZ the chip part asks the person for one.
            if credential.offersChipAddon(after: scan.part), journey.readerAvailable {
                let (chip, start) = ScanPart.start(
                    .nfc,
                    mode: .nfc,
                    chipAccessKeys: scan.chipAccessKeys,
                    maxAttempts: configuration.maxAttemptsPerPart
                )
                journey.scan = chip
                actions = [.display(.step(.addonScanPart(.nfc)))] + start
            }
        }
        journey.credentials[index] = credential
        state = .active(journey)
        return actions + settle(from: before, activity: true, actions: actions)
    }

    /// Finishes the open credential once all its parts are done (seeds: `credential.finish()`).
    public mutating func finishCredential() -> [Action] {
        guard case .active(var journey) = state else { return notActive() }
        guard let index = journey.open else { return logical(.unknownCredential) }
        guard journey.scan == nil else { return logical(.scanPartNotCompleted) }
        guard journey.credentials[index].isComplete else { return logical(.credentialNotCompleted) }
        let before = timerView
        journey.credentials[index].isFinished = true
        journey.open = nil
        state = .active(journey)
        return [.display(.credentialFinished(id: journey.credentials[index].id))]
            + settle(from: before, activity: true)
    }

    /// Ends the journey once every credential is finished: finalises with the backend
    /// (seeds: `controller.finish()`).
    public mutating func finish() -> [Action] {
        guard case .active(let journey) = state else { return notActive() }
        guard journey.open == nil, journey.credentials.allSatisfy(\.isFinished) else {
            return logical(.controllerNotCompleted)
        }
        let before = timerView
        state = .finishing(journey, failed: nil)
        return [.display(.finalizing), finalizeAction(journey)] + settle(from: before, activity: true)
    }

    /// The person or the owner cancels: the journey ends with G000000 from any state.
    public mutating func cancel() -> [Action] {
        if case .ended = state { return logical(.deadController) }
        return end(error: .cancelledByUser)
    }

    /// Retries what a retryable error interrupted (seed 002: `retryAfterError`).
    public mutating func retryAfterError() -> [Action] {
        switch state {
        case .idle, .ended:
            return logical(.deadController)
        case .finishing(let journey, let failed):
            guard failed != nil else { return logical(.isBeingFinished) }
            let before = timerView
            state = .finishing(journey, failed: nil)
            return [.display(.finalizing), finalizeAction(journey)] + settle(from: before, activity: true)
        case .consent:
            return logical(.errorNotRetryable)
        case .active(let journey):
            guard journey.scan?.phase == .failed else { return logical(.errorNotRetryable) }
            return onScanPart(command: true) { $0.retryAfterError() }
        }
    }

    /// The person answered "are you still there?" or touched the screen: the step's timer restarts.
    public mutating func userIsPresent() -> [Action] {
        switch state {
        case .idle, .ended: return logical(.deadController)
        case .consent, .active, .finishing: return settle(from: timerView, activity: true)
        }
    }

    // MARK: Device and backend events

    /// The camera delivers frames after `startCamera`.
    public mutating func cameraStarted() -> [Action] {
        onScanPart(command: false) { $0.cameraStarted() }
    }

    /// A device stopped answering. A lost camera ends a capture with H (or, between
    /// captures, is reported as unavailable and ends the journey when it is needed); a lost
    /// reader skips the chip add-on.
    public mutating func deviceLost(_ device: Device) -> [Action] {
        guard case .active(var journey) = state else { return [] }
        switch device {
        case .camera:
            journey.cameraAvailable = false
            state = .active(journey)
            if journey.scan?.holdsCamera == true {
                return end(error: .cameraUnavailable)
            }
            return [.display(.update(.cameraAvailable(false)))]
        case .reader:
            journey.readerAvailable = false
            state = .active(journey)
            return onScanPart(command: false) { $0.chipUnreadable() }
        }
    }

    /// A lost device is back; the display learns that the camera is available again.
    public mutating func deviceRestored(_ device: Device) -> [Action] {
        guard case .active(var journey) = state else { return [] }
        switch device {
        case .camera:
            journey.cameraAvailable = true
            state = .active(journey)
            return [.display(.update(.cameraAvailable(true)))]
        case .reader:
            journey.readerAvailable = true
            state = .active(journey)
            return []
        }
    }

    /// A capture pipeline's guidance (extraction state, flash, legal hint, ...).
    public mutating func scanUpdate(_ update: Scan.Update) -> [Action] {
        onScanPart(command: false) { $0.scanUpdate(update) }
    }

    /// The pipeline cannot capture automatically: switch to the fallback mode if there is one.
    public mutating func lowPerformance() -> [Action] {
        guard case .active(let journey) = state, let scan = journey.scan, scan.phase == .scanning,
            scan.mode.fallback != nil
        else { return [] }
        return onScanPart(command: false) { $0.switchToFallback(.lowPerformance) }
    }

    /// An image of the current side was captured, or a file was attached.
    ///
    /// - Parameters:
    ///   - image: the image, with the MRZ's chip access key when on-device reading found one.
    ///   - isLastOfSide: `false` when the mode takes more images of this side (`nextPosition`).
    public mutating func imageCaptured(_ image: CapturedImage, isLastOfSide: Bool = true) -> [Action] {
        onScanPart(command: false, activity: true) { $0.imageCaptured(image, isLastOfSide: isLastOfSide) }
    }

    /// The backend's Instant Feedback for the uploaded part.
    public mutating func partProcessed(_ outcome: PartOutcome) -> [Action] {
        onScanPart(command: false) { $0.partProcessed(outcome) }
    }

    /// The capture or upload of the open part failed. Retryable errors wait for
    /// `retryAfterError`; the others end the journey.
    public mutating func scanFailed(_ error: FlowError) -> [Action] {
        guard case .active(let journey) = state, let scan = journey.scan else { return [] }
        switch scan.phase {
        case .starting, .scanning, .paused, .processing, .handoff, .thirdParty: break
        default: return []
        }
        guard error.isRetryable else { return end(error: error) }
        return onScanPart(command: false) { $0.failed(error) }
    }

    /// The backend saw the person open the Digital Identity provider's session.
    public mutating func thirdPartySessionOpened() -> [Action] {
        onScanPart(command: false) { $0.thirdPartyStarted(command: false) }
    }

    /// The backend reports how the Digital Identity provider's verification ended.
    ///
    /// The outcome may arrive before the session was seen to open: the person can be quick.
    public mutating func thirdPartyFinished(_ outcome: ThirdPartyOutcome) -> [Action] {
        guard case .active(var journey) = state, let index = journey.open, let scan = journey.scan,
            scan.phase == .handoff || scan.phase == .thirdParty
        else { return [] }
        switch outcome {
        case .cancelled:
            // Cancelling at the provider is not cancelling the journey: the person may choose
            // another document, or cancel at the station.
            let before = timerView
            journey.scan = nil
            journey.credentials[index].clearConfiguration()
            state = .active(journey)
            let id = journey.credentials[index].id
            return [.display(.credentialStarted(id: id, isConfigured: false, parts: []))]
                + settle(from: before, activity: true)
        case .error(let error) where !error.isRetryable:
            return end(error: error)
        case .success, .failed, .error:
            return onScanPart(command: false) { $0.thirdPartyFinished(outcome) }
        }
    }

    /// An error not tied to a part (an invalid enrollment reference, an expired certificate).
    /// Non-retryable errors end the journey; retryable ones are only shown.
    public mutating func sessionFailed(_ error: FlowError) -> [Action] {
        switch state {
        case .idle, .ended: return []
        case .consent, .active, .finishing: break
        }
        guard error.isRetryable else { return end(error: error) }
        return [.display(.error(error))]
    }

    /// The document answered on the reader and reading began.
    public mutating func chipReadStarted() -> [Action] {
        onScanPart(command: false) { $0.chipReadStarted() }
    }

    /// How far the chip reading got.
    ///
    /// - Parameter percent: 0...100; values outside are clamped.
    public mutating func chipReadProgress(_ percent: Int) -> [Action] {
        onScanPart(command: false) { $0.chipReadProgress(percent) }
    }

    /// The chip was read; its data goes to the backend.
    public mutating func chipReadFinished() -> [Action] {
        onScanPart(command: false) { $0.chipReadFinished() }
    }

    /// The chip does not answer: the add-on is skipped, the journey goes on.
    public mutating func chipUnreadable() -> [Action] {
        onScanPart(command: false) { $0.chipUnreadable() }
    }

    /// The chip refused the key: the next key read from the MRZ is tried, then the person
    /// is asked to type one (`chipKeyView`).
    public mutating func chipRefusedKey() -> [Action] {
        onScanPart(command: false) { $0.chipRefusedKey() }
    }

    /// The key the person typed on `chipKeyView`: the chip is read with it.
    public mutating func enterChipKey(_ key: ChipAccessKey) -> [Action] {
        onScanPart(command: true) { $0.enterChipKey(key) }
    }

    /// The backend finalised the transaction.
    ///
    /// - Parameter outcome: SUCCESS/FAILED of an authentication; an authentication without
    ///   one ends with M ("could not be processed").
    public mutating func finalized(_ outcome: JourneyResult.AuthenticationOutcome? = nil) -> [Action] {
        guard case .finishing(let journey, failed: nil) = state else { return [] }
        if case .authentication = journey.workflow.flow, outcome == nil {
            return end(error: FlowError(.M))
        }
        return end(error: nil, authentication: outcome)
    }

    /// Finalising failed: retryable errors wait for `retryAfterError`, the others end the journey.
    public mutating func finalizeFailed(_ error: FlowError) -> [Action] {
        guard case .finishing(let journey, failed: nil) = state else { return [] }
        guard error.isRetryable else { return end(error: error) }
        let before = timerView
        state = .finishing(journey, failed: error)
        return [.display(.error(error))] + settle(from: before, activity: false)
    }

    /// A timer the controller scheduled ran out.
    public mutating func timeoutFired(_ timeout: Timeout) -> [Action] {
        switch state {
        case .idle, .ended: return []
        case .consent, .active, .finishing: break
        }
        switch timeout.kind {
        case .session:
            return end(error: .sessionExpired)
        case .inactivity:
            guard timeout.generation == inactivityGeneration else { return [] }
            guard inactivityWarned else {
                inactivityWarned = true
                inactivityGeneration += 1
                let grace = configuration.inactivityWarningGrace
                return [
                    .display(.inactivityWarning(remaining: grace)),
                    .scheduleTimeout(Timeout(.inactivity, generation: inactivityGeneration), after: grace),
                ]
            }
            return end(error: .abandoned)
        case .device:
            guard timeout.generation == deviceGeneration, timerView.deviceStarting else { return [] }
            return end(error: .cameraUnavailable)
        }
    }

    // MARK: Helpers

    private func logical(_ error: LogicalError) -> [Action] {
        [.display(.logicalError(error))]
    }

    /// The logical error for a credential or scan-part command outside the active state.
    private func notActive() -> [Action] {
        switch state {
        case .idle, .ended: logical(.deadController)
        case .consent: logical(.needToConsentFirst)
        case .finishing: logical(.isBeingFinished)
        case .active: logical(.unknownCredential)
        }
    }

    /// Runs an event on the open scan part.
    ///
    /// - Parameters:
    ///   - command: the person or the owner sent it, so a wrong state is a logical error
    ///     and the inactivity timer restarts; device events in a wrong state are dropped.
    ///   - activity: the event shows someone is there even though it is not a command.
    private mutating func onScanPart(
        command: Bool,
        activity: Bool = false,
        _ event: (inout ScanPart) -> [Action]
    ) -> [Action] {
        guard case .active(var journey) = state else { return command ? notActive() : [] }
        guard journey.open != nil else { return command ? logical(.unknownCredential) : [] }
        guard var scan = journey.scan else { return command ? logical(.unknownScanPart) : [] }
        let before = timerView
        let actions = event(&scan)
        if actions.isEmpty { return [] }
        if actions.count == 1, case .display(.logicalError) = actions[0] { return actions }
        if actions.contains(where: \.startsCamera), !journey.cameraAvailable {
            // The part would restart a camera that is gone: end while the old part, which holds no camera, is current.
            return end(error: .cameraUnavailable)
        }
        journey.scan = scan
        state = .active(journey)
        return actions + settle(from: before, activity: command || activity, actions: actions)
    }

    private var timerView: TimerView {
        TimerView(phase: awaitedPhase, deviceStarting: journey?.scan?.phase == .starting)
    }

    /// The step the station waits at for the person, if it waits for the person at all.
    private var awaitedPhase: InactivityPhase? {
        switch state {
        case .idle, .ended:
            return nil
        case .consent:
            return .consent
        case .finishing(_, let failed):
            return failed == nil ? nil : .error
        case .active(let journey):
            guard let scan = journey.scan else { return .selection }
            switch scan.phase {
            case .starting, .readingChip, .processing: return nil
            case .handoff: return .handoff
            case .thirdParty: return .thirdParty
            case .scanning: return .scanning
            case .paused: return .help
            case .awaitingChip: return .chip
            case .enteringChipKey: return .chipKey
            case .confirmation: return .confirmation
            case .rejected: return .reject
            case .retry: return .retry
            case .failed: return .error
            case .canFinish: return .canFinish
            case .finished: return .selection
            }
        }
    }

    /// Re-arms or cancels the inactivity and device timers after an event.
    private mutating func settle(from before: TimerView, activity: Bool, actions: [Action] = []) -> [Action] {
        var timers: [Action] = []
        let phase = awaitedPhase
        if phase != before.phase || (activity && phase != nil) {
            inactivityGeneration += 1
            inactivityWarned = false
            if let phase {
                timers.append(
                    .scheduleTimeout(
                        Timeout(.inactivity, generation: inactivityGeneration),
                        after: configuration.inactivityTimeout(for: phase)
                    )
                )
            } else {
                timers.append(.cancelTimeout(.inactivity))
            }
        }
        if actions.contains(where: \.startsCamera) {
            deviceGeneration += 1
            timers.append(
                .scheduleTimeout(Timeout(.device, generation: deviceGeneration), after: configuration.deviceStartTimeout)
            )
        } else if before.deviceStarting, !timerView.deviceStarting {
            timers.append(.cancelTimeout(.device))
        }
        return timers
    }

    private func finalizeAction(_ journey: Journey) -> Action {
        if case .fastfill = journey.workflow.flow { return .finalize(extractionOnly: true) }
        return .finalize(extractionOnly: false)
    }

    /// Ends the journey: devices stop, timers go, the result is sent once, the session is wiped.
    private mutating func end(
        error: FlowError?,
        authentication: JourneyResult.AuthenticationOutcome? = nil
    ) -> [Action] {
        var actions: [Action] = []
        let journey = self.journey
        if let scan = journey?.scan {
            if scan.holdsCamera { actions.append(.stopCamera) }
            if scan.holdsReader { actions.append(.stopChipRead) }
        }
        actions += Timeout.Kind.allCases.map { .cancelTimeout($0) }
        if let error, error.family != .G {
            actions.append(.display(.error(error)))
        }
        var verification = true
        if case .fastfill = journey?.workflow.flow { verification = false }
        let result = JourneyResult(
            isSuccess: error == nil,
            verification: verification,
            credentials: (journey?.credentials ?? []).filter { !$0.finishedParts.isEmpty || $0.isFinished }.map {
                JourneyResult.CredentialResult(
                    id: $0.id,
                    category: $0.category,
                    parts: journey?.modes[$0.id] ?? [:],
                    chipRead: $0.chipRead
                )
            },
            authentication: authentication,
            error: error
        )
        actions += [.display(.finished(result)), .wipeSession]
        state = .ended
        return actions
    }
}

extension Controller: CustomStringConvertible {
    /// The state's name and the part being scanned; never the workflow's token or the captures.
    public var description: String {
        let name: String
        switch state {
        case .idle: name = "idle"
        case .consent(_, let pending): name = "consent(\(pending.count) pending)"
        case .active: name = "active"
        case .finishing(_, let failed): name = failed == nil ? "finishing" : "finishing(failed)"
        case .ended: name = "ended"
        }
        guard let scan = journey?.scan else { return "Controller(\(name))" }
        return "Controller(\(name), \(scan.part.rawValue) in \(scan.mode.rawValue): \(scan.phase))"
    }
}
