/// How a journey ended (seeds: `Jumio.Result`); sent exactly once, as the last display message.
///
/// It holds no personal data: the extracted data and images live with the backend.
public struct JourneyResult: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The Authentication SDK's outcome (seed 004).
    public enum AuthenticationOutcome: String, Hashable, Sendable, Codable, CaseIterable {
        case SUCCESS
        case FAILED
    }

    /// What one credential contributed.
    public struct CredentialResult: Hashable, Sendable, Codable {
        public var id: String
        public var category: Credential.Category
        /// The parts finished, with the mode that captured each (the seeds' `extractionMethod`).
        public var parts: [Credential.Part: Scan.Mode]
        public var chipRead: Bool

        public init(id: String, category: Credential.Category, parts: [Credential.Part: Scan.Mode], chipRead: Bool) {
            self.id = id
            self.category = category
            self.parts = parts
            self.chipRead = chipRead
        }
    }

    /// `true` when the journey was completed and finalised, `false` when it ended with an error.
    public var isSuccess: Bool
    /// `false` for Fastfill (extraction only).
    public var verification: Bool
    public var credentials: [CredentialResult]
    public var authentication: AuthenticationOutcome?
    public var error: FlowError?

    public init(
        isSuccess: Bool,
        verification: Bool,
        credentials: [CredentialResult],
        authentication: AuthenticationOutcome? = nil,
        error: FlowError? = nil
    ) {
        self.isSuccess = isSuccess
        self.verification = verification
        self.credentials = credentials
        self.authentication = authentication
        self.error = error
    }

    public var description: String {
        let outcome = authentication.map { " \($0.rawValue)" } ?? ""
        return "JourneyResult(\(isSuccess ? "success" : "failure")\(outcome)\(error.map { " \($0.code)" } ?? ""))"
    }
}
