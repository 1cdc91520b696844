/// The flash/no-flash frame pair as a pure state machine over frame timestamps.
///
/// The owner feeds frames (their capture timestamps) and the moments the LED actually
/// switched, on the same clock as the frames (V4L2: CLOCK_MONOTONIC), and performs the
/// returned actions. The sequence:
/// 1. the first frame taken after `start` is kept as the no-flash frame, and the LED
///    is switched on;
/// 2. frames taken before the switch plus one frame period are dropped: their
///    exposure may have begun before the LED was lit;
/// 3. the first frame after that is kept as the flash frame, and the LED switched off;
/// 4. once the LED is off the pair is complete.
/// If the pair is not complete by the time limit, the LED is switched off and the pair fails.
public struct FlashPair: Sendable {
    public enum Action: Hashable, Sendable {
        /// Switch the LED; report the moment with `flashSwitched(_:at:)`.
        case switchFlash(FlashState)
        case dropFrame
        case keepNoFlashFrame
        case keepFlashFrame
        /// Both frames are kept and the LED is off.
        case completed
        /// Time ran out; `switchFlash(.off)` came before it when the LED was on.
        case failed
    }

    private enum State: Hashable, Sendable {
        case idle
        case waitingForNoFlashFrame
        case switchingOn
        case waitingForFlashFrame(switchedOnAt: Duration)
        case switchingOff
        case completed
        case failed
    }

    public let framePeriod: Duration
    public let timeLimit: Duration
    private var state = State.idle
    private var startedAt: Duration = .zero
    /// Frames dropped while waiting for a fully lit one.
    public private(set) var droppedFrames = 0

    public init(framePeriod: Duration, timeLimit: Duration = .seconds(2)) {
        self.framePeriod = framePeriod
        self.timeLimit = timeLimit
    }

    public var isFinished: Bool { state == .completed || state == .failed }

    /// Starts the pair at `now`; frames taken before it are dropped.
    public mutating func start(at now: Duration) -> [Action] {
        guard state == .idle else { return [] }
        startedAt = now
        state = .waitingForNoFlashFrame
        return []
    }

    /// A frame taken at `timestamp` arrived.
    public mutating func frameArrived(timestamp: Duration) -> [Action] {
        switch state {
        case .waitingForNoFlashFrame:
            if timestamp < startedAt {
                droppedFrames += 1
                return [.dropFrame]
            }
            state = .switchingOn
            return [.keepNoFlashFrame, .switchFlash(.on)]
        case .switchingOn:
            droppedFrames += 1
            return [.dropFrame]
        case .waitingForFlashFrame(let switchedOnAt):
            if timestamp < switchedOnAt + framePeriod {
                droppedFrames += 1
                return [.dropFrame]
            }
            state = .switchingOff
            return [.keepFlashFrame, .switchFlash(.off)]
        case .idle, .switchingOff, .completed, .failed:
            return [.dropFrame]
        }
    }

    /// The LED switched at `time`.
    public mutating func flashSwitched(_ flash: FlashState, at time: Duration) -> [Action] {
        switch (state, flash) {
        case (.switchingOn, .on):
            state = .waitingForFlashFrame(switchedOnAt: time)
            return []
        case (.switchingOff, .off):
            state = .completed
            return [.completed]
        default:
            return []
        }
    }

    /// Time passed; fails the pair when the limit is reached.
    public mutating func tick(now: Duration) -> [Action] {
        guard !isFinished, state != .idle, now >= startedAt + timeLimit else { return [] }
        let ledMayBeOn: Bool
        switch state {
        case .switchingOn, .waitingForFlashFrame, .switchingOff: ledMayBeOn = true
        default: ledMayBeOn = false
        }
        state = .failed
        return ledMayBeOn ? [.switchFlash(.off), .failed] : [.failed]
    }
}
