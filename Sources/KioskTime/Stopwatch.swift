/// Time since a start, on an injected clock of any instant type: the station's monotonic
/// time for heartbeats, deadlines and the durations metrics record.
public struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts now on `clock`.
    public init(_ clock: any Clock<Duration>) {
        read = Self.elapsed(on: clock)
    }

    /// The time since the start.
    public var elapsed: Duration { read() }

    private static func elapsed<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
