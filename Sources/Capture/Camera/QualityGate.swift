import ScanFlow

/// What the quality gate measures of a frame (its luma).
struct FrameMeasure: Hashable, Sendable {
    var meanLuma: Double
    /// The variance of the Laplacian of the luma.
    var sharpness: Double
}

/// The gate of an automatic face capture: brightness and sharpness only, a few good frames
/// in a row, guidance when it changes.
///
/// It does not find a face yet (issue #12 brings face detection to `Vision`), so it says
/// `centerFace` for a frame too dark or too bright and `holdStill` otherwise. Documents
/// have their own gate, ``DocumentGate``.
struct QualityGate: ShotGate {
    struct Settings: Hashable, Sendable {
        /// Mean luma an automatic capture accepts.
        var brightness: ClosedRange<Double>
        /// The least sharpness an automatic capture accepts.
        var minimumSharpness: Double
        /// Frames in a row that must pass before an automatic capture.
        var stableFrames: Int
    }

    let settings: Settings
    /// What to say of a frame out of the brightness range.
    let outOfRange: Scan.Update
    private var goodFrames = 0
    private var lastUpdate: Scan.Update?

    init(settings: Settings, outOfRange: Scan.Update) {
        self.settings = settings
        self.outOfRange = outOfRange
    }

    mutating func judge(_ measure: FrameMeasure) -> ShotVerdict {
        let update: Scan.Update
        if !settings.brightness.contains(measure.meanLuma) {
            update = outOfRange
            goodFrames = 0
        } else if measure.sharpness < settings.minimumSharpness {
            update = .extractionState(.holdStill)
            goodFrames = 0
        } else {
            goodFrames += 1
            update = .extractionState(.holdStill)
            if goodFrames >= settings.stableFrames { return .take }
        }
        defer { lastUpdate = update }
        return .wait(update == lastUpdate ? nil : update)
    }

    mutating func reset() {
        goodFrames = 0
        lastUpdate = nil
    }
}
