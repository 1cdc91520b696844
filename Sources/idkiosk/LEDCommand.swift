import ArgumentParser
import Flash
import Station

struct LEDCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "led",
        abstract: "Switch the flash LED on or off, or pulse it.",
        discussion: """
            The LED is driven through the GPIO line from the configuration (flash.chip, \
            flash.line) or the options; --simulated drives a simulated line. The LED never \
            stays on longer than flash.maximum-on-ms, and `on` lasts only as long as this \
            command: the line is released when it ends. Exits 69 when the chip or line is \
            not there, 74 when it fails, 78 when no line is configured.
            """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case on, off, pulse

        var report: FlashReport.Action {
            switch self {
            case .on: .on
            case .off: .off
            case .pulse: .pulse
            }
        }
    }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var flash: FlashOptions

    @Argument(help: "on, off or pulse.")
    var action: Action

    @Option(name: .long, help: "Pulse length in milliseconds (1-10000, at most flash.maximum-on-ms; default 200).")
    var ms: Int?

    func validate() throws {
        if let ms {
            guard action == .pulse else { throw ValidationError("--ms goes with pulse") }
            guard (1...10_000).contains(ms) else { throw ValidationError("--ms must be between 1 and 10000") }
        }
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            let flashConfiguration = try flash.flashConfiguration(configuration)
            let pulse = ms ?? 200
            if action == .pulse && pulse > flashConfiguration.maximumOnMilliseconds {
                throw CommandFailure(
                    .badInput, "--ms \(pulse) is longer than the LED may stay on (flash.maximum-on-ms: \(flashConfiguration.maximumOnMilliseconds))",
                    hint: "use a shorter pulse, or raise flash.maximum-on-ms if the LED and its driver allow it")
            }
            let report = await FlashDiagnostics.run(
                action.report, configuration: flashConfiguration, pulse: .milliseconds(pulse), clock: ContinuousClock(), logger: logger)
            if global.json { try Output.json(report) } else { Output.text(Self.describe(report)) }
            if let error = report.error { throw CommandFailure(error) }
        }
    }

    static func describe(_ report: FlashReport) -> [String] {
        var lines = ["flash line: " + (report.isSimulated ? "simulated (no GPIO)" : report.location ?? "not opened")]
        lines.append("maximum on: \(report.maximumOnMilliseconds) ms")
        switch report.action {
        case .on: lines.append("LED: on until this command ends")
        case .off: lines.append("LED: off")
        case .pulse, .diagnose: lines.append("pulse: \(report.pulseMilliseconds ?? 0) ms")
        }
        if report.action != .off && report.action != .on {
            lines.append("LED now: " + (report.isOn ? "on" : "off"))
        }
        if report.safetyTrips > 0 { lines.append("safety limit switched the LED off \(report.safetyTrips) time(s)") }
        if let e = report.error { lines.append("error: \(e.message)") }
        return lines
    }
}
