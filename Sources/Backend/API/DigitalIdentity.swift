/// `DigitalIdentityOffer`: a Digital Identity provider an ID credential accepts, and the
/// one-time address where the person continues with it on their phone.
///
/// The address carries the hand-off's secret, so the offer prints redacted.
public struct DigitalIdentityOffer: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The provider's id (the display's `DigitalDocument.id`).
    public var provider: String
    /// The provider's name to show.
    public var title: String
    /// ISO 3166 alpha-3 codes of the countries whose people it serves.
    public var countries: [String]
    /// The address the person's phone opens (the station shows it as a QR code).
    public var handoffUrl: String

    public init(provider: String, title: String, countries: [String], handoffUrl: String) {
        self.provider = provider
        self.title = title
        self.countries = countries
        self.handoffUrl = handoffUrl
    }

    public var description: String { "DigitalIdentityOffer(\(provider), <redacted>)" }
}

/// `DigitalIdentityStatus`: where the person's Digital Identity verification stands, as the
/// backend learned it from the provider (the answer of `GET …/credentials/{id}/digital-identity`).
public struct DigitalIdentityStatus: Codable, Hashable, Sendable {
    public enum State: String, Codable, Hashable, Sendable, CaseIterable {
        /// Offered; the person has not opened the hand-off yet.
        case PENDING
        /// The person opened the hand-off: the provider's session runs.
        case OPENED
        /// The provider verified the person; the backend holds its data for the credential.
        case VERIFIED
        /// The provider could not verify the person; opening the hand-off again starts a new attempt.
        case FAILED
        /// The person declined at the provider.
        case CANCELLED
        /// The hand-off's time ran out; it can no longer be used.
        case EXPIRED

        /// Whether the attempt is over (the station stops waiting for it).
        public var isFinal: Bool { ![.PENDING, .OPENED].contains(self) }
    }

    /// The provider the person chose, once they opened the hand-off; nil before.
    public var provider: String?
    public var status: State
    /// Counts the person's attempts, from 1: a new attempt after FAILED has a higher number.
    public var attempt: Int
    /// Why the provider could not verify (FAILED): a code and words for the person, never personal data.
    public var reason: String?

    public init(provider: String? = nil, status: State, attempt: Int = 1, reason: String? = nil) {
        self.provider = provider
        self.status = status
        self.attempt = attempt
        self.reason = reason
    }
}
