/// A field of a machine readable zone, as named in errors.
public enum MRZField: String, Hashable, Sendable, CustomStringConvertible {
    case documentCode = "document code"
    case issuingState = "issuing state"
    case documentNumber = "document number"
    case nationality
    case birthDate = "date of birth"
    case sex
    case expiryDate = "date of expiry"
    /// The personal number / optional data field that TD3 protects with a check digit.
    case optionalData = "optional data"
    /// The composite check digit over number, dates and optional data.
    case composite = "composite"
    case name
    /// A card access number, typed or printed on the card.
    case cardAccessNumber = "card access number"

    public var description: String { rawValue }
}
