import ArgumentParser
import Flash
import Station

struct DiagFlashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flash",
        abstract: "Check the flash LED's GPIO line with one short pulse.",
        discussion: """
            Takes the configured line (or --flash-chip/--flash-line, or --simulated), pulses \
            the LED once and leaves it off, and reports where the line is, the safety limit \
            and any error. Exits 69 when the chip or line is not there, 74 when it fails, \
            78 when no line is configured.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var flash: FlashOptions

    @Option(name: .long, help: "Length of the test pulse in milliseconds (1-1000).")
    var ms = 100

    func validate() throws {
        guard (1...1000).contains(ms) else { throw ValidationError("--ms must be between 1 and 1000") }
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            let flashConfiguration = try flash.flashConfiguration(configuration)
            let pulse = min(ms, flashConfiguration.maximumOnMilliseconds)
            let report = await FlashDiagnostics.run(
                .diagnose, configuration: flashConfiguration, pulse: .milliseconds(pulse), clock: ContinuousClock(), logger: logger)
            if global.json { try Output.json(report) } else { Output.text(LEDCommand.describe(report)) }
            if let error = report.error { throw CommandFailure(error) }
        }
    }
}
