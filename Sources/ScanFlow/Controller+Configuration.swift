extension Controller {
    /// The station's side of the journey: what it is, and how long it waits for people and devices.
    public struct Configuration: Hashable, Sendable {
        /// The data center the station is registered in; a workflow from another one is refused.
        public var dataCenter: Workflow.DataCenter
        /// The liveness provider version installed; `nil` when the station has none.
        public var livenessProviderVersion: Int?
        /// How long a step waits for the person before asking "are you still there?".
        public var inactivityTimeouts: [InactivityPhase: Duration]
        /// Used for a phase missing from `inactivityTimeouts`.
        public var defaultInactivityTimeout: Duration
        /// How long the "are you still there?" warning stays before the station resets.
        public var inactivityWarningGrace: Duration
        /// How long a camera may take to start before the journey ends with H.
        public var deviceStartTimeout: Duration
        /// How long a Digital Identity hand-off and the provider's verification may take on the
        /// person's phone before "are you still there?"; `inactivityTimeouts` overrides it per phase.
        public var handoffTimeout: Duration
        /// Failed attempts (rejects, retries) of a part after which fallback or staff help is offered.
        public var maxAttemptsPerPart: Int
        /// The most pages a paper document (a `document` credential taken with the camera)
        /// has; the part ends by itself at the last, before that when the person says so
        /// (`lastPage`). The seeds do not say how many images such a part takes.
        public var maxDocumentPages: Int

        public init(
            dataCenter: Workflow.DataCenter = .EU,
            livenessProviderVersion: Int? = nil,
            inactivityTimeouts: [InactivityPhase: Duration] = [:],
            defaultInactivityTimeout: Duration = .seconds(60),
            inactivityWarningGrace: Duration = .seconds(15),
            deviceStartTimeout: Duration = .seconds(10),
            handoffTimeout: Duration = .seconds(5 * 60),
            maxAttemptsPerPart: Int = 3,
            maxDocumentPages: Int = 10
        ) {
            self.dataCenter = dataCenter
            self.livenessProviderVersion = livenessProviderVersion
            self.inactivityTimeouts = inactivityTimeouts
            self.defaultInactivityTimeout = defaultInactivityTimeout
            self.inactivityWarningGrace = inactivityWarningGrace
            self.deviceStartTimeout = deviceStartTimeout
            self.handoffTimeout = handoffTimeout
            self.maxAttemptsPerPart = maxAttemptsPerPart
            self.maxDocumentPages = max(1, maxDocumentPages)
        }

        func inactivityTimeout(for phase: InactivityPhase) -> Duration {
            switch phase {
            case .handoff, .thirdParty: inactivityTimeouts[phase] ?? handoffTimeout
            default: inactivityTimeouts[phase] ?? defaultInactivityTimeout
            }
        }
    }

    /// A step at which the station waits for the person, each with its own inactivity timeout.
    public enum InactivityPhase: String, Hashable, Sendable, Codable, CaseIterable {
        /// Consent items on screen.
        case consent
        /// Choosing a credential, country or document, or between parts.
        case selection
        /// The scan view: waiting for a document, a face or a file.
        case scanning
        /// A help screen after `pauseScan`.
        case help
        /// Waiting for the document on the reader.
        case chip
        /// The person types the chip's key (CAN, or document number and dates).
        case chipKey
        case confirmation
        case reject
        case retry
        /// A retryable error on screen.
        case error
        /// The part is done; waiting for the person to go on.
        case canFinish
        /// A Digital Identity hand-off on screen: the person opens it on their phone (`handoffTimeout`).
        case handoff
        /// The person verifies with the Digital Identity provider on their phone (`handoffTimeout`).
        case thirdParty
    }
}
