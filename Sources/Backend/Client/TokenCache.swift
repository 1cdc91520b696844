/// The OAuth2 access token's life: fetch when there is none, reuse it while fresh,
/// refresh it `refreshMargin` before it expires, forget it when the backend refuses it,
/// and hold off after a 429 until its `Retry-After` has passed.
///
/// A value with one mutating function per event that returns what to do; the owner
/// performs the fetch and reads time from its injected clock.
public struct TokenCache<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    /// What the owner must do to get a token.
    public enum Action: Hashable, Sendable {
        /// Use this token.
        case use(String)
        /// Fetch a new token, then report `fetched` or `fetchFailed`.
        case fetch
        /// Another fetch is under way: wait for its outcome.
        case awaitFetch
        /// The token endpoint asked to wait until then (429).
        case waitUntil(Instant)
    }

    private enum State: Sendable {
        case empty
        case fetching
        case valid(token: String, refreshAt: Instant)
        case rateLimited(until: Instant)
    }

    private var state: State = .empty
    public let refreshMargin: Duration

    /// - Parameter refreshMargin: how long before expiry the token is refreshed; never
    ///   more than half the token's lifetime.
    public init(refreshMargin: Duration = .seconds(60)) {
        self.refreshMargin = refreshMargin
    }

    /// A call needs a token now.
    public mutating func tokenNeeded(now: Instant) -> Action {
        switch state {
        case .empty:
            state = .fetching
            return .fetch
        case .fetching:
            return .awaitFetch
        case .valid(let token, let refreshAt):
            if now < refreshAt { return .use(token) }
            state = .fetching
            return .fetch
        case .rateLimited(let until):
            if now < until { return .waitUntil(until) }
            state = .fetching
            return .fetch
        }
    }

    /// The token endpoint answered.
    public mutating func fetched(token: String, expiresIn: Duration, now: Instant) {
        let margin = min(refreshMargin, expiresIn / 2)
        state = .valid(token: token, refreshAt: now.advanced(by: expiresIn - margin))
    }

    /// The token endpoint failed; with `retryAfter` (429) the next fetch waits.
    public mutating func fetchFailed(retryAfter: Duration?, now: Instant) {
        if let retryAfter {
            state = .rateLimited(until: now.advanced(by: retryAfter))
        } else {
            state = .empty
        }
    }

    /// The backend refused `token` (401 on a call): forget it unless a newer one came.
    public mutating func rejected(token: String) {
        if case .valid(let current, _) = state, current == token {
            state = .empty
        }
    }
}
