extension DisplayMessage: Codable {
    /// The version of the JSON form; a display refuses messages of a version it does not know.
    public static let version = 3

    private enum Kind: String, Codable {
        case initialized, credentialStarted, credentialConfigured, configurationNotSupported, credentialFinished
        case step, digitalHandoff, update, inactivityWarning, offerFallback, askStaff, finalizing, error, logicalError
        case finished
    }

    private enum CodingKeys: String, CodingKey {
        case version, type, credentials, consentItems, id, isConfigured, parts, step, update
        case remainingMilliseconds, part, mode, error, logicalError, result, handoff
    }

    /// `{"version": 3, "type": "<case>", ...payload}`; see docs/events.schema.json.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.version, forKey: .version)
        switch self {
        case .initialized(let credentials, let consentItems):
            try container.encode(Kind.initialized, forKey: .type)
            try container.encode(credentials, forKey: .credentials)
            try container.encode(consentItems, forKey: .consentItems)
        case .credentialStarted(let id, let isConfigured, let parts):
            try container.encode(Kind.credentialStarted, forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(isConfigured, forKey: .isConfigured)
            try container.encode(parts, forKey: .parts)
        case .credentialConfigured(let id, let parts):
            try container.encode(Kind.credentialConfigured, forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(parts, forKey: .parts)
        case .configurationNotSupported(let id):
            try container.encode(Kind.configurationNotSupported, forKey: .type)
            try container.encode(id, forKey: .id)
        case .credentialFinished(let id):
            try container.encode(Kind.credentialFinished, forKey: .type)
            try container.encode(id, forKey: .id)
        case .step(let step):
            try container.encode(Kind.step, forKey: .type)
            try container.encode(step, forKey: .step)
        case .digitalHandoff(let handoff):
            try container.encode(Kind.digitalHandoff, forKey: .type)
            try container.encode(handoff, forKey: .handoff)
        case .update(let update):
            try container.encode(Kind.update, forKey: .type)
            try container.encode(update, forKey: .update)
        case .inactivityWarning(let remaining):
            try container.encode(Kind.inactivityWarning, forKey: .type)
            let (seconds, attoseconds) = remaining.components
            try container.encode(seconds * 1000 + attoseconds / 1_000_000_000_000_000, forKey: .remainingMilliseconds)
        case .offerFallback(let part, let mode):
            try container.encode(Kind.offerFallback, forKey: .type)
            try container.encode(part, forKey: .part)
            try container.encode(mode, forKey: .mode)
        case .askStaff(let part):
            try container.encode(Kind.askStaff, forKey: .type)
            try container.encode(part, forKey: .part)
        case .finalizing:
            try container.encode(Kind.finalizing, forKey: .type)
        case .error(let error):
            try container.encode(Kind.error, forKey: .type)
            try container.encode(error, forKey: .error)
        case .logicalError(let error):
            try container.encode(Kind.logicalError, forKey: .type)
            try container.encode(error, forKey: .logicalError)
        case .finished(let result):
            try container.encode(Kind.finished, forKey: .type)
            try container.encode(result, forKey: .result)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version,
                in: container,
                debugDescription: "display message version \(version), this side speaks \(Self.version)"
            )
        }
        func id() throws -> String { try container.decode(String.self, forKey: .id) }
        func parts() throws -> [Credential.Part] { try container.decode([Credential.Part].self, forKey: .parts) }
        func part() throws -> Credential.Part { try container.decode(Credential.Part.self, forKey: .part) }
        switch try container.decode(Kind.self, forKey: .type) {
        case .initialized:
            self = .initialized(
                credentials: try container.decode([Credential.Info].self, forKey: .credentials),
                consentItems: try container.decodeIfPresent([ConsentItem].self, forKey: .consentItems)
            )
        case .credentialStarted:
            self = .credentialStarted(
                id: try id(),
                isConfigured: try container.decode(Bool.self, forKey: .isConfigured),
                parts: try parts()
            )
        case .credentialConfigured: self = .credentialConfigured(id: try id(), parts: try parts())
        case .configurationNotSupported: self = .configurationNotSupported(id: try id())
        case .credentialFinished: self = .credentialFinished(id: try id())
        case .step: self = .step(try container.decode(Scan.Step.self, forKey: .step))
        case .digitalHandoff: self = .digitalHandoff(try container.decode(DigitalHandoff.self, forKey: .handoff))
        case .update: self = .update(try container.decode(Scan.Update.self, forKey: .update))
        case .inactivityWarning:
            self = .inactivityWarning(
                remaining: .milliseconds(try container.decode(Int64.self, forKey: .remainingMilliseconds))
            )
        case .offerFallback: self = .offerFallback(try part(), try container.decode(Scan.Mode.self, forKey: .mode))
        case .askStaff: self = .askStaff(try part())
        case .finalizing: self = .finalizing
        case .error: self = .error(try container.decode(FlowError.self, forKey: .error))
        case .logicalError: self = .logicalError(try container.decode(LogicalError.self, forKey: .logicalError))
        case .finished: self = .finished(try container.decode(JourneyResult.self, forKey: .result))
        }
    }
}
