/// A clock that never waits: a recording is analysed as fast as it decodes, not at its
/// frame rate.
struct ImmediateClock: Clock {
    typealias Instant = ContinuousClock.Instant
    var now: Instant { .now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
    }
}
