/// A physical identity document a credential can be configured for: its type and variant.
///
/// The seeds' `Jumio.Document.Physical`; the digital kind ("Digital Identity") is
/// `DigitalDocument`.
public struct Document: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The seeds' `Jumio.Document.Physical.DocumentType`.
    public enum DocumentType: String, Hashable, Sendable, Codable, CaseIterable {
        case passport
        case visa
        case drivingLicense
        case identityCard
    }

    /// The seeds' `Jumio.Document.Physical.DocumentVariant`.
    public enum Variant: String, Hashable, Sendable, Codable, CaseIterable {
        case paper
        case plastic
    }

    public var type: DocumentType
    public var variant: Variant

    public init(_ type: DocumentType, _ variant: Variant = .plastic) {
        self.type = type
        self.variant = variant
    }

    /// The parts a document of this kind is scanned in: booklets and visas show one
    /// page, cards have two sides scanned as one `multipart` part (front, then back).
    public var parts: [Credential.Part] {
        switch type {
        case .passport, .visa: [.front]
        case .drivingLicense, .identityCard: [.multipart]
        }
    }

    public var description: String { "\(type.rawValue)/\(variant.rawValue)" }
}
