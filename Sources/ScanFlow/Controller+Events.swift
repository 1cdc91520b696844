extension Controller {
    /// A station device the journey depends on.
    public enum Device: String, Hashable, Sendable, Codable, CaseIterable {
        case camera
        case reader
    }

    /// What the backend's Instant Feedback said about a part's images.
    public enum PartOutcome: Hashable, Sendable {
        /// The images are usable.
        case accepted
        /// The images are not usable, per part.
        case rejected([Credential.Part: RejectReason])
        /// The part has to be scanned again.
        case retry(Retry.Reason)
    }

    /// How the Digital Identity provider's verification ended, as the backend reports it.
    public enum ThirdPartyOutcome: Hashable, Sendable {
        /// The provider verified the person; the backend fetches its data and answers with `partProcessed`.
        case success
        /// The provider could not verify the person: the part can be handed over again (`retake`).
        case failed(Retry.Reason)
        /// The provider or the connection to it failed: retryable errors wait for `retryAfterError`,
        /// the others end the journey.
        case error(FlowError)
        /// The person cancelled at the provider: the credential goes back to the document selection.
        case cancelled
    }
}
