import Synchronization

/// The shutter and the pause switch of a running capture, set by the station loop and read
/// by the capture task between frames.
public final class CaptureTrigger: Sendable {
    private struct State {
        var presses = 0
        var paused = false
    }

    private let state = Mutex(State())

    public init() {}

    /// The person pressed the shutter (`Controller.Action.captureImage`).
    public func press() { state.withLock { $0.presses += 1 } }

    /// Whether the shutter was pressed and the press not taken yet.
    public var hasPress: Bool { state.withLock { $0.presses > 0 } }

    /// Takes one shutter press, if there is one.
    public func takePress() -> Bool {
        state.withLock {
            guard $0.presses > 0 else { return false }
            $0.presses -= 1
            return true
        }
    }

    /// Detection paused while a help screen shows; the preview goes on.
    public var isPaused: Bool {
        get { state.withLock { $0.paused } }
    }

    public func setPaused(_ paused: Bool) { state.withLock { $0.paused = paused } }
}
