import Backend
@testable import Capture
import Foundation
import KioskTestKit
@testable import Station
import Testing
import Vision

/// The record of a liveness capture as the station uploads it (part LIVENESS) matches the
/// `LivenessRecord` schema of docs/backend-api.yaml, checked by the spec's own validator.
@Suite struct LivenessEvidenceTests {
    func validate(_ body: Data) throws -> (status: Int32, output: String) {
        let answers = FileManager.default.temporaryDirectory.appendingPathComponent("liveness-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: answers) }
        let object: [[String: Any]] = [["schema": "LivenessRecord", "body": try JSONSerialization.jsonObject(with: body)]]
        try JSONSerialization.data(withJSONObject: object).write(to: answers)
        return try APISpecValidator.run(answers: answers.path)
    }

    @Test("the LIVENESS part: its classifier, JSON that the schema accepts; a record without its challenge is refused")
    func recordMatchesTheSchema() throws {
        var generator = SystemRandomNumberGenerator()
        var result = LivenessResult()
        result.decision = .attack
        result.reasons = [.noLightResponse, .planarMotion]
        result.framesMeasured = 30
        result.response = 0.012
        result.parallax = 0.002
        let evidence = LivenessEvidence(
            challenge: .random(using: &generator), turn: "left", attempts: 1,
            frames: [.init(index: 0, attempt: 1, lit: false, phase: "light"), .init(index: 1, attempt: 1, lit: nil, phase: "light"),
                     .init(index: 2, attempt: 1, lit: false, phase: "turn")],
            result: result)
        let upload = try #require(CaptureEvidence.liveness(evidence).upload)
        #expect(upload.classifier == .livenessRecord)
        #expect(!upload.classifier.isImage)
        let check = try validate(upload.body)
        #expect(check.status == 0, "\(check.output)")
        var broken = try #require(try JSONSerialization.jsonObject(with: upload.body) as? [String: Any])
        broken["challenge"] = nil
        #expect(try validate(try JSONSerialization.data(withJSONObject: broken)).status == 1)
        let frame = try #require(CaptureEvidence.livenessFrame(index: 7, jpeg: [0xFF, 0xD8]).upload)
        #expect(frame.classifier.rawValue == "LIVENESS_7")
        #expect(CaptureEvidence.livenessFrame(index: 100, jpeg: [0xFF, 0xD8]).upload == nil)
    }
}
