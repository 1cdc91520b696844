import KioskTime
public import Logging

/// What `idkiosk diag flash` and `idkiosk led` report. Codable for `--json`.
public struct FlashReport: Hashable, Sendable, Codable {
    public enum Action: String, Hashable, Sendable, Codable {
        case on, off, pulse, diagnose
    }

    public var action: Action
    /// Where the line is, e.g. `gpiochip0/FLASH_LED`, or `simulated`.
    public var location: String?
    public var isSimulated: Bool
    public var maximumOnMilliseconds: Int
    public var pulseMilliseconds: Int?
    /// Whether the LED is lit when the command ends.
    public var isOn: Bool
    /// How often the safety limit had to switch the LED off during the command.
    public var safetyTrips: Int
    public var error: ErrorSummary?

    public init(
        action: Action, location: String?, isSimulated: Bool, maximumOnMilliseconds: Int, pulseMilliseconds: Int? = nil,
        isOn: Bool, safetyTrips: Int, error: ErrorSummary? = nil
    ) {
        self.action = action
        self.location = location
        self.isSimulated = isSimulated
        self.maximumOnMilliseconds = maximumOnMilliseconds
        self.pulseMilliseconds = pulseMilliseconds
        self.isOn = isOn
        self.safetyTrips = safetyTrips
        self.error = error
    }

    /// A `FlashError` as a technician reads it.
    public struct ErrorSummary: Hashable, Sendable, Codable {
        public var kind: FlashError.Kind
        public var message: String
        public var call: String?
        public var errno: Int32?
        public var hint: String
        public var isRetryable: Bool

        public init(_ error: FlashError) {
            kind = error.kind
            message = error.message
            call = error.call
            errno = error.errno
            hint = error.hint
            isRetryable = error.isRetryable
        }
    }
}

/// The library side of `idkiosk led on|off|pulse` and `idkiosk diag flash`.
public enum FlashDiagnostics {
    /// Performs one LED action on the configured line and reports it. `on` leaves the
    /// LED lit only until the process ends or the limit passes, whichever is first.
    /// - Parameter pulse: the pulse length for `.pulse` and `.diagnose`.
    public static func run<C: Clock>(
        _ action: FlashReport.Action, configuration: FlashConfiguration, pulse: Duration = .milliseconds(200), clock: C,
        logger: Logger
    ) async -> FlashReport where C.Duration == Duration {
        var report = FlashReport(
            action: action, location: nil, isSimulated: configuration.isSimulated,
            maximumOnMilliseconds: configuration.maximumOnMilliseconds,
            pulseMilliseconds: action == .pulse || action == .diagnose ? Int(pulse.wholeMilliseconds) : nil, isOn: false, safetyTrips: 0)
        let line: any FlashLine
        do throws(FlashError) {
            line = try configuration.makeLine()
        } catch {
            report.error = .init(error)
            return report
        }
        report.location = line.location
        let flash = Flash(line: line, maximumOn: configuration.maximumOn, clock: clock, logger: logger)
        do throws(FlashError) {
            switch action {
            case .on: try await flash.on()
            case .off: try await flash.off()
            case .pulse: try await flash.pulse(for: pulse)
            case .diagnose:
                try await flash.pulse(for: pulse)
                try await flash.off()
            }
        } catch {
            report.error = .init(error)
        }
        report.isOn = await flash.isOn
        report.safetyTrips = await flash.safetyTrips
        return report
    }
}
