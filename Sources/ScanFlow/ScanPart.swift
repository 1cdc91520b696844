/// The scan of one part of a credential, from start to `canFinish` (seeds: `Jumio.Scan.Part`).
///
/// A state machine of its own that the `Controller` drives: one mutating function per
/// event, each returning the actions to perform. Timers and ending the journey are the
/// controller's business; a scan part only knows its own lifecycle.
struct ScanPart: Sendable {
    /// Where the part is, as far as its owner needs to know.
    enum Phase: Hashable, Sendable {
        /// A device is starting; the device timer runs.
        case starting
        case scanning
        case paused
        /// The chip reader waits for the document.
        case awaitingChip
        /// The person is asked to type the chip's key.
        case enteringChipKey
        /// The chip is being read.
        case readingChip
        case processing
        /// A Digital Identity's hand-off is on screen: the person opens it on their phone.
        case handoff
        /// The person verifies with the Digital Identity provider; the station waits for its outcome.
        case thirdParty
        case confirmation
        case rejected
        case retry
        /// A retryable error waits for `retryAfterError`.
        case failed
        case canFinish
        case finished
    }

    private enum State: Sendable {
        case starting(side: Int)
        case scanning(side: Int, paused: Bool)
        case awaitingChip
        case enteringChipKey
        case readingChip
        case processing
        case handoff
        case thirdParty
        case confirmation
        case rejected
        case retry
        case failed(resume: Resume)
        case canFinish
        case finished
    }

    private enum Resume: Sendable {
        case rescan
        /// Scan the back of a multipart again, keeping the front (seeds: Z).
        case rescanBack
        case reupload
    }

    let part: Credential.Part
    private(set) var mode: Scan.Mode
    /// Rejections, retries and help requests since the part (or its fallback mode) started.
    private(set) var failedAttempts = 0
    /// The keys read from the MRZ of this part's images, the likeliest first, for the chip
    /// add-on; the chip part tries them in turn, then the keys the person types.
    private(set) var chipAccessKeys: [ChipAccessKey] = []
    /// The key the chip part is trying (an index into `chipAccessKeys`).
    private var chipKeyIndex = 0
    /// Which of `chipAccessKeys` the person typed (they follow the ones read).
    private var typedKeys: Set<Int> = []
    /// Whether the chip could not be read and the add-on was skipped.
    private(set) var chipSkipped = false
    private var images: [CapturedImage] = []
    /// How many of `images` show the front, once a multipart moved on to its back.
    private var frontImageCount = 0
    /// Where a digital part sends the person; `nil` for every other part.
    private var handoff: DigitalHandoff?
    private var state: State
    private let maxAttempts: Int
    /// The most images of a part that takes several, one by one until the person says the
    /// last was taken (a paper document's pages); nil: the capture says which is the last.
    private let maxImages: Int?

    /// Sides scanned in one part: a multipart scans front, then back.
    private var sides: [Credential.Part] {
        part == .multipart ? [.front, .back] : [part]
    }

    /// Creates the scan part and returns the actions that start it.
    static func start(
        _ part: Credential.Part,
        mode: Scan.Mode,
        chipAccessKeys: [ChipAccessKey] = [],
        handoff: DigitalHandoff? = nil,
        maxImages: Int? = nil,
        maxAttempts: Int
    ) -> (ScanPart, [Controller.Action]) {
        var scan = ScanPart(part: part, mode: mode, state: .starting(side: 0), maxAttempts: maxAttempts, maxImages: maxImages)
        scan.chipAccessKeys = chipAccessKeys
        scan.handoff = handoff
        let actions = scan.beginCapture()
        return (scan, actions)
    }

    private init(part: Credential.Part, mode: Scan.Mode, state: State, maxAttempts: Int, maxImages: Int?) {
        self.part = part
        self.mode = mode
        self.state = state
        self.maxAttempts = maxAttempts
        self.maxImages = maxImages.map { max(1, $0) }
    }

    var phase: Phase {
        switch state {
        case .starting: .starting
        case .scanning(_, let paused): paused ? .paused : .scanning
        case .awaitingChip: .awaitingChip
        case .enteringChipKey: .enteringChipKey
        case .readingChip: .readingChip
        case .processing: .processing
        case .handoff: .handoff
        case .thirdParty: .thirdParty
        case .confirmation: .confirmation
        case .rejected: .rejected
        case .retry: .retry
        case .failed: .failed
        case .canFinish: .canFinish
        case .finished: .finished
        }
    }

    /// Whether the camera is running for this part (so ending the journey must stop it).
    var holdsCamera: Bool {
        guard mode.usesCamera else { return false }
        switch state {
        case .starting, .scanning: return true
        default: return false
        }
    }

    /// Whether the chip reader is working for this part.
    var holdsReader: Bool {
        switch state {
        case .awaitingChip, .readingChip: true
        default: false
        }
    }

    // MARK: Capture

    /// Starts capturing at a side: from the front with no images, or at the back of a
    /// multipart keeping the front's images.
    private mutating func beginCapture(side: Int = 0) -> [Controller.Action] {
        images = side == 0 ? [] : Array(images.prefix(frontImageCount))
        switch mode {
        case .nfc:
            chipKeyIndex = 0
            guard let key = chipAccessKeys.first else {
                // No key read from the MRZ in time: the person types one (or goes on without the chip).
                state = .enteringChipKey
                return [.display(.step(.started(part, mode))), .display(.step(.chipKeyView(part, .notRead)))]
            }
            state = .awaitingChip
            return [
                .display(.step(.started(part, mode))),
                .display(.step(.scanView(part, mode))),
                .startChipRead(key),
            ]
        case .file:
            state = .scanning(side: 0, paused: false)
            return [
                .display(.step(.started(part, mode))),
                .display(.step(.scanView(part, mode))),
                .requestFile,
            ]
        case .web:
            // Nothing to capture: the person continues on their phone with the provider.
            state = .handoff
            var actions: [Controller.Action] = [
                .display(.step(.prepare(part))),
                .display(.step(.started(part, mode))),
            ]
            if let handoff { actions.append(.display(.digitalHandoff(handoff))) }
            return actions + [.display(.step(.digitalIdentityView(part)))]
        case .manual, .docFinder, .barcode, .faceManual, .faceLiveness:
            state = .starting(side: side)
            return [.display(.step(.prepare(part))), .startCamera(mode)]
        }
    }

    /// The camera delivers frames.
    mutating func cameraStarted() -> [Controller.Action] {
        guard case .starting(let side) = state else { return [] }
        state = .scanning(side: side, paused: false)
        let view: [Controller.Action] = [.display(.step(.started(part, mode))), .display(.step(.scanView(part, mode)))]
        // Resuming at the back (after Z): guide the person to turn the card again.
        return side == 0 ? view : view + [.display(.step(.nextPart(sides[side])))]
    }

    /// A pipeline's guidance for the person; shown only while detection runs.
    mutating func scanUpdate(_ update: Scan.Update) -> [Controller.Action] {
        guard case .scanning(_, paused: false) = state else { return [] }
        return [.display(.update(update))]
    }

    /// The shutter was pressed.
    mutating func takeImage() -> [Controller.Action] {
        guard case .scanning(_, paused: false) = state, mode.hasShutter else {
            return [.display(.logicalError(.takePictureNotAllowed))]
        }
        return [.captureImage]
    }

    /// An image (or an attached file) of the current side arrived.
    mutating func imageCaptured(_ image: CapturedImage, isLastOfSide: Bool) -> [Controller.Action] {
        // A frame in flight when detection paused or the step changed is not a misuse: drop it.
        guard case .scanning(let side, paused: false) = state else { return [] }
        images.append(image)
        if let maxImages {
            // A page at a time: the capture never knows which is the last; the person (or the maximum) does.
            guard images.count >= maxImages else {
                return [.display(.update(.nextPosition(Scan.ImageCount(taken: images.count, maximum: maxImages))))]
            }
            return allImagesTaken()
        }
        if !isLastOfSide {
            return [.display(.update(.nextPosition(nil)))]
        }
        if side + 1 < sides.count {
            frontImageCount = images.count
            state = .scanning(side: side + 1, paused: false)
            return [.display(.step(.nextPart(sides[side + 1])))]
        }
        return allImagesTaken()
    }

    /// The person says the last page was taken (`lastPage`); only a part that takes its
    /// images one by one, and only once it has one.
    mutating func lastPage() -> [Controller.Action] {
        guard maxImages != nil, !images.isEmpty else { return [.display(.logicalError(.scanPartNotCompleted))] }
        switch state {
        case .scanning: return allImagesTaken()
        default: return [.display(.logicalError(.scanPartNotCompleted))]
        }
    }

    /// Every image of the part is there: `imageTaken` (once a part), upload, processing.
    private mutating func allImagesTaken() -> [Controller.Action] {
        chipAccessKeys = []
        for key in images.flatMap(\.chipAccessKeys) where !chipAccessKeys.contains(key) { chipAccessKeys.append(key) }
        state = .processing
        var actions: [Controller.Action] = mode.usesCamera ? [.stopCamera] : []
        actions += [
            .display(.step(.imageTaken(part))),
            .uploadPart(part, images),
            .display(.step(.processing(part))),
        ]
        return actions
    }

    /// The backend's Instant Feedback on the uploaded images.
    mutating func partProcessed(_ outcome: Controller.PartOutcome) -> [Controller.Action] {
        guard case .processing = state else { return [] }
        switch outcome {
        case .accepted:
            switch part {
            case .front, .back, .multipart, .document:
                state = .confirmation
                return [.display(.step(.confirmationView(part)))]
            case .face, .nfc, .digital:
                state = .canFinish
                return [.display(.step(.canFinish(part)))]
            }
        case .rejected(let reasons):
            state = .rejected
            failedAttempts += 1
            return [.display(.step(.rejectView(reasons)))] + escalation()
        case .retry(let reason):
            state = .retry
            failedAttempts += 1
            return [.display(.step(.retry(part, reason)))] + escalation()
        }
    }

    private func escalation() -> [Controller.Action] {
        guard failedAttempts >= maxAttempts else { return [] }
        if let fallback = mode.fallback {
            return [.display(.offerFallback(part, fallback))]
        }
        return [.display(.askStaff(part))]
    }

    /// The person accepted the capture on the confirmation view.
    mutating func confirm() -> [Controller.Action] {
        guard case .confirmation = state else { return [.display(.logicalError(.scanPartNotCompleted))] }
        state = .canFinish
        return [.display(.step(.canFinish(part)))]
    }

    /// The person wants to capture the part again (confirmation, reject or retry view).
    mutating func retake() -> [Controller.Action] {
        switch state {
        case .confirmation, .rejected, .retry:
            chipAccessKeys = []
            return beginCapture()
        default:
            return [.display(.logicalError(.scanPartNotCompleted))]
        }
    }

    /// The person (`userAction`) or the pipeline (`lowPerformance`) asks for the fallback mode.
    ///
    /// The chip add-on's fallback is to go on without it: a person whose document has no
    /// working chip must not be stuck at the reader until the station resets.
    mutating func switchToFallback(_ reason: Scan.FallbackReason) -> [Controller.Action] {
        let wasScanning: Bool
        switch state {
        case .starting, .scanning: wasScanning = true
        case .rejected, .retry: wasScanning = false
        case .awaitingChip, .readingChip:
            chipSkipped = true
            state = .canFinish
            return [.stopChipRead, .display(.update(.fallback(reason))), .display(.step(.canFinish(part)))]
        case .enteringChipKey:
            chipSkipped = true
            state = .canFinish
            return [.display(.update(.fallback(reason))), .display(.step(.canFinish(part)))]
        default: return [.display(.logicalError(.scanPartNotCompleted))]
        }
        guard let fallback = mode.fallback else { return [.display(.logicalError(.noFallbackAvailable))] }
        mode = fallback
        failedAttempts = 0
        let stop: [Controller.Action] = wasScanning ? [.stopCamera] : []
        return stop + [.display(.update(.fallback(reason)))] + beginCapture()
    }

    /// A help screen is shown: detection pauses.
    ///
    /// A person who asks for help is stuck: it counts as a failed try, so that a document that
    /// is never found or a face that never passes leads to the fallback, then to staff, after
    /// the configured tries, not to the inactivity timeout.
    mutating func pause() -> [Controller.Action] {
        guard case .scanning(let side, paused: false) = state else {
            return [.display(.logicalError(.scanPartNotCompleted))]
        }
        state = .scanning(side: side, paused: true)
        failedAttempts += 1
        return [.pauseDetection] + escalation()
    }

    /// The help screen was closed: detection resumes.
    mutating func resume() -> [Controller.Action] {
        guard case .scanning(let side, paused: true) = state else {
            return [.display(.logicalError(.scanPartNotCompleted))]
        }
        state = .scanning(side: side, paused: false)
        return [.resumeDetection]
    }

    /// A retryable error of the capture or the upload; the caller ends the journey for the others.
    mutating func failed(_ error: FlowError) -> [Controller.Action] {
        switch state {
        case .handoff, .thirdParty:
            // The provider's session is gone; a retry hands over again.
            state = .failed(resume: .rescan)
            return [.display(.error(error))]
        case .starting(let side), .scanning(let side, _):
            let stop: [Controller.Action] = mode.usesCamera ? [.stopCamera] : []
            // Z at the back of a card: the front is fine, only the back is scanned again.
            state = .failed(resume: error.family == .Z && side > 0 ? .rescanBack : .rescan)
            return stop + [.display(.error(error))]
        case .processing:
            // A network error leaves the images valid; a Y/Z hint means they show the wrong side:
            // Y (the barcode has no address) starts again at the front, Z scans the back again.
            // A digital part has no images to send again: it hands over again.
            let resume: Resume
            switch error.family {
            case .Z where sides.count > 1: resume = .rescanBack
            case .Y, .Z: resume = .rescan
            default: resume = mode == .web ? .rescan : .reupload
            }
            state = .failed(resume: resume)
            return [.display(.error(error))]
        default:
            return []
        }
    }

    /// `retryAfterError` after a retryable error.
    mutating func retryAfterError() -> [Controller.Action] {
        guard case .failed(let resume) = state else { return [.display(.logicalError(.errorNotRetryable))] }
        switch resume {
        case .rescan:
            return beginCapture()
        case .rescanBack:
            return beginCapture(side: 1)
        case .reupload:
            state = .processing
            return [.uploadPart(part, images), .display(.step(.processing(part)))]
        }
    }

    // MARK: Digital Identity

    /// The person started the provider's verification on their phone, as they said on the
    /// display (`command`) or as the backend saw the provider's session open.
    mutating func thirdPartyStarted(command: Bool) -> [Controller.Action] {
        guard case .handoff = state else {
            return command ? [.display(.logicalError(.scanPartNotCompleted))] : []
        }
        state = .thirdParty
        return [.display(.step(.thirdPartyVerification(part)))]
    }

    /// The provider's outcome, other than the person's cancel (the controller handles that).
    mutating func thirdPartyFinished(_ outcome: Controller.ThirdPartyOutcome) -> [Controller.Action] {
        switch state {
        case .handoff, .thirdParty: break
        default: return []
        }
        switch outcome {
        case .success:
            // The backend fetches the provider's data and answers with `partProcessed`, as for an upload.
            state = .processing
            return [.display(.step(.processing(part)))]
        case .failed(let reason):
            state = .retry
            failedAttempts += 1
            return [.display(.step(.retry(part, reason)))] + escalation()
        case .error(let error):
            return failed(error)
        case .cancelled:
            return []
        }
    }

    // MARK: Chip

    mutating func chipReadStarted() -> [Controller.Action] {
        guard case .awaitingChip = state else { return [] }
        state = .readingChip
        return [.display(.update(.nfcExtractionStarted))]
    }

    mutating func chipReadProgress(_ percent: Int) -> [Controller.Action] {
        guard case .readingChip = state else { return [] }
        return [.display(.update(.nfcExtractionProgress(min(max(percent, 0), 100))))]
    }

    mutating func chipReadFinished() -> [Controller.Action] {
        guard case .readingChip = state else { return [] }
        state = .canFinish
        return [
            .display(.update(.nfcExtractionFinished)),
            .uploadChipData,
            .display(.step(.canFinish(part))),
        ]
    }

    /// The chip refused the key: the next key the frames agreed on, else the person is
    /// asked for one. A refused key the person typed counts as a failed attempt.
    mutating func chipRefusedKey() -> [Controller.Action] {
        guard holdsReader else { return [] }
        let refusedTyped = typedKeys.contains(chipKeyIndex)
        if !refusedTyped, chipKeyIndex + 1 < chipAccessKeys.count {
            chipKeyIndex += 1
            state = .awaitingChip
            return [.stopChipRead, .display(.step(.scanView(part, mode))), .startChipRead(chipAccessKeys[chipKeyIndex])]
        }
        if refusedTyped { failedAttempts += 1 }
        state = .enteringChipKey
        return [.stopChipRead, .display(.update(.nfcExtractionFinished)), .display(.step(.chipKeyView(part, .refused)))] + escalation()
    }

    /// The key the person typed on the chip key view: the reader waits for the document with it.
    mutating func enterChipKey(_ key: ChipAccessKey) -> [Controller.Action] {
        guard case .enteringChipKey = state else { return [.display(.logicalError(.scanPartNotCompleted))] }
        typedKeys.insert(chipAccessKeys.count)
        chipAccessKeys.append(key)
        chipKeyIndex = chipAccessKeys.count - 1
        state = .awaitingChip
        return [.display(.step(.scanView(part, mode))), .startChipRead(key)]
    }

    /// The chip cannot be read (no chip answer, access denied, reader lost): skip the add-on.
    mutating func chipUnreadable() -> [Controller.Action] {
        guard holdsReader else { return [] }
        chipSkipped = true
        state = .canFinish
        return [
            .stopChipRead,
            .display(.update(.nfcExtractionFinished)),
            .display(.step(.canFinish(part))),
        ]
    }

    /// `finishScanPart`; the caller checks `phase == .canFinish` first.
    mutating func finish() {
        state = .finished
    }
}

extension ScanPart {
    /// The side being started or scanned.
    var currentSide: Int? {
        switch state {
        case .starting(let side), .scanning(let side, _): side
        default: nil
        }
    }
}
