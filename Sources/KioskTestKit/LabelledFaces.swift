public import Backend
public import Foundation
public import ReferenceBackend
import Synchronization

/// A face verifier for the API's logic: each image stands for the person the test says it
/// shows, and two images match when they show the same person. The real comparison with
/// dlib's models is FaceChecksTests'; here it is what the backend does with the answers.
public final class LabelledFaces: FaceVerifier {
    private let labels = Mutex<[Data: String]>([:])
    private let state = Mutex(Mode.matching)

    public enum Mode: Sendable {
        case matching
        /// Every similarity falls in the staff review band.
        case review
        /// A backend without the face models.
        case modelsMissing
    }

    /// How the verifier answers from now on.
    public var mode: Mode {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    public init() {}

    /// `image` shows `person`.
    public func label(_ image: Data, as person: String) { labels.withLock { $0[image] = person } }

    public func similarity(portrait: [UInt8], face: [UInt8]) -> (decision: Decision, reason: String?) {
        if mode == .modelsMissing { return (.NOT_EXECUTED, "NO_FACE_MODELS") }
        let (a, b) = labels.withLock { ($0[Data(portrait)], $0[Data(face)]) }
        guard let a else { return (.REJECTED, "NO_FACE_IN_PORTRAIT") }
        guard let b else { return (.REJECTED, "NO_FACE_IN_IMAGE") }
        if mode == .review { return (.WARNING, "REVIEW") }
        return a == b ? (.PASSED, nil) : (.REJECTED, "NO_MATCH")
    }

    public func liveness(frames: [Int: [UInt8]], record: Data) -> (decision: Decision, reason: String?) {
        mode == .modelsMissing ? (.NOT_EXECUTED, "NO_FACE_MODELS") : (.PASSED, nil)
    }
}
