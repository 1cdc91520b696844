/// A Digital Identity provider the reference backend offers for ID credentials that accept one.
///
/// The reference backend has no real provider: its hand-off page (`GET /handoff/{token}`)
/// stands in for the provider's app on the person's phone, with buttons to share the
/// identity, to fail, or to decline, so journeys through it can be run and tested end to end.
public struct DigitalIdentityProvider: Hashable, Sendable {
    /// The provider's id, as the station's display names it.
    public var id: String
    /// The name the person sees.
    public var title: String
    /// ISO 3166 alpha-3 codes it serves; empty: the countries of the credential's filter.
    public var countries: [String]

    public init(id: String, title: String, countries: [String] = []) {
        self.id = id
        self.title = title
        self.countries = countries
    }

    /// The simulated provider the reference backend offers by default.
    public static let simulated = DigitalIdentityProvider(id: "reference-eid", title: "Reference eID (simulated)")
}
