/// An error from the flash layer, carrying what a technician needs to act on it.
public struct FlashError: Error, Hashable, Sendable, CustomStringConvertible, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// No GPIO chip with the configured label (or path) exists.
        case chipNotFound
        /// The chip has no line with the configured name.
        case lineNotFound
        /// Another program holds the line.
        case lineBusy
        /// We may not open the chip.
        case permissionDenied
        /// The line was released (shutdown) and cannot be used.
        case released
        /// Anything else the kernel reports.
        case failed
    }

    public var kind: Kind
    /// The libgpiod function involved, e.g. `gpiod_line_request_output`.
    public var call: String?
    public var errno: Int32?
    public var message: String

    public init(kind: Kind, call: String? = nil, errno: Int32? = nil, message: String) {
        self.kind = kind
        self.call = call
        self.errno = errno
        self.message = message
    }

    public var isRetryable: Bool {
        switch kind {
        case .lineBusy, .failed: return true
        case .chipNotFound, .lineNotFound, .permissionDenied, .released: return false
        }
    }

    /// What a technician should do about it.
    public var hint: String {
        switch kind {
        case .chipNotFound:
            return "check flash.chip in the configuration against `gpiodetect` (chip labels), or use the simulated flash"
        case .lineNotFound:
            return "check flash.line in the configuration against `gpioinfo` (line names of the chip)"
        case .lineBusy:
            return "another program holds the LED line (`gpioinfo` shows its consumer); stop it"
        case .permissionDenied:
            return "give the idkiosk user access to /dev/gpiochip* (group gpio or deploy/udev rules)"
        case .released:
            return "the flash was shut down; restart idkiosk"
        case .failed:
            return "see the errno; check the LED driver board's wiring and power"
        }
    }

    public var description: String {
        var s = message
        if let call { s += " (\(call)" + (errno.map { ": errno \($0)" } ?? "") + ")" }
        return s
    }
}
