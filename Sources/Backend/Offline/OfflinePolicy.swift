/// What a station does with new journeys while the backend cannot be reached.
///
/// A journey needs a workflow execution (`POST /api/v1/accounts`: the credential ids and
/// the session token), so it can only start offline from an execution initiated in
/// advance, while the backend was reachable. Parts and the finalize of a started journey
/// always go through the outbox, which drains when the backend returns, whatever the mode.
public struct OfflinePolicy: Sendable, Hashable {
    /// The station's behaviour for new journeys while offline.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// A new journey starts from an execution initiated in advance; when none is left
        /// (or none lives long enough) it is refused like in ``refuseNewJourneys``.
        case queue
        /// New journeys are refused (the station shows it is out of service) until the
        /// backend answers again.
        case refuseNewJourneys
    }

    public var mode: Mode
    /// How many executions to keep initiated in advance (``Mode/queue`` only).
    public var preparedExecutions: Int
    /// The session token lifetime to ask for in advance, seconds (the API allows 60…86400).
    public var tokenLifetime: Int
    /// A prepared execution is used only while its session token has at least this long
    /// to live: the journey, plus the outage its outbox records must outlast.
    public var minimumRemainingLifetime: Duration
    /// After a failure to reach the backend, new journeys go straight to the offline path
    /// for this long instead of each waiting for a connect timeout; the refill probes.
    public var recheckInterval: Duration

    public init(
        mode: Mode, preparedExecutions: Int = 5, tokenLifetime: Int = 86_400,
        minimumRemainingLifetime: Duration = .seconds(8 * 3600), recheckInterval: Duration = .seconds(30)
    ) {
        self.mode = mode
        self.preparedExecutions = mode == .queue ? max(0, preparedExecutions) : 0
        self.tokenLifetime = min(max(tokenLifetime, 60), 86_400)
        self.minimumRemainingLifetime = minimumRemainingLifetime
        self.recheckInterval = recheckInterval
    }
}

extension BackendError {
    /// Whether the failure means the backend is unreachable or unwell (E or A), as opposed
    /// to an answer the station must act on (credentials, refusal, configuration).
    public var meansOffline: Bool { kind == .noConnection || kind == .network }
}
