public import Flash
public import ScanFlow

extension FlashState {
    /// The seeds' name for this state of the LED (`Scan.Update.flash`).
    public var scanState: Scan.FlashState {
        switch self {
        case .on: .on
        case .off: .off
        }
    }
}
