import ScanFlow

/// What decides, frame by frame, that an automatic capture may take its image: the quality
/// gate of a face, the document gate of a document.
protocol ShotGate {
    /// What the frame loop measures of a frame for this gate.
    associatedtype Measure
    mutating func judge(_ measure: Measure) -> ShotVerdict
    /// Starts again after an image: the next one needs its own good frames.
    mutating func reset()
}

enum ShotVerdict: Hashable, Sendable {
    /// Not yet; the guidance, when it changed.
    case wait(Scan.Update?)
    case take
    /// The side cannot be taken automatically.
    case giveUp(CaptureFailure)
}

/// Why an automatic capture gives up on a side.
enum CaptureFailure: Hashable, Sendable {
    /// The person must act: the seeds' retryable hints Y and Z.
    case hint(FlowError)
    /// The side cannot be captured automatically (a barcode that cannot be read): the part's fallback mode.
    case fallback
}
