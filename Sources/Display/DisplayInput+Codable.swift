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
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case version, type, enrollmentTransactionReference, authenticationTransactionReference
        case customerInternalReference, userReference, callbackUrl
    }

    /// `{"version": 3, "type": "startJourney"}` for a station command, with
    /// `"enrollmentTransactionReference"` or `"authenticationTransactionReference"` at an
    /// Authentication station, and optionally `"customerInternalReference"`,
    /// `"userReference"`, `"callbackUrl"`; else the `DisplayCommand` form.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .flow(let command): try command.encode(to: encoder)
        case .station(.startJourney(let reference, let references)):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(DisplayMessage.version, forKey: .version)
            try container.encode("startJourney", forKey: .type)
            switch reference {
            case .enrollment(let id)?: try container.encode(id, forKey: .enrollmentTransactionReference)
            case .authenticationTransaction(let id)?: try container.encode(id, forKey: .authenticationTransactionReference)
            case nil: break
            }
            try container.encodeIfPresent(references?.customerInternalReference, forKey: .customerInternalReference)
            try container.encodeIfPresent(references?.userReference, forKey: .userReference)
            try container.encodeIfPresent(references?.callbackURL, forKey: .callbackUrl)
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
        if try container.decode(String.self, forKey: .type) == "startJourney" {
            // Strict: a key the command does not have is an error, not ignored.
            let known = Set(CodingKeys.allCases.map(\.stringValue))
            let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            if let unknown = keys.first(where: { !known.contains($0) }) {
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "startJourney has no key \(unknown)")
            }
            let enrollment = try container.decodeIfPresent(String.self, forKey: .enrollmentTransactionReference)
            let authentication = try container.decodeIfPresent(String.self, forKey: .authenticationTransactionReference)
            let references = JourneyReferences(
                customerInternalReference: try container.decodeIfPresent(String.self, forKey: .customerInternalReference),
                userReference: try container.decodeIfPresent(String.self, forKey: .userReference),
                callbackURL: try container.decodeIfPresent(String.self, forKey: .callbackUrl))
            let named = references.isEmpty ? nil : references
            switch (enrollment, authentication) {
            case (nil, nil): self = .station(.startJourney(nil, references: named))
            case (let id?, nil): self = .station(.startJourney(.enrollment(id), references: named))
            case (nil, let id?): self = .station(.startJourney(.authenticationTransaction(id), references: named))
            case (_?, _?):
                throw DecodingError.dataCorruptedError(
                    forKey: .authenticationTransactionReference, in: container, debugDescription: "one reference, not both")
            }
            let ids = [enrollment, authentication, references.customerInternalReference, references.userReference].compactMap { $0 }
            for id in ids where id.isEmpty || id.count > 100 {
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "a reference has 1 to 100 characters")
            }
            if let callback = references.callbackURL, !JourneyReferences.isCallbackURL(callback) {
                throw DecodingError.dataCorruptedError(forKey: .callbackUrl, in: container, debugDescription: "callbackUrl is an http(s) URL")
            }
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
        guard StationCommand.types.contains(type) || Self.flowCommandTypes.contains(type) else {
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
        "startScanPart", "takeImage", "lastPage", "confirm", "retake", "switchToFallback", "pauseScan", "retryScan",
        "handoffConfirmed", "finishScanPart", "finishCredential", "finish", "cancel", "retryAfterError", "userIsPresent",
        "enterChipKey",
    ]
}

/// Any key of a JSON object, to find the ones a command does not have.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
