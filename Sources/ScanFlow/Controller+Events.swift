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
}
