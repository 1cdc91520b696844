@testable import Display
import Foundation
import KioskTestKit
import ScanFlow
import Testing

/// The display server's own frames (station, commandRefused, startJourney) in the contract:
/// checked against docs/events.schema.json by python3 + jsonschema, and every example of
/// docs/events.md decodes as a frame or an input.
@Suite struct DisplayContractTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    static let frames: [DisplayFrame] = [
        .event(.station(.idle(startBy: [.card, .touch]))), .event(.station(.idle(startBy: []))),
        .event(.station(.outOfService(devices: [DeviceStatus(.camera, available: false, detail: "not found"), DeviceStatus(.reader, available: true)]))),
        .event(.station(.starting)),
        .event(.station(.documentLifted)), .event(.station(.documentReturned)),
        .event(.station(.decision(reference: "w-1", decision: "PASSED"))), .event(.station(.decision(reference: "w-2", decision: nil))),
        .event(.flow(.step(.scanView(.front, .docFinder)))),
    ] + InputRefusal.Reason.allCases.map { .refused(InputRefusal($0, "explained")) }

    static let inputs: [DisplayInput] = [
        .station(.startJourney()), .station(.startJourney(.enrollment("2f9c0d6e-enrolled"))), .flow(.confirm), .flow(.startScanPart(.face)),
        .station(.startJourney(nil, references: JourneyReferences(
            customerInternalReference: "booking-4711", userReference: "guest-42", callbackURL: "https://hooks.example.com/kiosk"))),
    ]

    static let invalid: [String] = [
        #"{"version": 3, "type": "station", "screen": {"name": "idle"}}"#,
        #"{"version": 3, "type": "station", "screen": {"name": "idle", "startBy": ["voice"]}}"#,
        #"{"version": 3, "type": "station", "screen": {"name": "outOfService", "devices": [{"device": "printer", "available": false}]}}"#,
        #"{"version": 2, "type": "station", "screen": {"name": "starting"}}"#,
        #"{"version": 3, "type": "commandRefused", "reason": "tooLate", "message": "x", "supportedVersion": 3}"#,
        #"{"version": 3, "type": "startJourney", "credential": "id-1"}"#,
        #"{"version": 3, "type": "startJourney", "enrollmentTransactionReference": "a", "authenticationTransactionReference": "b"}"#,
        #"{"version": 3, "type": "startJourney", "enrollmentTransactionReference": ""}"#,
        #"{"version": 3, "type": "startJourney", "callbackUrl": "ftp://hooks.example.com/kiosk"}"#,
        #"{"version": 3, "type": "startJourney", "userReference": ""}"#,
        #"{"version": 3, "type": "station", "screen": {"name": "decision", "decision": "PASSED"}}"#,
        #"{"version": 3, "type": "station", "screen": {"name": "decision", "reference": "w-1", "decision": "MAYBE"}}"#,
    ]

    static func encoded<T: Encodable>(_ values: [T]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(values)
    }

    @Test func framesAndInputsRoundTrip() throws {
        #expect(try JSONDecoder().decode([DisplayFrame].self, from: Self.encoded(Self.frames)) == Self.frames)
        #expect(try JSONDecoder().decode([DisplayInput].self, from: Self.encoded(Self.inputs)) == Self.inputs)
        let station = String(decoding: try Self.encoded([DisplayFrame.event(.station(.idle(startBy: [.touch])))]), as: UTF8.self)
        #expect(station == #"[{"screen":{"name":"idle","startBy":["touch"]},"type":"station","version":3}]"#)
    }

    /// The refusal tells an unknown type from a bad payload by ScanFlow's list of command types.
    @Test func theKnownCommandTypesAreScanFlowsCommands() throws {
        let commands: [DisplayCommand] = [
            .userConsented(itemID: "p", decision: true), .startCredential(id: "id-1"),
            .setConfiguration(country: "AUT", document: Document(.passport)), .setAcquireMode(.camera),
            .setDigitalConfiguration(country: "DNK", digitalDocument: DigitalDocument(id: "mitid", title: "MitID")),
            .startScanPart(.front), .takeImage, .lastPage, .confirm, .retake, .switchToFallback, .pauseScan, .retryScan,
            .handoffConfirmed, .finishScanPart, .finishCredential, .finish, .cancel, .retryAfterError, .userIsPresent,
            .enterChipKey(.can("123456")), .enterChipKey(.mrz(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415")),
        ]
        let objects = try #require(try JSONSerialization.jsonObject(with: Self.encoded(commands)) as? [[String: Any]])
        let types = Set(objects.compactMap { $0["type"] as? String })
        #expect(types == DisplayInput.flowCommandTypes)
        for command in commands {
            let json = try JSONEncoder().encode(command)
            #expect(try DisplayInput(json: json) == .flow(command))
        }
    }

    /// A typed key of the wrong form is refused before it reaches the journey; the refusal
    /// never echoes it.
    @Test func aTypedChipKeyOfTheWrongFormIsRefused() throws {
        for bad in [
            #"{"version": 3, "type": "enterChipKey", "can": "12345"}"#,
            #"{"version": 3, "type": "enterChipKey", "can": "12345a"}"#,
            #"{"version": 3, "type": "enterChipKey", "documentNumber": "L8989-02", "dateOfBirth": "740812", "dateOfExpiry": "120415"}"#,
            #"{"version": 3, "type": "enterChipKey", "documentNumber": "L898902C3", "dateOfBirth": "741312", "dateOfExpiry": "120415"}"#,
            #"{"version": 3, "type": "enterChipKey", "documentNumber": "L898902C3", "dateOfBirth": "740812"}"#,
            #"{"version": 3, "type": "enterChipKey"}"#,
        ] {
            #expect(throws: InputRefusal.self, "\(bad)") { try DisplayInput(json: Data(bad.utf8)) }
            do {
                _ = try DisplayInput(json: Data(bad.utf8))
            } catch {
                #expect(error.reason == .invalidPayload)
                #expect(!error.message.contains("L898902C3") && !error.message.contains("12345"))
            }
        }
        let lower = #"{"version": 3, "type": "enterChipKey", "documentNumber": "l898902c3", "dateOfBirth": "740812", "dateOfExpiry": "120415"}"#
        #expect(try DisplayInput(json: Data(lower.utf8)) == .flow(.enterChipKey(.mrz(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415"))))
    }

    /// `startJourney` names at most one reference, of 1 to 100 characters, and has no other keys.
    @Test func startJourneyTakesOneReference() throws {
        let enrollment = #"{"version": 3, "type": "startJourney", "enrollmentTransactionReference": "0c5e2f7a"}"#
        #expect(try DisplayInput(json: Data(enrollment.utf8)) == .station(.startJourney(.enrollment("0c5e2f7a"))))
        let taking = #"{"version": 3, "type": "startJourney", "authenticationTransactionReference": "7c1"}"#
        #expect(try DisplayInput(json: Data(taking.utf8)) == .station(.startJourney(.authenticationTransaction("7c1"))))
        let long = #"{"version": 3, "type": "startJourney", "enrollmentTransactionReference": "\#(String(repeating: "a", count: 101))"}"#
        for bad in Self.invalid.filter({ $0.contains("startJourney") }) + [long] {
            #expect(throws: InputRefusal(.invalidPayload, "the command's keys are missing or invalid (see docs/events.schema.json)"), "\(bad)") {
                try DisplayInput(json: Data(bad.utf8))
            }
        }
    }

    @Test func theDocumentedExamplesDecode() throws {
        let text = try String(contentsOf: Self.docs.appendingPathComponent("events.md"), encoding: .utf8)
        let examples = text.components(separatedBy: "```json\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(examples.count >= 25)
        var station = 0
        for example in examples {
            let data = Data(example.utf8)
            let frame = try? JSONDecoder().decode(DisplayFrame.self, from: data)
            let input = try? JSONDecoder().decode(DisplayInput.self, from: data)
            #expect(frame != nil || input != nil, "docs/events.md example does not decode: \(example)")
            if case .event(.station) = frame { station += 1 }
            if case .refused = frame { station += 1 }
            if case .station = input { station += 1 }
        }
        #expect(station == 9)
    }

    @Test func theSchemaValidatesTheServersFrames() throws {
        let invalid = try JSONSerialization.data(withJSONObject: Self.invalid.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) })
        let plan = JSONSchemaCheck.Plan(
            valid: [("message", "frame", try Self.encoded(Self.frames)), ("command", "input", try Self.encoded(Self.inputs))],
            invalid: invalid
        )
        let (status, output) = try JSONSchemaCheck.run(schema: Self.docs.appendingPathComponent("events.schema.json"), plan)
        #expect(status == 0, "schema validation failed (exit \(status)):\n\(output)")
        #expect(output.contains("validated"), "\(output)")
    }
}
