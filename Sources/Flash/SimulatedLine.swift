import Synchronization

/// A flash line for machines without GPIO: it records what it was told.
public final class SimulatedLine: FlashLine {
    private struct State {
        var isOn = false
        var transitions: [Bool] = []
        var released = false
        var failures: [FlashError] = []
    }

    private let state = Mutex(State())
    public let location: String

    public init(location: String = "simulated") {
        self.location = location
    }

    public var isOn: Bool { state.withLock { $0.isOn } }
    /// Every value written, in order.
    public var transitions: [Bool] { state.withLock { $0.transitions } }
    public var isReleased: Bool { state.withLock { $0.released } }

    /// Makes the next `set` calls fail with these errors, one per call.
    public func failNext(_ errors: FlashError...) {
        state.withLock { $0.failures += errors }
    }

    public func set(_ on: Bool) throws(FlashError) {
        try state.withLock { (s) throws(FlashError) in
            if s.released { throw FlashError(kind: .released, message: "\(location) was released") }
            if !s.failures.isEmpty { throw s.failures.removeFirst() }
            s.isOn = on
            s.transitions.append(on)
        }
    }

    public func release() {
        state.withLock { s in
            if s.isOn { s.transitions.append(false) }
            s.isOn = false
            s.released = true
        }
    }
}
