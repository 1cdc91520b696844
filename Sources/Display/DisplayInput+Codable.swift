public import Foundation
import ScanFlow

/// Why the display server refused a frame from a display; sent back as `commandRefused`.
public struct InputRefusal: Error, Hashable, Sendable, Codable {
    public enum Reason: String, Hashable, Sendable, Codable, CaseIterable {
        /// Not a JSON object with `version` and `type` (or a binary frame).
        case malformed
        /// A `version` this server does not speak; `supportedVersion` says which it does.
        case unsupportedVersion
        /// A `type` that is no command.
        case unknownType
        /// A known command with missing or invalid keys.
        case invalidPayload
    }

    public var reason: Reason
    /// A plain English explanation for the integrator; never echoes the input.
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }
}

extension DisplayInput: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, type
    }

    /// `{"version": 3, "type": "startJourney"}` for a station command, else the `DisplayCommand` form.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .flow(let command): try command.encode(to: encoder)
        case .station(let command):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(DisplayMessage.version, forKey: .version)
            try container.encode(command.rawValue, forKey: .type)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == DisplayMessage.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "display command version \(version), this side speaks \(DisplayMessage.version)"
            )
        }
        if let command = StationCommand(rawValue: try container.decode(String.self, forKey: .type)) {
            self = .station(command)
        } else {
            self = .flow(try DisplayCommand(from: decoder))
        }
    }

    /// Decodes a text frame from a display, explaining a refusal in terms an integrator can act on.
    ///
    /// - Throws: `InputRefusal`; nothing else.
    public init(json: some DataProtocol) throws(InputRefusal) {
        let data = Data(json)
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw InputRefusal(.malformed, "a command is a JSON object")
            }
            object = parsed
        } catch let refusal as InputRefusal {
            throw refusal
        } catch {
            throw InputRefusal(.malformed, "not JSON")
        }
        guard let version = object["version"] as? Int, let type = object["type"] as? String else {
            throw InputRefusal(.malformed, "a command needs an integer \"version\" and a string \"type\"")
        }
        guard version == DisplayMessage.version else {
            throw InputRefusal(.unsupportedVersion, "version \(version) is not spoken here; send version \(DisplayMessage.version)")
        }
        guard StationCommand(rawValue: type) != nil || Self.flowCommandTypes.contains(type) else {
            throw InputRefusal(.unknownType, "no command has this type")
        }
        do {
            self = try JSONDecoder().decode(DisplayInput.self, from: data)
        } catch {
            throw InputRefusal(.invalidPayload, "the command's keys are missing or invalid (see docs/events.schema.json)")
        }
    }

    /// The `type`s of `DisplayCommand`'s JSON form, to tell an unknown type from a bad payload.
    static let flowCommandTypes: Set<String> = [
        "userConsented", "startCredential", "setConfiguration", "setAcquireMode", "setDigitalConfiguration",
        "startScanPart", "takeImage", "confirm", "retake", "switchToFallback", "pauseScan", "retryScan",
        "handoffConfirmed", "finishScanPart", "finishCredential", "finish", "cancel", "retryAfterError", "userIsPresent",
        "enterChipKey",
    ]
}
