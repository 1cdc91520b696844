import KioskTestKit
import KioskTime
import Testing

@Suite struct DurationUnitsTests {
    @Test func secondsAndMillisecondsAsDoubles() {
        #expect(Duration.seconds(3).inSeconds == 3)
        #expect(Duration.milliseconds(1500).inSeconds == 1.5)
        #expect(Duration.microseconds(250).inMilliseconds == 0.25)
        #expect(Duration.seconds(2).inMilliseconds == 2000)
        #expect(Duration.nanoseconds(1).inSeconds == 1e-9)
        #expect(Duration.zero.inSeconds == 0)
        #expect(Duration.milliseconds(-1500).inSeconds == -1.5)
        #expect(Duration.microseconds(-2500).inMilliseconds == -2.5)
    }

    @Test func wholeUnitsTruncateTowardZero() {
        #expect(Duration.seconds(2).wholeNanoseconds == 2_000_000_000)
        #expect((Duration.seconds(1) + .nanoseconds(7)).wholeNanoseconds == 1_000_000_007)
        #expect(Duration.nanoseconds(1).wholeMilliseconds == 0)
        #expect(Duration.microseconds(1999).wholeMilliseconds == 1)
        #expect(Duration.seconds(5).wholeMilliseconds == 5000)
        // Below a nanosecond: nothing whole.
        #expect(Duration(secondsComponent: 0, attosecondsComponent: 999_999_999).wholeNanoseconds == 0)
        // Negative durations truncate toward zero too.
        #expect(Duration.milliseconds(-1500).wholeMilliseconds == -1500)
        #expect(Duration.microseconds(-1999).wholeMilliseconds == -1)
        #expect((Duration.zero - .seconds(1) - .nanoseconds(7)).wholeNanoseconds == -1_000_000_007)
    }

    @Test func wholeUnitsSaturateInsteadOfTrapping() {
        #expect(Duration.seconds(Int64.max / 2).wholeNanoseconds == .max)
        #expect(Duration.seconds(Int64.min / 2).wholeNanoseconds == .min)
        #expect(Duration.seconds(Int64.max).wholeMilliseconds == .max)
        #expect(Duration.seconds(9_223_372_036).wholeNanoseconds == 9_223_372_036_000_000_000)
        #expect((Duration.seconds(9_223_372_036) + .milliseconds(900)).wholeNanoseconds == .max)
    }

    @Test func pollTimeoutsRoundUpAndStayInRange() {
        #expect(Duration.zero.pollTimeout == 0)
        #expect(Duration.milliseconds(-5).pollTimeout == 0)
        #expect(Duration.nanoseconds(-1).pollTimeout == 0)
        #expect(Duration.nanoseconds(1).pollTimeout == 1)
        #expect(Duration.microseconds(999).pollTimeout == 1)
        #expect(Duration.milliseconds(250).pollTimeout == 250)
        #expect((Duration.milliseconds(250) + .nanoseconds(1)).pollTimeout == 251)
        #expect(Duration.seconds(5).pollTimeout == 5000)
        #expect(Duration.seconds(3_000_000).pollTimeout == .max)
        #expect(Duration.seconds(Int64.max).pollTimeout == .max)
    }
}

@Suite struct StopwatchTests {
    @Test func measuresOnTheInjectedClock() async throws {
        let clock = TestClock()
        let stopwatch = Stopwatch(clock)
        #expect(stopwatch.elapsed == .zero)
        clock.advance(by: .milliseconds(1500))
        #expect(stopwatch.elapsed == .milliseconds(1500))
    }
}
