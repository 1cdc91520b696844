import ScanFlow
import Vision

/// The per-frame decisions of a capture, as a value the frame loop of ``CameraCapture``
/// feeds and obeys: ``DocumentCapture`` and ``FaceCapture``.
protocol FrameDecisions {
    /// What the frame loop measures of a frame these decisions asked to measure.
    associatedtype Measure
    /// A frame arrived at `now` (the capture's clock, since it began).
    mutating func frame(at now: Duration, shutter: Bool, detectionPaused: Bool) -> FrameAction
    /// The measure of the frame the last action asked to measure.
    mutating func measured(_ measure: Measure) -> FrameAction
    /// The shot was taken and reported at `now`.
    mutating func taken(at now: Duration)
    /// The shot could not be taken.
    mutating func notTaken()
    /// Whether an image taken ends its side (`isLastOfSide`); a paper document's pages do not.
    var endsSide: Bool { get }
}

extension FrameDecisions {
    var endsSide: Bool { true }
}

/// What to do with a frame.
enum FrameAction: Hashable, Sendable {
    case ignore
    /// Measure the frame (its luma, or the document in it) and pass the measure to `measured(_:)`.
    case measure
    case report(Scan.Update)
    case take(Shot)
    /// Report the failure and take nothing more.
    case giveUp(CaptureFailure)
}

/// One image to take, and what goes with it.
struct Shot: Hashable, Sendable {
    var side: Credential.Part
    /// The keys to the chip, best first, for the image that carries them (a page with an MRZ).
    var chipAccessKeys: [ChipAccessKey] = []
    /// Whether to take the flash half of a flash/no-flash pair after this frame.
    var flashPair = false
    /// The MRZ lines to hand over as evidence with this image (the first front only).
    var mrz: [String]?
    /// Whether the person pressed the shutter for it (the loop takes the press).
    var byShutter = false
    /// The document's region in the frame: the image kept is its perspective-corrected crop.
    var region: DocumentRegion?
    /// The barcode read on this side (a card's back in `barcode` mode), handed over as evidence.
    var barcode: PDF417Symbol?
    /// For a document: what the frames before it said of its MRZ, for the station's Instant
    /// Feedback; nil for a face.
    var document: DocumentShot?
}

/// What a document capture knew of its MRZ when it took the image.
struct DocumentShot: Hashable, Sendable {
    /// Whether the side carries an MRZ that the reader could have read (an automatic shot);
    /// nil for a manual one, which reads no MRZ.
    var expectsMRZ: Bool?
    /// Whether an MRZ was seen in the frames before it.
    var mrzSeen = false
    /// The shapes that count as the document (pages of print for a paper document).
    var classes: Set<DocumentClass> = DocumentClass.identity
}
