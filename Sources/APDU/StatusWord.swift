/// The two status bytes (SW1 SW2) that end every ISO/IEC 7816-4 response.
public struct StatusWord: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(sw1: UInt8, sw2: UInt8) { self.rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

    public var sw1: UInt8 { UInt8(rawValue >> 8) }
    public var sw2: UInt8 { UInt8(rawValue & 0xFF) }

    /// `9000`: normal processing.
    public static let success = StatusWord(rawValue: 0x9000)
    /// `6282`: end of file reached before reading Le bytes.
    public static let endOfFileReached = StatusWord(rawValue: 0x6282)
    /// `6300`: verification failed, no further information (a wrong BAC key, for one).
    public static let verificationFailed = StatusWord(rawValue: 0x6300)
    /// `6700`: wrong length (Lc or Le).
    public static let wrongLength = StatusWord(rawValue: 0x6700)
    /// `6881`: logical channel not supported.
    public static let logicalChannelNotSupported = StatusWord(rawValue: 0x6881)
    /// `6882`: secure messaging not supported.
    public static let secureMessagingNotSupported = StatusWord(rawValue: 0x6882)
    /// `6982`: security status not satisfied (access control not done).
    public static let securityStatusNotSatisfied = StatusWord(rawValue: 0x6982)
    /// `6983`: authentication method blocked.
    public static let authenticationBlocked = StatusWord(rawValue: 0x6983)
    /// `6985`: conditions of use not satisfied.
    public static let conditionsNotSatisfied = StatusWord(rawValue: 0x6985)
    /// `6986`: command not allowed (no current EF).
    public static let commandNotAllowed = StatusWord(rawValue: 0x6986)
    /// `6987`: expected secure messaging data objects missing.
    public static let secureMessagingObjectsMissing = StatusWord(rawValue: 0x6987)
    /// `6988`: secure messaging data objects incorrect.
    public static let secureMessagingObjectsIncorrect = StatusWord(rawValue: 0x6988)
    /// `6A80`: incorrect parameters in the data field.
    public static let incorrectData = StatusWord(rawValue: 0x6A80)
    /// `6A82`: file or application not found.
    public static let fileNotFound = StatusWord(rawValue: 0x6A82)
    /// `6A86`: incorrect parameters P1-P2.
    public static let incorrectP1P2 = StatusWord(rawValue: 0x6A86)
    /// `6B00`: wrong parameters P1-P2 (offset outside the EF).
    public static let wrongP1P2 = StatusWord(rawValue: 0x6B00)
    /// `6D00`: instruction code not supported.
    public static let instructionNotSupported = StatusWord(rawValue: 0x6D00)
    /// `6E00`: class not supported.
    public static let classNotSupported = StatusWord(rawValue: 0x6E00)
    /// `6F00`: no precise diagnosis.
    public static let noPreciseDiagnosis = StatusWord(rawValue: 0x6F00)

    /// Whether the command completed normally (`9000`, or `61xx` with more data waiting).
    public var isSuccess: Bool { self == .success || sw1 == 0x61 }

    /// For `6Cxx`, the exact Le the card wants (`00` meaning 256).
    public var correctLength: Int? {
        guard sw1 == 0x6C else { return nil }
        return sw2 == 0 ? 256 : Int(sw2)
    }

    /// For `61xx`, how many more bytes GET RESPONSE can fetch (`00` meaning 256 or more).
    public var remainingBytes: Int? {
        guard sw1 == 0x61 else { return nil }
        return sw2 == 0 ? 256 : Int(sw2)
    }

    /// The meaning ISO/IEC 7816-4 gives this status word, in plain words.
    public var meaning: String {
        switch self {
        case .success: return "normal processing"
        case .endOfFileReached: return "end of file reached before reading Le bytes"
        case .verificationFailed: return "verification failed"
        case .wrongLength: return "wrong length"
        case .logicalChannelNotSupported: return "logical channel not supported"
        case .secureMessagingNotSupported: return "secure messaging not supported"
        case .securityStatusNotSatisfied: return "security status not satisfied"
        case .authenticationBlocked: return "authentication method blocked"
        case .conditionsNotSatisfied: return "conditions of use not satisfied"
        case .commandNotAllowed: return "command not allowed"
        case .secureMessagingObjectsMissing: return "expected secure messaging data objects missing"
        case .secureMessagingObjectsIncorrect: return "secure messaging data objects incorrect"
        case .incorrectData: return "incorrect parameters in the data field"
        case .fileNotFound: return "file or application not found"
        case .incorrectP1P2: return "incorrect parameters P1-P2"
        case .wrongP1P2: return "wrong parameters P1-P2"
        case .instructionNotSupported: return "instruction not supported"
        case .classNotSupported: return "class not supported"
        case .noPreciseDiagnosis: return "no precise diagnosis"
        default:
            switch sw1 {
            case 0x61: return "\(remainingBytes ?? 0) more bytes available"
            case 0x62, 0x63: return "warning"
            case 0x64, 0x65: return "execution error"
            case 0x6C: return "wrong Le, exact length is \(correctLength ?? 0)"
            default: return "unknown status"
            }
        }
    }

    public var description: String { String(rawValue, radix: 16, uppercase: true).leftPadded(to: 4) }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
