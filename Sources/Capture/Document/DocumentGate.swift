import ScanFlow
import Vision

/// Where the document lies in the frame an image is taken from: its crop is the image kept.
struct DocumentRegion: Hashable, Sendable {
    var quadrilateral: Quadrilateral
    var documentClass: DocumentClass
}

/// The gate of an automatic document capture: the guidance of ``DocumentGuidance`` from
/// what `Vision` found in each frame, said when it changes, and the image taken when the
/// document has been ready for a number of frames in a row.
struct DocumentGate: ShotGate {
    struct Settings: Hashable, Sendable {
        var guidance = DocumentGuidance.Settings()
        /// Frames in a row the document must be ready for.
        var readyFrames = 3
    }

    let settings: Settings
    private var guidance: DocumentGuidance
    private var readyFrames = 0
    private var lastUpdate: Scan.Update?
    /// The region of the frame the gate said to take.
    private(set) var region: DocumentRegion?

    init(settings: Settings) {
        self.settings = settings
        guidance = DocumentGuidance(settings: settings.guidance)
    }

    mutating func judge(_ observation: DocumentObservation) -> ShotVerdict {
        let state = guidance.observe(observation)
        if state == .ready, let document = observation.document {
            readyFrames += 1
            if readyFrames >= settings.readyFrames {
                region = DocumentRegion(quadrilateral: document.quadrilateral, documentClass: document.documentClass)
                return .take
            }
        } else {
            readyFrames = 0
        }
        // While the ready frames are counted, the person keeps holding still.
        let update = Scan.Update.extractionState(Self.extractionState(state))
        defer { lastUpdate = update }
        return .wait(update == lastUpdate ? nil : update)
    }

    mutating func reset() {
        guidance.reset()
        readyFrames = 0
        lastUpdate = nil
        region = nil
    }

    /// The seeds' word for a guidance state.
    static func extractionState(_ state: DocumentGuidance.State) -> Scan.ExtractionState {
        switch state {
        case .centerId: .centerId
        case .tooClose: .tooClose
        case .moveCloser: .moveCloser
        case .tilt(let current, let target): .tilt(current: current, target: target)
        case .holdStraight: .holdStraight
        case .holdStill, .ready: .holdStill
        }
    }
}
