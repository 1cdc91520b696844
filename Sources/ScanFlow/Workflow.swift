/// What the backend's workflow initiation returned: the journey a controller runs.
public struct Workflow: Hashable, Sendable, CustomStringConvertible {
    /// The seeds' data centers.
    public enum DataCenter: String, Hashable, Sendable, Codable, CaseIterable {
        case US
        case EU
        case SG
    }

    /// Which of the seeds' products the journey is.
    public enum Flow: Hashable, Sendable {
        /// ID verification, optionally followed by a face (Identity Verification).
        case verification
        /// Fastfill (seed 002): extraction only, no verification, so no face credential.
        case fastfill
        /// Authentication SDK (seed 004): a face against an earlier transaction.
        case authentication(AuthenticationReference)
    }

    public var flow: Flow
    public var credentials: [Credential.Info]
    /// `nil` when no consent is required.
    public var consentItems: [ConsentItem]?
    /// The data center the backend said the execution lives in; nil when it did not say,
    /// which the controller refuses like another data center's.
    public var dataCenter: DataCenter?
    public var token: SessionToken
    /// How long the token, and so the session, lives from the moment the journey starts.
    public var tokenLifetime: Duration
    /// The liveness provider version the workflow was built for; `nil` when it does not care.
    public var livenessProviderVersion: Int?
    /// Where the person continues each Digital Identity the credentials offer, one per provider.
    public var digitalHandoffs: [DigitalHandoff]

    public init(
        flow: Flow = .verification,
        credentials: [Credential.Info],
        consentItems: [ConsentItem]? = nil,
        dataCenter: DataCenter? = .EU,
        token: SessionToken,
        tokenLifetime: Duration = .seconds(15 * 60),
        livenessProviderVersion: Int? = nil,
        digitalHandoffs: [DigitalHandoff] = []
    ) {
        self.flow = flow
        self.credentials = credentials
        self.consentItems = consentItems
        self.dataCenter = dataCenter
        self.token = token
        self.tokenLifetime = tokenLifetime
        self.livenessProviderVersion = livenessProviderVersion
        self.digitalHandoffs = digitalHandoffs
    }

    public var description: String {
        "Workflow(\(flow), \(credentials.map(\.category.rawValue)), \(dataCenter?.rawValue ?? "no data center"), token: \(token))"
    }
}
