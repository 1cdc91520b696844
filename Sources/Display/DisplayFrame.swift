import ScanFlow

/// A text frame the display server sends on `/events`: an event for every display, or the
/// refusal of a frame one display sent.
///
/// Its JSON form is the contract of docs/events.md: a `DisplayMessage` as ScanFlow encodes
/// it, `{"version": 3, "type": "station", "screen": {...}}`, or
/// `{"version": 3, "type": "commandRefused", "reason": ..., "message": ...}`.
public enum DisplayFrame: Hashable, Sendable {
    case event(DisplayEvent)
    case refused(InputRefusal)
}

extension DisplayFrame: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, type, screen, reason, message, supportedVersion
    }

    private enum StationKind: String {
        case station, commandRefused
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .event(.flow(let message)): try message.encode(to: encoder)
        case .event(.station(let screen)):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(DisplayMessage.version, forKey: .version)
            try container.encode(StationKind.station.rawValue, forKey: .type)
            try container.encode(screen, forKey: .screen)
        case .refused(let refusal):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(DisplayMessage.version, forKey: .version)
            try container.encode(StationKind.commandRefused.rawValue, forKey: .type)
            try container.encode(refusal.reason, forKey: .reason)
            try container.encode(refusal.message, forKey: .message)
            try container.encode(DisplayMessage.version, forKey: .supportedVersion)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == DisplayMessage.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "display frame version \(version), this side speaks \(DisplayMessage.version)"
            )
        }
        switch StationKind(rawValue: try container.decode(String.self, forKey: .type)) {
        case .station: self = .event(.station(try container.decode(StationScreen.self, forKey: .screen)))
        case .commandRefused:
            self = .refused(
                InputRefusal(
                    try container.decode(InputRefusal.Reason.self, forKey: .reason),
                    try container.decode(String.self, forKey: .message)
                )
            )
        case nil: self = .event(.flow(try DisplayMessage(from: decoder)))
        }
    }
}

extension StationScreen: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, startBy, devices, reference, decision
    }

    private enum Name: String, Codable {
        case idle, outOfService, starting, documentLifted, documentReturned, decision
    }

    /// `{"name": "idle", "startBy": ["card", "touch"]}`, `{"name": "outOfService", "devices": [...]}`, `{"name": "starting"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .idle(let triggers):
            try container.encode(Name.idle, forKey: .name)
            try container.encode(triggers, forKey: .startBy)
        case .outOfService(let devices):
            try container.encode(Name.outOfService, forKey: .name)
            try container.encode(devices, forKey: .devices)
        case .starting:
            try container.encode(Name.starting, forKey: .name)
        case .documentLifted:
            try container.encode(Name.documentLifted, forKey: .name)
        case .documentReturned:
            try container.encode(Name.documentReturned, forKey: .name)
        case .decision(let reference, let decision):
            try container.encode(Name.decision, forKey: .name)
            try container.encode(reference, forKey: .reference)
            try container.encode(decision, forKey: .decision)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Name.self, forKey: .name) {
        case .idle: self = .idle(startBy: try container.decode([StartTrigger].self, forKey: .startBy))
        case .outOfService: self = .outOfService(devices: try container.decode([DeviceStatus].self, forKey: .devices))
        case .starting: self = .starting
        case .documentLifted: self = .documentLifted
        case .documentReturned: self = .documentReturned
        case .decision:
            self = .decision(
                reference: try container.decode(String.self, forKey: .reference), decision: try container.decodeIfPresent(String.self, forKey: .decision))
        }
    }
}
