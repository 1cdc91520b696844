/// Why a machine readable zone or a typed access key was rejected.
///
/// Positions are 1-based as printed in ICAO Doc 9303 so a technician can count them on
/// the document; no case carries the field's value, which is personal data.
public enum MRZError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not 3×30 (TD1), 2×36 (TD2, MRV-B) or 2×44 (TD3, MRV-A) characters.
    case unrecognizedLayout(lineLengths: [Int])
    /// A character other than `A`–`Z`, `0`–`9` or `<` at this position.
    case invalidCharacter(line: Int, column: Int)
    /// The check digit at this position does not match its field.
    case checkDigitMismatch(MRZField, line: Int, column: Int)
    /// A field has the wrong shape (a date that is not six digits, an empty number…).
    case invalidField(MRZField, reason: String)

    public var description: String {
        switch self {
        case .unrecognizedLayout(let lengths):
            return "MRZ lines of \(lengths.map(String.init).joined(separator: ", ")) characters match no ICAO 9303 layout (3×30, 2×36, 2×44)"
        case .invalidCharacter(let line, let column):
            return "invalid MRZ character at line \(line), column \(column)"
        case .checkDigitMismatch(let field, let line, let column):
            return "check digit of the \(field) (line \(line), column \(column)) does not match: misread or altered"
        case .invalidField(let field, let reason):
            return "invalid \(field): \(reason)"
        }
    }

    /// The field this error is about, when it is about one.
    public var field: MRZField? {
        switch self {
        case .checkDigitMismatch(let field, _, _), .invalidField(let field, _): return field
        case .unrecognizedLayout, .invalidCharacter: return nil
        }
    }
}
