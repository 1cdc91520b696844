public import ScanFlow
public import Vision

/// What the station loop asks of the camera: run it for one part until cancelled.
///
/// The real one is ``CameraCapture`` (a V4L2 camera or a recording, with the document and
/// face captures); tests use fakes.
public protocol CaptureDevice: Sendable {
    /// Runs the camera in `request.mode` until the task is cancelled, reporting through
    /// `report`: `started` once frames flow, then updates, captured images and evidence. A
    /// camera that fails reports `lost` and returns.
    func capture(_ request: CaptureRequest, report: @escaping @Sendable (CaptureEvent) -> Void) async

    /// Whether the camera can be opened now (for the out-of-service screen and its recovery).
    func probe() async -> DeviceProbe

    /// Watches the empty station for `frames` frames between journeys, so the document finder
    /// knows its platen before the next person comes. Stops early when cancelled; a camera that
    /// cannot be opened is left to the probe.
    func watchPlaten(frames: Int) async
}

extension CaptureDevice {
    /// A device without a document finder has nothing to learn.
    public func watchPlaten(frames: Int) async {}
}

/// One part to capture.
public struct CaptureRequest: Sendable {
    public var mode: Scan.Mode
    public var part: Credential.Part
    /// Set by the loop when the person presses the shutter (manual modes).
    public var trigger: CaptureTrigger
    /// Whether the station should light the document for a flash/no-flash pair.
    public var useFlash: Bool
    /// Whether the camera's whole frame goes with each document image kept as a crop (the
    /// backend asked for it: `fullFrame` evidence).
    public var keepFullFrame: Bool
    /// The chip's portrait (DG2's image, JPEG or JPEG 2000) a face capture compares its best
    /// face image with; personal data, gone with the request.
    public var portrait: [UInt8]?
    /// The side to start at: 0 the front, 1 a card's back (the journey resumes there after Z).
    public var firstSide: Int

    public init(
        mode: Scan.Mode, part: Credential.Part, trigger: CaptureTrigger, useFlash: Bool, keepFullFrame: Bool = false, portrait: [UInt8]? = nil,
        firstSide: Int = 0
    ) {
        self.mode = mode
        self.part = part
        self.trigger = trigger
        self.useFlash = useFlash
        self.keepFullFrame = keepFullFrame
        self.portrait = portrait
        self.firstSide = firstSide
    }
}

/// What a running capture says.
public enum CaptureEvent: Sendable {
    case started
    case update(Scan.Update)
    case image(CapturedImage, isLastOfSide: Bool)
    /// Evidence beside the images of the part: uploaded, not shown.
    case evidence(CaptureEvidence)
    /// The camera stopped delivering or went away; `reason` is for a technician.
    case lost(reason: String)
    /// The analysis cannot keep up with the camera, or a card's barcode cannot be read:
    /// automatic capture is given up (the journey switches to its fallback mode).
    case lowPerformance
    /// What is shown cannot be taken and the person must act: the seeds' retryable hints
    /// Y (the barcode holds no address: scan the front) and Z (the front is shown where the
    /// back was asked for).
    case scanFailed(FlowError)
}

/// The symbology of a barcode read as evidence.
public enum BarcodeFormat: String, Hashable, Sendable, Codable {
    /// PDF417, as on the back of North American cards (an AAMVA record).
    case pdf417 = "PDF417"
}

/// Evidence a capture gathers beside the images; what the backend calls it is the station's business.
public enum CaptureEvidence: Hashable, Sendable {
    /// The lit half of a flash/no-flash pair of a document's front, as JPEG.
    case frontWithFlash(jpeg: [UInt8])
    /// The lines of the document's machine-readable zone, as read.
    case mrz(lines: [String])
    /// The bytes of the barcode on a card's back, as decoded (an AAMVA record: personal data).
    case barcode(BarcodeFormat, bytes: [UInt8])
    /// The camera's whole frame a document image of `side` was cropped from, as JPEG.
    case fullFrame(side: Credential.Part, jpeg: [UInt8])
    /// A frame of the liveness capture (`LIVENESS_<index>`), as JPEG.
    case livenessFrame(index: Int, jpeg: [UInt8])
    /// What the liveness capture did and found (`LIVENESS`): the challenge, the LED's state
    /// in each frame uploaded, the station's checks.
    case liveness(LivenessEvidence)
}

/// The record of a liveness capture that goes with its frames: enough for a backend to run
/// the same checks on the frames again (docs/backend-api.yaml, part `LIVENESS`).
public struct LivenessEvidence: Hashable, Sendable, Codable {
    /// The version of this liveness capture (the light challenge and head turn, and this
    /// record of them): the station's liveness provider version, which a workflow's must
    /// match (the seeds' `dependencyWrongVersion`). Change it with the record's meaning.
    public static let providerVersion = 1

    /// One uploaded frame: its `LIVENESS_<index>` part, the attempt it belongs to, the
    /// LED's state while it was exposed (nil: switching) and the phase it was taken in.
    public struct FrameInfo: Hashable, Sendable, Codable {
        public var index: Int
        public var attempt: Int
        public var lit: Bool?
        public var phase: String
    }

    /// The last attempt's light challenge.
    public var challenge: LightChallenge
    /// The side the person was asked to turn towards (their own left or right).
    public var turn: String
    public var attempts: Int
    public var frames: [FrameInfo]
    /// The station's own checks; the backend runs its own.
    public var result: LivenessResult
    /// The station's own comparison of the best face image with the chip's portrait; nil
    /// without a portrait (no chip read, or an Authentication).
    public var match: StationFaceMatch?
}

/// The station's comparison of the best face image with the chip's portrait: the journey's
/// result says it (``ScanFlow/JourneyResult/FaceCheck``); the backend compares again.
public struct StationFaceMatch: Hashable, Sendable, Codable {
    public enum Outcome: String, Hashable, Sendable, Codable {
        case match
        /// Within the review band around the threshold.
        case review
        case noMatch
        /// No face found in the portrait, or in the best image.
        case noFaceInPortrait
        case noFaceInImage
    }

    public var outcome: Outcome
    /// 1 identical, 0.5 at the threshold; nil when no comparison was made.
    public var similarity: Double?

    public init(outcome: Outcome, similarity: Double? = nil) {
        self.outcome = outcome
        self.similarity = similarity
    }
}

extension Scan.Mode {
    var isFace: Bool { self == .faceLiveness || self == .faceManual }
    var isAutomatic: Bool { self == .docFinder || self == .faceLiveness || self == .barcode }
}
