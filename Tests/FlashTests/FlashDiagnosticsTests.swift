import Flash
import Foundation
import KioskTestKit
import Logging
import Testing

@Suite("Flash diagnostics")
struct FlashDiagnosticsTests {
    let logger = Logger(label: "FlashDiagnosticsTests")

    @Test func simulatedPulseIsReported() async throws {
        let clock = TestClock()
        let configuration = FlashConfiguration(maximumOnMilliseconds: 300)
        #expect(configuration.isSimulated)
        let mover = Task {
            #expect(await clock.waitForSleepers(2))
            clock.advance(by: .milliseconds(250))
        }
        let report = await FlashDiagnostics.run(.diagnose, configuration: configuration, pulse: .milliseconds(250), clock: clock, logger: logger)
        await mover.value
        #expect(report.error == nil)
        #expect(report.isSimulated)
        #expect(report.location == "simulated")
        #expect(report.isOn == false)
        #expect(report.pulseMilliseconds == 250)
        #expect(report.safetyTrips == 0)
        let json = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(FlashReport.self, from: json) == report)
    }

    @Test func missingChipIsReportedWithAHint() async {
        let configuration = FlashConfiguration(chip: "no-such-chip-label", line: "FLASH", maximumOnMilliseconds: 100)
        let report = await FlashDiagnostics.run(.on, configuration: configuration, clock: TestClock(), logger: logger)
        let error = report.error
        #expect(error?.kind == .chipNotFound)
        #expect(error?.hint.contains("gpiodetect") == true)
        #expect(report.isOn == false)
    }
}
