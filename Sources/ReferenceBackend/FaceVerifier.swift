public import Backend
public import Foundation
import Imaging
import MRTD
public import Vision

/// The backend's own face checks on the uploaded parts: the chip's portrait against the face
/// image (similarity), and the liveness checks run again on the liveness frames with the
/// LED's states the station recorded (docs/faces.md). The open backend re-verifies what it
/// can; it does not take the station's word.
public protocol FaceVerifier: Sendable {
    /// The chip's portrait (DG2's image, JPEG or JPEG 2000) against the face image (JPEG).
    func similarity(portrait: [UInt8], face: [UInt8]) -> (decision: Decision, reason: String?)
    /// The liveness checks on `frames` (`LIVENESS_<n>` by n) with the station's record.
    func liveness(frames: [Int: [UInt8]], record: Data) -> (decision: Decision, reason: String?)
    /// The version of the liveness capture whose frames and record these checks verify (the
    /// workflow's liveness provider version); nil when they verify none.
    var livenessProviderVersion: Int? { get }
}

extension FaceVerifier {
    public var livenessProviderVersion: Int? { nil }
}

/// A backend without the face models: both checks are NOT_EXECUTED, and say why.
public struct NoFaceModels: FaceVerifier {
    public init() {}
    public func similarity(portrait: [UInt8], face: [UInt8]) -> (decision: Decision, reason: String?) { (.NOT_EXECUTED, "NO_FACE_MODELS") }
    public func liveness(frames: [Int: [UInt8]], record: Data) -> (decision: Decision, reason: String?) { (.NOT_EXECUTED, "NO_FACE_MODELS") }
}

/// The face checks with Vision: dlib's embeddings and the station's liveness analyzer.
///
/// Similarity: `match` PASSED, `review` WARNING (`REVIEW`), `noMatch` REJECTED (`NO_MATCH`);
/// a portrait or face in which no face is found is REJECTED (`NO_FACE_IN_PORTRAIT`,
/// `NO_FACE_IN_IMAGE`). Liveness: `live` PASSED; `attack` REJECTED with the first reason
/// (`LIVENESS_NO_LIGHT_RESPONSE`, `LIVENESS_OUT_OF_STEP_WITH_LIGHT`, `LIVENESS_PLANAR_MOTION`);
/// `notPossible` REJECTED too (`LIVENESS_NOT_POSSIBLE`: liveness that could not be
/// established is not taken for it; a print turned when a head turn was asked shows no
/// turn); a record that cannot be read REJECTED.
public struct VisionFaceVerifier: FaceVerifier {
    let models: FaceModels
    let matcher: FaceMatcher
    let liveness: LivenessAnalyzer.Settings

    public init(models: FaceModels, match: FaceMatcher.Settings = .init(), liveness: LivenessAnalyzer.Settings = .init()) {
        self.models = models
        matcher = FaceMatcher(settings: match)
        self.liveness = liveness
    }

    public func similarity(portrait: [UInt8], face: [UInt8]) -> (decision: Decision, reason: String?) {
        guard let a = embedding(portrait) else { return (.REJECTED, "NO_FACE_IN_PORTRAIT") }
        guard let b = embedding(face) else { return (.REJECTED, "NO_FACE_IN_IMAGE") }
        switch matcher.compare(a, b).decision {
        case .match: return (.PASSED, nil)
        case .review: return (.WARNING, "REVIEW")
        case .noMatch: return (.REJECTED, "NO_MATCH")
        }
    }

    /// The liveness capture these checks verify: the light challenge and head turn whose
    /// record (`LIVENESS`) gives each frame's attempt and LED state. A station whose
    /// capture records otherwise is another version.
    public static let livenessProviderVersion = 1

    public var livenessProviderVersion: Int? { Self.livenessProviderVersion }

    private struct Record: Decodable {
        struct Frame: Decodable {
            var index: Int
            var attempt: Int
            var lit: Bool?
        }
        var attempts: Int
        var frames: [Frame]
    }

    public func liveness(frames: [Int: [UInt8]], record: Data) -> (decision: Decision, reason: String?) {
        guard let record = try? JSONDecoder().decode(Record.self, from: record) else { return (.REJECTED, "LIVENESS_RECORD_INVALID") }
        guard let detector = try? FaceDetector(models: models) else { return (.NOT_EXECUTED, "FACE_ANALYSIS_FAILED") }
        var analyzer = LivenessAnalyzer(settings: liveness)
        defer { analyzer.wipe() }
        let codec = JPEGCodec(fastDecode: false)
        var luma = LumaImage()
        // The last attempt's frames, in order: the one the station decided on.
        for frame in record.frames.filter({ $0.attempt == record.attempts }).sorted(by: { $0.index < $1.index }) {
            guard let jpeg = frames[frame.index], (try? codec.decodeLuma(jpeg, into: &luma)) != nil,
                let face = try? detector.observe(luma).face
            else { continue }
            analyzer.add(luma, face: face, lit: frame.lit)
        }
        luma.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        let result = analyzer.result()
        switch result.decision {
        case .live: return (.PASSED, nil)
        case .notPossible: return (.REJECTED, "LIVENESS_NOT_POSSIBLE")
        case .attack:
            let reason = result.reasons.first { $0.isEvidenceOfAttack }
            return (.REJECTED, "LIVENESS_" + (reason.map(Self.code) ?? "ATTACK"))
        }
    }

    static func code(_ reason: LivenessResult.Reason) -> String {
        switch reason {
        case .tooFewFrames: "TOO_FEW_FRAMES"
        case .noLightResponse: "NO_LIGHT_RESPONSE"
        case .outOfStepWithLight: "OUT_OF_STEP_WITH_LIGHT"
        case .noTurnSeen: "NO_TURN_SEEN"
        case .planarMotion: "PLANAR_MOTION"
        }
    }

    /// The embedding of the surest face in a JPEG, PNG or JPEG 2000 image.
    private func embedding(_ bytes: [UInt8]) -> FaceEmbedding? {
        guard var image = try? ImageFile.decodeRGB(bytes) else { return nil }
        defer { image.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        guard let detector = try? FaceDetector(models: models) else { return nil }
        return (try? models.embedding(ofSurestFaceIn: image, detector: detector)) ?? nil
    }
}
