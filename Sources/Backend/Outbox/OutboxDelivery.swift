/// What to do with an outbox record after one delivery attempt. Pure: the sender
/// performs the action and sleeps on its clock.
public struct OutboxDelivery: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        /// Acknowledged: wipe and delete.
        case acknowledge
        /// Try again after this delay.
        case retry(after: Duration)
        /// Refused for good by the backend: wipe it with a log line and this code.
        case discard(code: String)
    }

    /// Backoff between attempts; the attempt count is unlimited (the age limit ends a record).
    public var backoff: RetryPolicy

    public init(backoff: RetryPolicy = RetryPolicy(maxAttempts: .max, baseDelay: .seconds(1), maxDelay: .seconds(300))) {
        self.backoff = backoff
    }

    /// - Parameters:
    ///   - error: nil when the backend acknowledged.
    ///   - attempts: earlier failed attempts of this record.
    ///   - random: `0..<1` for the jitter.
    public func after(error: BackendError?, attempts: Int, random: Double) -> Action {
        guard let error else { return .acknowledge }
        switch error.kind {
        case .network, .noConnection:
            return .retry(after: backoff.backoff(attempt: attempts + 1, random: random))
        case .credentials, .secureConnection, .notConfigured:
            // The station's setup is wrong: keep the record until it is fixed.
            return .retry(after: backoff.maxDelay)
        case .transactionFinished, .forbidden, .rejected, .referenceInvalid, .encryptionKeyInvalid:
            return .discard(code: error.code)
        }
    }
}
