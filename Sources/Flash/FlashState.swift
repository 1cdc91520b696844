/// Whether the LED is lit: what ``Flash`` publishes and ``FlashPair`` switches.
///
/// The flash's own vocabulary; the station maps it to the seeds' `Scan.FlashState`.
public enum FlashState: String, Hashable, Sendable, CaseIterable {
    case on
    case off
}
