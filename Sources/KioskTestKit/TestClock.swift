import Synchronization

/// A clock that moves only when a test says so.
///
/// Sleepers wake, in deadline order, when `advance(by:)` moves the clock past their
/// deadline; a cancelled sleeper throws `CancellationError`. Use
/// `waitForSleepers(_:)` before advancing, so the code under test has reached its
/// sleep and the test does not race it.
public final class TestClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// Time since the clock's zero.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        public var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        var cancelledBeforeRegistering: Set<Int> = []
    }

    private let state = Mutex(State())

    public init(now: Duration = .zero) {
        state.withLock { $0.now = Instant(offset: now) }
    }

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: Int? = state.withLock { s in
            if deadline <= s.now { return nil }
            s.nextID += 1
            return s.nextID
        }
        guard let id else { return try Task.checkCancellation() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { s in
                    if s.cancelledBeforeRegistering.remove(id) != nil { return true }
                    if deadline <= s.now {
                        continuation.resume()
                        return false
                    }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { s in
                if let i = s.sleepers.firstIndex(where: { $0.id == id }) { return s.sleepers.remove(at: i) }
                s.cancelledBeforeRegistering.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { s in
            s.now = s.now.advanced(by: duration)
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves the clock to `instant` (never backwards).
    public func advance(to instant: Instant) {
        let delta = now.duration(to: instant)
        if delta > .zero { advance(by: delta) }
    }

    /// Waits, by yielding, until at least `count` tasks sleep on this clock; false when
    /// they do not within `maxYields` yields (the code under test never got there).
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, maxYields: Int = 100_000) async -> Bool {
        for _ in 0..<maxYields {
            if sleeperCount >= count { return true }
            await Task.yield()
        }
        return sleeperCount >= count
    }
}
