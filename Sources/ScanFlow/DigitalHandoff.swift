/// Where the person continues a Digital Identity verification on their own phone: the
/// address the backend created for this session, shown by the display as a QR code and a URL.
///
/// The address carries a session token, so it prints redacted.
public struct DigitalHandoff: Hashable, Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The `DigitalDocument.id` of the provider this hand-off is for.
    public let provider: String
    /// The address to open on the phone, with its one-time token.
    public let url: String

    public init(provider: String, url: String) {
        self.provider = provider
        self.url = url
    }

    public var description: String { "DigitalHandoff(\(provider), <redacted>)" }
    public var debugDescription: String { description }

    /// No children: `dump` and other mirrors must not reach the token either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
