/// A Digital Identity a credential can be configured for instead of a physical document
/// (seeds: `Jumio.Document.Digital`): the provider the person verifies with on their own phone.
///
/// The seeds launch the provider's app through a deep link; a kiosk cannot, so it hands
/// the journey over (`DigitalHandoff`) and waits for the provider's outcome through the
/// backend (a third-party verification step). A digital document is never preselected.
public struct DigitalDocument: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The provider's identifier, as the backend names it (e.g. `"mitid"`).
    public var id: String
    /// The provider's name to show on the selection screen.
    public var title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    public var description: String { "digital/\(id)" }
}
