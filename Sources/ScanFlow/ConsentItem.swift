/// A consent the person has to give before anything is captured (seeds: `Jumio.ConsentItem`).
public struct ConsentItem: Hashable, Sendable, Codable {
    /// How the person accepts the item.
    public enum ConsentType: String, Hashable, Sendable, Codable {
        /// The person has to accept explicitly; `userConsented(_:decision:)` must be called.
        case active
        /// Showing the text and link is enough; going on accepts it.
        case passive
    }

    /// The backend's identifier of the item, used to answer it.
    public var id: String
    public var type: ConsentType
    public var text: String
    public var url: String

    public init(id: String, type: ConsentType, text: String, url: String) {
        self.id = id
        self.type = type
        self.text = text
        self.url = url
    }
}
