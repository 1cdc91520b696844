/// Errors in building or reading APDUs.
public enum APDUError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A length field is larger than any APDU form allows.
    case lengthOutOfRange(field: String, value: Int, maximum: Int)
    /// The bytes are not a well-formed command.
    case malformedCommand(String)
    /// Fewer than the two status bytes came back: the card or the field was lost.
    case malformedResponse(length: Int)

    public var description: String {
        switch self {
        case .lengthOutOfRange(let field, let value, let maximum):
            return "\(field) of \(value) is out of range (at most \(maximum))"
        case .malformedCommand(let why):
            return "malformed command APDU: \(why)"
        case .malformedResponse(let length):
            return "response of \(length) byte(s) has no status word: the card was probably removed"
        }
    }
}
