/// The earlier transaction an authentication compares the face against (seed 004).
public enum AuthenticationReference: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// An ID + Identity verification the person enrolled with.
    case enrollment(String)
    /// A transaction created by the server-to-server facemap API.
    case authenticationTransaction(String)

    public var description: String {
        switch self {
        case .enrollment: "enrollment(<redacted>)"
        case .authenticationTransaction: "authenticationTransaction(<redacted>)"
        }
    }

    public var debugDescription: String { description }

    /// No children: `dump` and other mirrors must not reach the personal data either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
