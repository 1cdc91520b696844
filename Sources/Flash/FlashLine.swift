/// An output line that drives the LED: a GPIO line, or a simulated one.
public protocol FlashLine: Sendable {
    /// Switches the LED on or off.
    func set(_ on: Bool) throws(FlashError)
    /// Switches off and gives the line back; later `set` calls fail with `.released`.
    func release()
    /// Where the line is, for diagnostics (e.g. `gpiochip0/FLASH_LED`).
    var location: String { get }
}
