/// What a look at a device found: it can be opened now, or why not.
///
/// The station lists it as the display's `DeviceStatus` (`/health`, the out-of-service screen);
/// the device says only whether it is there and, if not, what a technician should do.
public enum DeviceProbe: Hashable, Sendable {
    case ready
    /// `fault`: what is wrong and what to do, for a technician; never personal data.
    case unavailable(fault: String)

    public var isReady: Bool { self == .ready }

    /// The fault, when there is one.
    public var fault: String? {
        if case .unavailable(let fault) = self { return fault }
        return nil
    }
}
