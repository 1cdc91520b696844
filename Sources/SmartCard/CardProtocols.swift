import CPCSCLite

/// The transmission protocols a connection may use (`SCARD_PROTOCOL_*`).
public struct CardProtocols: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `SCARD_PROTOCOL_T0`.
    public static let t0 = CardProtocols(rawValue: UInt32(SCARD_PROTOCOL_T0))
    /// `SCARD_PROTOCOL_T1`: what contactless readers present.
    public static let t1 = CardProtocols(rawValue: UInt32(SCARD_PROTOCOL_T1))
    /// `SCARD_PROTOCOL_ANY` (T=0 or T=1).
    public static let any: CardProtocols = [.t0, .t1]

    public var description: String {
        switch self {
        case .t0: return "T=0"
        case .t1: return "T=1"
        case .any: return "T=0|T=1"
        default: return "none"
        }
    }
}

/// How a connection shares the card with other programs (`SCARD_SHARE_*`).
public struct ShareMode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `SCARD_SHARE_EXCLUSIVE`: nobody else may talk to the card; what a kiosk reading a passport wants.
    public static let exclusive = ShareMode(rawValue: UInt32(SCARD_SHARE_EXCLUSIVE))
    /// `SCARD_SHARE_SHARED`.
    public static let shared = ShareMode(rawValue: UInt32(SCARD_SHARE_SHARED))
    /// `SCARD_SHARE_DIRECT`: talk to the reader without a card.
    public static let direct = ShareMode(rawValue: UInt32(SCARD_SHARE_DIRECT))
}

/// What happens to the card when a connection ends or is re-established (`SCARD_*_CARD`).
public struct Disposition: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `SCARD_LEAVE_CARD`.
    public static let leave = Disposition(rawValue: UInt32(SCARD_LEAVE_CARD))
    /// `SCARD_RESET_CARD`: a warm reset; the chip forgets its secure-messaging session.
    public static let reset = Disposition(rawValue: UInt32(SCARD_RESET_CARD))
    /// `SCARD_UNPOWER_CARD`.
    public static let unpower = Disposition(rawValue: UInt32(SCARD_UNPOWER_CARD))
}
