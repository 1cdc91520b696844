/// The result of one verification check: passed, failed or not supported, with the reason.
public struct VerificationCheck: Hashable, Sendable, CustomStringConvertible {
    /// How the check came out.
    public enum Outcome: String, Hashable, Sendable {
        case passed, failed, notSupported
    }

    /// What was checked, for example `DG2 hash` or `document signer chain`.
    public let name: String
    public let outcome: Outcome
    /// Why, in words for a technician; never personal data.
    public let reason: String

    public init(_ name: String, _ outcome: Outcome, _ reason: String) {
        self.name = name
        self.outcome = outcome
        self.reason = reason
    }

    public var description: String { "\(name): \(outcome.rawValue) (\(reason))" }
}
