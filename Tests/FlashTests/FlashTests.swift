import Flash
import KioskTestKit
import Logging
import Testing

/// Yields until `condition` holds; false if it never does within `maxYields`.
func eventually(maxYields: Int = 100_000, _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<maxYields {
        if await condition() { return true }
        await Task.yield()
    }
    return await condition()
}

@Suite("Flash safety limit and pulses")
struct FlashTests {
    let logger = Logger(label: "FlashTests")

    @Test func watchdogSwitchesOffAtTheLimitEvenIfTheCallerForgets() async throws {
        let line = SimulatedLine(), clock = TestClock()
        let flash = Flash(line: line, maximumOn: .milliseconds(500), clock: clock, logger: logger)
        try await flash.on()
        #expect(line.isOn)
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(499))
        await Task.yield()
        #expect(line.isOn)
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { !line.isOn })
        #expect(await flash.isOn == false)
        #expect(await flash.safetyTrips == 1)
        #expect(line.transitions == [false, true, false])
    }

    @Test func onAgainDoesNotExtendTheLimit() async throws {
        let line = SimulatedLine(), clock = TestClock()
        let flash = Flash(line: line, maximumOn: .milliseconds(500), clock: clock, logger: logger)
        try await flash.on()
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(400))
        try await flash.on()
        clock.advance(by: .milliseconds(100))
        #expect(await eventually { !line.isOn })
        #expect(await flash.safetyTrips == 1)
    }

    @Test func offDisarmsTheWatchdog() async throws {
        let line = SimulatedLine(), clock = TestClock()
        let flash = Flash(line: line, maximumOn: .milliseconds(500), clock: clock, logger: logger)
        try await flash.on()
        #expect(await clock.waitForSleepers(1))
        try await flash.off()
        #expect(await eventually { clock.sleeperCount == 0 })
        // A new on period gets its own full limit; the old watchdog must not cut it short.
        clock.advance(by: .milliseconds(300))
        try await flash.on()
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(300))
        await Task.yield()
        #expect(line.isOn)
        clock.advance(by: .milliseconds(200))
        #expect(await eventually { !line.isOn })
        #expect(await flash.safetyTrips == 1)
    }

    @Test func pulseIsClampedToTheLimit() async throws {
        let line = SimulatedLine(), clock = TestClock()
        let flash = Flash(line: line, maximumOn: .milliseconds(500), clock: clock, logger: logger)
        let pulse = Task { try await flash.pulse(for: .seconds(10)) }
        #expect(await clock.waitForSleepers(2))  // the pulse and the watchdog
        #expect(line.isOn)
        clock.advance(by: .milliseconds(500))
        try await pulse.value
        #expect(line.isOn == false)
        #expect(line.transitions.last == false)
        #expect(clock.now.offset == .milliseconds(500))
    }

    @Test func cancelledPulseStillSwitchesOff() async throws {
        let line = SimulatedLine(), clock = TestClock()
        let flash = Flash(line: line, maximumOn: .seconds(1), clock: clock, logger: logger)
        let pulse = Task { try await flash.pulse(for: .milliseconds(200)) }
        #expect(await clock.waitForSleepers(2))
        pulse.cancel()
        try await pulse.value
        #expect(line.isOn == false)
    }

    @Test func updatesCarryEveryChangeOfTheLED() async throws {
        let line = SimulatedLine(), clock = TestClock()
        let flash = Flash(line: line, maximumOn: .milliseconds(100), clock: clock, logger: logger)
        try await flash.on()
        try await flash.off()
        try await flash.on()
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(100))
        #expect(await eventually { !line.isOn })
        await flash.shutdown()
        var seen: [FlashState] = []
        for await state in flash.updates { seen.append(state) }
        #expect(seen == [.on, .off, .on, .off])
        #expect(line.isReleased)
    }

    @Test func aRefusedOffKeepsTheWatchdogArmedAndItReleasesTheLine() async throws {
        let line = SimulatedLine(), clock = TestClock()
        let flash = Flash(line: line, maximumOn: .milliseconds(100), clock: clock, logger: logger)
        try await flash.on()
        line.failNext(FlashError(kind: .failed, call: "gpiod_line_set_value", errno: 5, message: "EIO"), FlashError(kind: .failed, message: "EIO again"))
        await #expect(throws: FlashError.self) { try await flash.off() }
        #expect(line.isOn)
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(100))
        // The watchdog's own off fails too: it releases the line, which switches it off.
        #expect(await eventually { line.isReleased })
        #expect(line.isOn == false)
        await #expect(throws: FlashError.self) { try await flash.on() }
    }

    @Test func errorsCarryHints() {
        let e = FlashError(kind: .lineBusy, call: "gpiod_line_request_output", errno: 16, message: "cannot take the line as output")
        #expect(e.hint.contains("gpioinfo"))
        #expect(e.description.contains("gpiod_line_request_output"))
        #expect(e.isRetryable)
    }
}
