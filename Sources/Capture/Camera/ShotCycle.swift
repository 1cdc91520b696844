import ScanFlow

/// The cycle the document and face captures share: look at frames (through their gate in
/// the automatic modes, for the shutter in the manual ones), take one, then ignore frames
/// until a pause is over (the person turns the card over, or settles).
///
/// A value told the time (the injected clock's time since the capture began): the pause is
/// a deadline, not a sleep, so frames keep flowing to the preview meanwhile.
struct ShotCycle<Gate: ShotGate> {
    enum Action: Hashable, Sendable {
        /// Nothing to do with this frame.
        case ignore
        /// Measure the frame and call `measured(_:)`.
        case measure
        /// The guidance changed.
        case report(Scan.Update)
        /// Take this frame; `byShutter` when the person pressed the shutter (take the press).
        case take(byShutter: Bool)
        /// Give up the side; frames are ignored from now on.
        case giveUp(CaptureFailure)
    }

    private enum State: Hashable {
        case looking
        /// A frame is being taken; frames are not judged until `taken(at:)`.
        case taking
        case pausing(until: Duration)
        /// Given up: the capture waits to be stopped.
        case stopped
    }

    let automatic: Bool
    let pause: Duration
    /// The gate; the capture around the cycle may set what it needs to know (the side).
    var gate: Gate
    private var state = State.looking

    init(automatic: Bool, gate: Gate, pause: Duration) {
        self.automatic = automatic
        self.gate = gate
        self.pause = pause
    }

    /// A frame arrived at `now`.
    /// - Parameters:
    ///   - shutter: whether a shutter press is waiting.
    ///   - detectionPaused: whether detection is paused (a help screen shows).
    mutating func frame(at now: Duration, shutter: Bool, detectionPaused: Bool) -> Action {
        switch state {
        case .taking, .stopped:
            return .ignore
        case .pausing(let until):
            guard now >= until else { return .ignore }
            state = .looking
        case .looking:
            break
        }
        if shutter {
            state = .taking
            return .take(byShutter: true)
        }
        guard automatic, !detectionPaused else { return .ignore }
        return .measure
    }

    /// What the frame `frame(at:...)` asked about measured.
    mutating func measured(_ measure: Gate.Measure) -> Action {
        guard state == .looking else { return .ignore }
        switch gate.judge(measure) {
        case .wait(let update):
            return update.map { .report($0) } ?? .ignore
        case .take:
            state = .taking
            return .take(byShutter: false)
        case .giveUp(let failure):
            state = .stopped
            return .giveUp(failure)
        }
    }

    /// The frame was taken (or could not be) and reported at `now`; frames are ignored for the pause.
    mutating func taken(at now: Duration) {
        gate.reset()
        state = .pausing(until: now + pause)
    }

    /// The frame could not be taken (it did not encode): look again at the next one, no pause.
    mutating func notTaken() {
        state = .looking
    }
}
