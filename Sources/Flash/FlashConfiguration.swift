/// Where the flash LED is wired and how long it may stay on; part of the station's
/// configuration file.
public struct FlashConfiguration: Hashable, Sendable, Codable {
    /// The GPIO chip's label (as `gpiodetect` shows), a path or `gpiochipN`; nil for the simulated line.
    public var chip: String?
    /// The line's name (as `gpioinfo` shows).
    public var line: String?
    /// The hard limit for one on period, in milliseconds.
    public var maximumOnMilliseconds: Int

    public init(chip: String? = nil, line: String? = nil, maximumOnMilliseconds: Int = 2000) {
        self.chip = chip
        self.line = line
        self.maximumOnMilliseconds = maximumOnMilliseconds
    }

    public var isSimulated: Bool { chip == nil || line == nil }
    public var maximumOn: Duration { .milliseconds(maximumOnMilliseconds) }

    /// The configured GPIO line, or a simulated one when none is configured.
    /// - Throws: `FlashError` when the configured chip or line cannot be taken.
    public func makeLine() throws(FlashError) -> any FlashLine {
        guard let chip, let line else { return SimulatedLine() }
        return try GPIODLine(chip: chip, line: line)
    }
}
