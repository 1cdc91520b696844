import Flash
import Glibc
import Logging
import Testing

/// The gpio-sim chip the rig VM sets up (hardware/rig/init), if it is there.
enum GPIOSim {
    static func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    static var isActive: Bool { env("IDKIOSK_RIG_GPIO_VALUE") != nil }
    static var chip: String { env("IDKIOSK_RIG_GPIO_CHIP") ?? "idkiosk-rig" }
    static var line: String { env("IDKIOSK_RIG_GPIO_LINE") ?? "FLASH_LED" }

    /// The value gpio-sim shows for the line, as the LED would see it.
    static func value() -> Int? {
        guard let path = env("IDKIOSK_RIG_GPIO_VALUE"), let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 8)
        guard fgets(&buffer, 8, file) != nil else { return nil }
        let text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Polls the line until it shows `expected`, for at most `limit` of real time.
    static func waitForValue(_ expected: Int, within limit: Duration) async -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < limit {
            if value() == expected { return clock.now - start }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}

extension Set where Element == Character {
    fileprivate static var whitespacesAndNewlines: Set<Character> { [" ", "\n", "\t", "\r"] }
}

/// Flash tests against the kernel's gpio-sim driver, in the rig VM (`make rig-test`).
@Suite("gpio-sim in the rig VM", .enabled(if: GPIOSim.isActive, "needs gpio-sim in the rig VM (built out of tree): run `make rig-test`"), .serialized)
struct GPIOSimRigTests {
    let logger = Logger(label: "GPIOSimRigTests")

    @Test func takesTheLineByLabelAndNameAndDrivesIt() throws {
        let line = try GPIODLine(chip: GPIOSim.chip, line: GPIOSim.line)
        #expect(line.consumer == "idkiosk")
        #expect(GPIOSim.value() == 0)
        try line.set(true)
        #expect(GPIOSim.value() == 1)
        try line.set(false)
        #expect(GPIOSim.value() == 0)
        try line.set(true)
        line.release()
        #expect(GPIOSim.value() == 0, "release switches the LED off")
        #expect(throws: FlashError.self) { try line.set(true) }
    }

    @Test func aHeldLineIsBusyAndFreeAfterRelease() throws {
        let first = try GPIODLine(chip: GPIOSim.chip, line: GPIOSim.line)
        do {
            _ = try GPIODLine(chip: GPIOSim.chip, line: GPIOSim.line)
            Issue.record("took a line that is held")
        } catch {
            #expect(error.kind == .lineBusy)
            #expect(error.call == "gpiod_line_request_output")
        }
        first.release()
        let second = try GPIODLine(chip: GPIOSim.chip, line: GPIOSim.line)
        second.release()
    }

    @Test func unknownChipAndLineAreReported() {
        #expect(throws: FlashError.self) { try GPIODLine(chip: "no-such-chip", line: GPIOSim.line) }
        do {
            _ = try GPIODLine(chip: GPIOSim.chip, line: "NO_SUCH_LINE")
            Issue.record("found a line that does not exist")
        } catch {
            #expect(error.kind == .lineNotFound)
        }
    }

    @Test func safetyLimitSwitchesTheRealLineOff() async throws {
        let line = try GPIODLine(chip: GPIOSim.chip, line: GPIOSim.line)
        defer { line.release() }
        let flash = Flash(line: line, maximumOn: .milliseconds(300), clock: ContinuousClock(), logger: logger)
        let start = ContinuousClock.now
        try await flash.on()
        #expect(GPIOSim.value() == 1)
        // Nobody calls off(): the watchdog must, after 300 ms (TCG adds slack, not less).
        let off = await GPIOSim.waitForValue(0, within: .seconds(5))
        let elapsed = ContinuousClock.now - start
        #expect(off != nil)
        #expect(elapsed >= .milliseconds(300), "off after \(elapsed)")
        #expect(elapsed < .seconds(3), "off after \(elapsed)")
        #expect(await flash.safetyTrips == 1)
    }

    @Test func pulseLightsTheLineThenSwitchesItOff() async throws {
        let line = try GPIODLine(chip: GPIOSim.chip, line: GPIOSim.line)
        defer { line.release() }
        let flash = Flash(line: line, maximumOn: .seconds(2), clock: ContinuousClock(), logger: logger)
        let pulse = Task { try await flash.pulse(for: .milliseconds(400)) }
        #expect(await GPIOSim.waitForValue(1, within: .seconds(2)) != nil)
        try await pulse.value
        #expect(GPIOSim.value() == 0)
        #expect(await flash.safetyTrips == 0)
    }

    @Test func diagnosticsReportTheRealLine() async {
        let configuration = FlashConfiguration(chip: GPIOSim.chip, line: GPIOSim.line, maximumOnMilliseconds: 500)
        let report = await FlashDiagnostics.run(.diagnose, configuration: configuration, pulse: .milliseconds(100), clock: ContinuousClock(), logger: logger)
        #expect(report.error == nil)
        #expect(report.isSimulated == false)
        #expect(report.location?.hasSuffix("/\(GPIOSim.line)") == true)
        #expect(report.isOn == false)
        #expect(GPIOSim.value() == 0)
    }
}
