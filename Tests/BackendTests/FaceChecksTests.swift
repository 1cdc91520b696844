import Backend
import Camera
import Foundation
import Imaging
import KioskTestKit
import MRTD
@testable import ReferenceBackend
import Testing
import VirtualPassport
import Vision

/// The reference backend's own face checks (VisionFaceVerifier) on generated journeys: the
/// chip's portrait against the face image, and the liveness checks run again on the
/// uploaded frames with the LED's states of the station's record.
@Suite(.enabled(if: FaceData() != nil && FacePhotos.models != nil, "needs \(FaceData.missing) and \(FacePhotos.modelsMissing)"))
struct FaceChecksTests {
    struct Truth: Decodable {
        var identity: String
        var led: [Int]
    }

    /// The face parts of a journey made from a generated held-out sequence: its frames as
    /// LIVENESS_n, the LIVENESS record with the LED's states, its first frame as FACE; and
    /// an NFC part whose DG2 holds `portrait`'s chip portrait.
    func parts(kind: String, portrait: String? = nil) throws -> (parts: [StoredPart], identity: String) {
        let data = try #require(FaceData())
        let sequence = try #require(data.livenessSequences("heldout").first { $0.truth.contains("/\(kind)/") })
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: sequence.truth)))
        let frames = MJPEG.split([UInt8](try Data(contentsOf: URL(fileURLWithPath: sequence.recording))))
        var parts: [StoredPart] = []
        var record: [[String: Any]] = []
        for (index, jpeg) in frames.enumerated() where index < truth.led.count {
            parts.append(StoredPart(credentialId: "face", category: .FACEMAP, classifier: try #require(.liveness(index)), body: Data(jpeg)))
            record.append(["index": index, "attempt": 1, "lit": truth.led[index] == 1, "phase": "light"])
        }
        let json: [String: Any] = ["challenge": ["slots": [false, true], "framesPerSlot": 3], "turn": "left", "attempts": 1, "frames": record,
                                   "result": ["decision": "live", "score": 1, "reasons": [], "framesMeasured": frames.count]]
        parts.append(StoredPart(credentialId: "face", category: .FACEMAP, classifier: .livenessRecord, body: try JSONSerialization.data(withJSONObject: json)))
        parts.append(StoredPart(credentialId: "face", category: .FACEMAP, classifier: .face, body: Data(frames[0])))
        // The portrait: the person's source photograph (docs/face-data.md).
        let who = portrait ?? truth.identity
        let sources = data.root + "/sources"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: sources).sorted().first { $0.hasPrefix(who + ".") })
        let image = try ImageFile.decodeRGB([UInt8](try Data(contentsOf: URL(fileURLWithPath: sources + "/" + name))))
        let set = try PassportDataSet.make(portrait: image) { $0 }
        let chip = ChipData(
            dataGroups: ["DG1": Data(set.files[.dg1]!), "DG2": Data(set.files[.dg2]!)],
            stationVerification: .init(passiveAuthentication: .PASSED, accessControl: "PACE"))
        parts.append(StoredPart(credentialId: "id", category: .ID, classifier: .nfc, body: try JSONEncoder().encode(chip)))
        return (parts, truth.identity)
    }

    func evaluate(_ parts: [StoredPart]) throws -> ReferenceChecks.Outcome {
        let verifier = VisionFaceVerifier(models: try #require(FacePhotos.models))
        return ReferenceChecks.evaluate(
            parts: parts, definitionKey: 10015, today: Date(), verifier: NoTrustStore(), imageQuality: ImageQualityThresholds(), faces: verifier)
    }

    @Test("a live person whose chip holds their portrait: similarity and liveness PASSED, the face result passed")
    func livePersonPasses() throws {
        let outcome = try evaluate(try parts(kind: "genuine").parts)
        #expect(outcome.capabilities.similarity.map(\.decision) == [.PASSED], "\(outcome.capabilities.similarity)")
        #expect(outcome.capabilities.liveness.map(\.decision) == [.PASSED], "\(outcome.capabilities.liveness)")
        #expect(outcome.faceResult?.passed == true)
        #expect(outcome.faceResult?.extractionMethod == "faceLiveness")
    }

    /// Liveness frames without the record are a liveness capture that did not finish: the
    /// face image came from the fallback, so the method is faceManual (not faceLiveness).
    @Test func anUnfinishedLivenessCaptureIsNoLivenessExtraction() {
        let face = StoredPart(credentialId: "face", category: .FACEMAP, classifier: .face, body: Data([0xFF, 0xD8, 0xFF, 0xD9]))
        let frame = StoredPart(credentialId: "face", category: .FACEMAP, classifier: .liveness(0)!, body: Data([0xFF, 0xD8, 0xFF, 0xD9]))
        let record = StoredPart(credentialId: "face", category: .FACEMAP, classifier: .livenessRecord, body: Data("{}".utf8))
        #expect(ReferenceChecks.faceExtractionMethod([face, frame]) == "faceManual")
        #expect(ReferenceChecks.faceExtractionMethod([face]) == "faceManual")
        #expect(ReferenceChecks.faceExtractionMethod([face, frame, record]) == "faceLiveness")
    }

    @Test("another person's chip: similarity REJECTED with NO_MATCH, and the journey REJECTED")
    func anotherPersonIsRejected() throws {
        let (parts, identity) = try parts(kind: "genuine")
        let other = identity == "collins" ? "hopper" : "collins"
        let outcome = try evaluate(try self.parts(kind: "genuine", portrait: other).parts)
        #expect(parts.count > 0)
        #expect(outcome.capabilities.similarity.first?.decision == .REJECTED)
        #expect(outcome.capabilities.similarity.first?.reason == "NO_MATCH")
        #expect(outcome.decision == .REJECTED)
        #expect(outcome.faceResult?.passed == false)
    }

    /// The enrollment's face: the person's source photograph, as the enrollment's FACE part.
    func enrollmentFace(of identity: String) throws -> [UInt8] {
        let data = try #require(FaceData())
        let sources = data.root + "/sources"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: sources).sorted().first { $0.hasPrefix(identity + ".") })
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: sources + "/" + name)))
    }

    @Test("Authentication: the enrolled person in front of the camera PASSED, another person REJECTED on similarity")
    func authenticationComparesWithTheEnrollment() throws {
        let (all, identity) = try parts(kind: "genuine")
        let face = all.filter { $0.category == .FACEMAP }
        let verifier = VisionFaceVerifier(models: try #require(FacePhotos.models))
        func authenticate(against person: String) throws -> ReferenceChecks.Outcome {
            ReferenceChecks.evaluate(
                parts: face, definitionKey: WorkflowDefinition.authenticationKey, today: Date(), verifier: NoTrustStore(),
                imageQuality: ImageQualityThresholds(), faces: verifier, enrollmentFace: try enrollmentFace(of: person))
        }
        let same = try authenticate(against: identity)
        #expect(same.capabilities.similarity.map(\.decision) == [.PASSED], "\(same.capabilities.similarity)")
        #expect(same.capabilities.liveness.map(\.decision) == [.PASSED], "\(same.capabilities.liveness)")
        #expect(same.decision == .PASSED)
        #expect(same.idResult == nil)
        let other = try authenticate(against: identity == "collins" ? "hopper" : "collins")
        #expect(other.capabilities.similarity.map(\.reason) == ["NO_MATCH"])
        #expect(other.decision == .REJECTED)
        #expect(other.faceResult?.passed == false)
    }

    @Test("a screen and a replayed video: liveness REJECTED with the reason, whatever the station's record said", arguments: ["screen", "replay"])
    func attacksAreRejected(kind: String) throws {
        let outcome = try evaluate(try parts(kind: kind).parts)
        let liveness = try #require(outcome.capabilities.liveness.first)
        #expect(liveness.decision == .REJECTED, "\(liveness)")
        #expect(liveness.reason?.hasPrefix("LIVENESS_") == true)
        #expect(outcome.decision == .REJECTED)
    }

    @Test("without the face models, or without frames: NOT_EXECUTED with the reason")
    func notExecuted() throws {
        let (parts, _) = try parts(kind: "genuine")
        let without = ReferenceChecks.evaluate(parts: parts, definitionKey: 10015, today: Date(), verifier: NoTrustStore(), imageQuality: ImageQualityThresholds())
        #expect(without.capabilities.liveness.first?.reason == "NO_FACE_MODELS")
        #expect(without.faceResult?.passed == nil)
        let onlyFace = parts.filter { $0.classifier == .face || $0.category == .ID }
        let noFrames = try evaluate(onlyFace)
        #expect(noFrames.capabilities.liveness.first?.reason == "NO_LIVENESS_FRAMES")
        #expect(noFrames.capabilities.similarity.first?.decision == .PASSED)
    }
}
