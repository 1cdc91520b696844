extension Duration {
    /// The duration in seconds, for APIs that take a `TimeInterval` and for rates.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in milliseconds, with its fraction, for timings a person reads.
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }

    /// Whole nanoseconds, truncated toward zero; a duration beyond `Int64`'s range (about
    /// 292 years) gives its limit instead of trapping.
    public var wholeNanoseconds: Int64 {
        Self.whole(components, per: 1_000_000_000)
    }

    /// Whole milliseconds, truncated toward zero; saturates like ``wholeNanoseconds``.
    public var wholeMilliseconds: Int64 {
        Self.whole(components, per: 1_000)
    }

    /// A timeout for `poll(2)` in milliseconds: 0 for a duration at or below zero, a
    /// fraction of a millisecond rounded up (so a wait for a deadline does not wake just
    /// before it and spin), at most `Int32.max`.
    public var pollTimeout: Int32 {
        guard self > .zero else { return 0 }
        let milliseconds = wholeMilliseconds
        let rounded = self > .milliseconds(milliseconds) && milliseconds < .max ? milliseconds + 1 : milliseconds
        return Int32(clamping: rounded)
    }

    /// `seconds * unitsPerSecond + attoseconds / (10^18 / unitsPerSecond)`, saturating.
    /// Both components carry the duration's sign, so the sum truncates toward zero.
    private static func whole(_ components: (seconds: Int64, attoseconds: Int64), per unitsPerSecond: Int64) -> Int64 {
        let (whole, overflow) = components.seconds.multipliedReportingOverflow(by: unitsPerSecond)
        guard !overflow else { return components.seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(components.attoseconds / (1_000_000_000_000_000_000 / unitsPerSecond))
        guard !sumOverflow else { return components.seconds < 0 ? .min : .max }
        return sum
    }
}
