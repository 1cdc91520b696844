import Foundation
import KioskTestKit
import ScanFlow
import Testing

/// The Custom UI contract: display messages and commands as versioned JSON, checked
/// against docs/events.schema.json by an independent validator (python3 + jsonschema).
@Suite struct ContractTests {
    /// Display messages from real journeys (Digital Identity included), plus every update
    /// a pipeline may pass through.
    static var producedMessages: [DisplayMessage] {
        var messages: [DisplayMessage] = []
        for seed: UInt64 in 1...80 {
            var rng = SplitMix64(seed: seed)
            var h = Harness()
            for step in 0..<RandomJourneyTests.eventsPerJourney {
                RandomJourneyTests.nextEvent(step: step, seed: seed, harness: h, using: &rng).apply(to: &h)
            }
            messages += h.displayed
        }
        for stage in Stage.allCases {
            var h = stage.harness()
            h.send { $0.cancel() }
            messages += h.displayed
        }
        var h = Stage.scanning.harness(configuration: .init(maxAttemptsPerPart: 1))
        let updates: [Scan.Update] = [
            .fallback(.userAction), .extractionState(.centerId), .extractionState(.tooClose),
            .extractionState(.moveCloser), .extractionState(.holdStraight), .extractionState(.holdStill),
            .extractionState(.tilt(current: -4, target: 0)), .extractionState(.centerFace),
            .extractionState(.levelEyesAndDevice), .extractionState(.tiltFace(.up)), .flash(.on), .flash(.off),
            .nextPosition(nil), .nextPosition(Scan.ImageCount(taken: 2, maximum: 10)), .cameraAvailable(false), .legalHint("Scans are kept for 30 days"),
        ]
        for update in updates { h.send { $0.scanUpdate(update) } }
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        h.send { $0.partProcessed(.rejected([.front: .glare, .back: .missingBack])) }
        h.send { $0.switchToFallback() }
        h.send { $0.cameraStarted() }
        h.send { $0.takeImage() }
        h.send { $0.imageCaptured(Fixtures.image(.front)) }
        h.send { $0.partProcessed(.retry(Retry.Reason(code: 12, message: "Document too far away"))) }
        messages += h.displayed
        messages += [
            .inactivityWarning(remaining: .milliseconds(12_500)),
            .finished(JourneyResult(isSuccess: true, verification: true, credentials: [], authentication: .SUCCESS)),
            .finished(JourneyResult(isSuccess: true, verification: true, credentials: [
                .init(id: "face-1", category: .face, parts: [.face: .faceLiveness], chipRead: false,
                      face: .init(liveness: .live, match: .review, similarity: 0.52)),
            ])),
        ]
        // Journeys repeat themselves; each distinct message is enough for the contract.
        var seen: Set<DisplayMessage> = []
        return messages.filter { seen.insert($0).inserted }
    }

    static let commands: [DisplayCommand] = [
        .userConsented(itemID: "privacy", decision: true), .startCredential(id: "id-1"),
        .setConfiguration(country: "AUT", document: Document(.identityCard, .paper)), .setAcquireMode(.file),
        .setDigitalConfiguration(country: "DNK", digitalDocument: Fixtures.mitID), .handoffConfirmed,
        .startScanPart(.multipart), .takeImage, .lastPage, .confirm, .retake, .switchToFallback, .pauseScan, .retryScan,
        .finishScanPart, .finishCredential, .finish, .cancel, .retryAfterError, .userIsPresent,
    ]

    /// Messages the schema must refuse, so the validation above it can fail.
    static let invalid: [String] = [
        #"{"version": 4, "type": "finalizing"}"#,
        #"{"version": 3, "type": "digitalHandoff", "handoff": {"provider": "mitid"}}"#,
        #"{"version": 3, "type": "setDigitalConfiguration", "country": "DNK", "digitalDocument": {"type": "passport"}}"#,
        #"{"version": 3, "type": "step", "step": {"name": "selfie", "part": "face"}}"#,
        #"{"version": 3, "type": "error", "error": {"code": "Q000000", "message": "x", "retryable": true}}"#,
        #"{"version": 3, "type": "step", "step": {"name": "prepare", "part": "front", "image": "/9j/4AAQ"}}"#,
        #"{"version": 3, "type": "startScanPart", "part": "spine"}"#,
        #"{"version": 2, "type": "confirm"}"#,
        #"{"version": 3, "type": "update", "update": {"name": "nextPosition", "taken": 1}}"#,
        #"{"version": 3, "type": "lastPage", "page": 2}"#,
        #"{"version": 3, "type": "finished", "result": {"isSuccess": true, "verification": true, "credentials": [{"id": "f", "category": "face", "parts": {}, "chipRead": false, "face": {"passed": true, "liveness": "probably"}}]}}"#,
    ]

    static func encoded<T: Encodable>(_ values: [T]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(values)
    }

    @Test func messagesAndCommandsRoundTrip() throws {
        let messages = Self.producedMessages
        let decodedMessages = try JSONDecoder().decode([DisplayMessage].self, from: Self.encoded(messages))
        #expect(decodedMessages == messages)
        let decodedCommands = try JSONDecoder().decode([DisplayCommand].self, from: Self.encoded(Self.commands))
        #expect(decodedCommands == Self.commands)
    }

    @Test func theJSONFormIsStable() throws {
        let step = String(decoding: try Self.encoded([DisplayMessage.step(.started(.front, .docFinder))]), as: UTF8.self)
        #expect(step == #"[{"step":{"mode":"docFinder","name":"started","part":"front"},"type":"step","version":3}]"#)
        let error = String(decoding: try Self.encoded([DisplayMessage.error(FlowError(.A, detail: "100503"))]), as: UTF8.self)
        #expect(
            error
                == #"[{"error":{"code":"A100503","message":"We have encountered a network communication problem","retryable":true},"type":"error","version":3}]"#
        )
        let command = String(decoding: try Self.encoded([DisplayCommand.userConsented(itemID: "privacy", decision: false)]), as: UTF8.self)
        #expect(command == #"[{"decision":false,"itemId":"privacy","type":"userConsented","version":3}]"#)
        let handoff = String(decoding: try Self.encoded([DisplayMessage.digitalHandoff(Fixtures.handoff)]), as: UTF8.self)
        #expect(
            handoff
                == #"[{"handoff":{"provider":"mitid","url":"https:\/\/verify.example.org\/h\/hand-off-SECRET-9a2"},"type":"digitalHandoff","version":3}]"#
        )
    }

    /// The seeds' `passed`: live, and the chip portrait's person when there was a portrait.
    @Test(arguments: [
        (JourneyResult.FaceCheck.Liveness.live, JourneyResult.FaceCheck.Match?.none, true), (.live, .match, true), (.live, .review, false),
        (.live, .noMatch, false), (.live, .notPossible, false), (.attack, nil, false), (.attack, .match, false), (.notPossible, .match, false),
    ])
    func aFaceCheckPassesWhenLiveAndTheSamePerson(liveness: JourneyResult.FaceCheck.Liveness, match: JourneyResult.FaceCheck.Match?, passed: Bool) {
        #expect(JourneyResult.FaceCheck(liveness: liveness, match: match).passed == passed)
    }

    @Test func anotherVersionIsRefused() {
        let future = Data(#"{"version": 4, "type": "cancel"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DisplayCommand.self, from: future) }
        let past = Data(#"{"version": 2, "type": "handoffConfirmed"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DisplayCommand.self, from: past) }
    }

    @Test func aCommandFromTheDisplayDrivesTheController() throws {
        var h = Stage.confirmation.harness()
        let command = try JSONDecoder().decode(DisplayCommand.self, from: Data(#"{"version":3,"type":"confirm"}"#.utf8))
        #expect(h.send { $0.handle(command) }.displayed == [.step(.canFinish(.front))])
    }

    @Test func theProducedMessagesCoverTheContract() throws {
        let json = try JSONSerialization.jsonObject(with: Self.encoded(Self.producedMessages)) as? [[String: Any]] ?? []
        let types = Set(json.compactMap { $0["type"] as? String })
        #expect(
            types == [
                "initialized", "credentialStarted", "credentialConfigured", "configurationNotSupported",
                "credentialFinished", "step", "digitalHandoff", "update", "inactivityWarning", "offerFallback", "askStaff", "finalizing",
                "error", "logicalError", "finished",
            ]
        )
        let steps = Set(json.compactMap { ($0["step"] as? [String: Any])?["name"] as? String })
        #expect(steps.count == 13, "steps seen: \(steps.sorted())")
    }

    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    /// The JSON examples of docs/events.md, one per ```json block.
    static func documentedExamples() throws -> [String] {
        let text = try String(contentsOf: docs.appendingPathComponent("events.md"), encoding: .utf8)
        return text.components(separatedBy: "```json\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    @Test func theDocumentedExamplesDecode() throws {
        let examples = try Self.documentedExamples()
        #expect(examples.count >= 20)
        // The display server's own frames are decoded by DisplayTests (DisplayFrame, DisplayInput).
        let station = ["\"station\"", "\"commandRefused\"", "\"startJourney\""]
        for example in examples where !station.contains(where: { example.contains("\"type\": \($0)") }) {
            let data = Data(example.utf8)
            let message = try? JSONDecoder().decode(DisplayMessage.self, from: data)
            let command = try? JSONDecoder().decode(DisplayCommand.self, from: data)
            #expect(message != nil || command != nil, "docs/events.md example does not decode: \(example)")
        }
    }

    @Test func theSchemaValidatesTheProducedEvents() throws {
        let schema = Self.docs.appendingPathComponent("events.schema.json")
        #expect(FileManager.default.fileExists(atPath: schema.path), "missing \(schema.path)")
        let examples = try JSONSerialization.data(
            withJSONObject: Self.documentedExamples().map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
        )
        let invalid = try JSONSerialization.data(withJSONObject: Self.invalid.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) })
        // Messages against the message definitions, commands against the command definitions,
        // the examples of docs/events.md against the whole schema; each invalid sample refused.
        let plan = JSONSchemaCheck.Plan(
            valid: [
                ("message", "message", try Self.encoded(Self.producedMessages)),
                ("command", "command", try Self.encoded(Self.commands)),
                (nil, "docs/events.md example", examples),
            ],
            invalid: invalid
        )
        let (status, output) = try JSONSchemaCheck.run(schema: schema, plan)
        #expect(status == 0, "schema validation failed (exit \(status)):\n\(output)")
        #expect(output.contains("validated"), "\(output)")
    }
}
