/// How a journey ended (seeds: `Jumio.Result`); sent exactly once, as the last display message.
///
/// It holds no personal data: the extracted data and images live with the backend.
public struct JourneyResult: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The Authentication SDK's outcome (seed 004).
    public enum AuthenticationOutcome: String, Hashable, Sendable, Codable, CaseIterable {
        case SUCCESS
        case FAILED
    }

    /// The station's own face checks (the seeds' `Jumio.FaceResult`): its liveness decision
    /// and its comparison of the best face image with the chip's portrait. The backend
    /// decides again on what was uploaded; this is what the station saw.
    public struct FaceCheck: Hashable, Sendable, Codable {
        public enum Liveness: String, Hashable, Sendable, Codable, CaseIterable {
            case live
            case attack
            /// Liveness could not be established (too few frames, no turn seen).
            case notPossible
        }

        public enum Match: String, Hashable, Sendable, Codable, CaseIterable {
            case match
            /// Within the staff review band around the threshold.
            case review
            case noMatch
            /// No face found in the chip's portrait or in the best image.
            case notPossible
        }

        /// The seeds' `passed`: live, and the chip portrait's person when there is a portrait.
        public var passed: Bool
        public var liveness: Liveness
        /// nil: nothing to compare with (no chip read, or an Authentication: the backend compares).
        public var match: Match?
        /// 1 identical, 0.5 at the threshold.
        public var similarity: Double?

        public init(liveness: Liveness, match: Match? = nil, similarity: Double? = nil) {
            self.liveness = liveness
            self.match = match
            self.similarity = similarity
            passed = liveness == .live && (match == nil || match == .match)
        }
    }

    /// What one credential contributed.
    public struct CredentialResult: Hashable, Sendable, Codable {
        public var id: String
        public var category: Credential.Category
        /// The parts finished, with the mode that captured each (the seeds' `extractionMethod`).
        public var parts: [Credential.Part: Scan.Mode]
        public var chipRead: Bool
        /// A face credential's checks at the station; nil when none ran.
        public var face: FaceCheck?

        public init(id: String, category: Credential.Category, parts: [Credential.Part: Scan.Mode], chipRead: Bool, face: FaceCheck? = nil) {
            self.id = id
            self.category = category
            self.parts = parts
            self.chipRead = chipRead
            self.face = face
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
