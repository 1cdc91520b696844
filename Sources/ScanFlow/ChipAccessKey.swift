/// What opens a document's chip: the MRZ fields of BAC/PACE or the card access number.
///
/// These are personal data: the key prints redacted.
public enum ChipAccessKey: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Document number, date of birth and date of expiry (YYMMDD) from the MRZ.
    case mrz(documentNumber: String, dateOfBirth: String, dateOfExpiry: String)
    /// The card access number printed on an identity card.
    case can(String)

    public var description: String {
        switch self {
        case .mrz: "ChipAccessKey.mrz(<redacted>)"
        case .can: "ChipAccessKey.can(<redacted>)"
        }
    }

    public var debugDescription: String { description }

    /// No children: `dump` and other mirrors must not reach the personal data either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
