/// When to try a failed call again: capped exponential backoff with full jitter, only
/// for idempotent calls, and never past the attempt limit.
///
/// Pure: it returns a delay, the owner sleeps on its injected clock.
public struct RetryPolicy: Hashable, Sendable {
    /// Attempts in all, the first one included.
    public var maxAttempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// The longest `Retry-After` the station honours; longer ones end the retries.
    public var maxRetryAfter: Duration

    public init(maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(5), maxRetryAfter: Duration = .seconds(30)) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// What to do after a failed attempt.
    public enum Decision: Hashable, Sendable {
        case retry(after: Duration)
        case giveUp
    }

    /// Decides after attempt number `attempt` (1-based) failed.
    ///
    /// - Parameters:
    ///   - attempt: the attempt that just failed, 1 for the first.
    ///   - idempotent: whether the call may run twice without harm.
    ///   - error: the failure; only retryable kinds (A, E) are retried.
    ///   - retryAfter: the backend's `Retry-After`, which replaces the backoff.
    ///   - random: a number in `0..<1` for the jitter.
    public func decide(attempt: Int, idempotent: Bool, error: BackendError, retryAfter: Duration?, random: Double) -> Decision {
        guard idempotent, error.isRetryable, attempt < maxAttempts else { return .giveUp }
        if let retryAfter {
            return retryAfter <= maxRetryAfter ? .retry(after: retryAfter) : .giveUp
        }
        return .retry(after: backoff(attempt: attempt, random: random))
    }

    /// Full jitter: uniform in `0...min(maxDelay, baseDelay * 2^(attempt-1))`.
    public func backoff(attempt: Int, random: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        var ceiling = baseDelay * (1 << exponent)
        if ceiling > maxDelay { ceiling = maxDelay }
        let clamped = min(max(random, 0), 1)
        return ceiling * clamped
    }
}
