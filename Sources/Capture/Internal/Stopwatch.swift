/// Time since a start, on an injected clock (of any instant type).
struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts now on `clock`.
    init(_ clock: any Clock<Duration>) {
        read = Self.elapsed(on: clock)
    }

    var elapsed: Duration { read() }

    private static func elapsed<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
