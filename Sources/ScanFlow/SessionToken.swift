/// The SDK token of a session; it prints redacted because it grants access to the transaction.
public struct SessionToken: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "SessionToken(<redacted>)" }
    public var debugDescription: String { description }
}
