import ScanFlow
import Vision

/// The per-frame decisions of a document capture: the document gate (or the shutter), one
/// image per side (front, then back for a two-sided part), and between the sides a pause
/// for the person to turn the card over, as a deadline on the capture's clock.
///
/// The front carries the chip key and, with the flash, asks for a flash/no-flash pair; the
/// first front hands over the MRZ lines read.
struct DocumentCapture: FrameDecisions {
    let part: Credential.Part
    let useFlash: Bool
    let chipAccessKey: ChipAccessKey?
    let mrz: [String]?
    private var cycle: ShotCycle<DocumentGate>
    private var imagesTaken = 0

    /// - Parameters:
    ///   - request: the mode and part; `useFlash` asks for a flash pair of the front.
    ///   - gate: the document gate's settings.
    ///   - sidePause: how long frames are ignored after an image.
    ///   - mrz: the MRZ lines read, if any; the chip key comes from them.
    init(request: CaptureRequest, gate: DocumentGate.Settings, sidePause: Duration, mrz: [String]?) {
        part = request.part
        useFlash = request.useFlash
        self.mrz = mrz
        chipAccessKey = MRZRecording.chipKey(mrz)
        cycle = ShotCycle(automatic: request.mode.isAutomatic, gate: DocumentGate(settings: gate), pause: sidePause)
    }

    /// The side the next image shows: front then back for a two-sided part.
    static func side(of part: Credential.Part, index: Int) -> Credential.Part {
        switch part {
        case .multipart: index == 0 ? .front : .back
        default: part
        }
    }

    // The cycle runs before `action` reads it (`action(cycle.measured(...))` would read the
    // self from before the call).
    mutating func frame(at now: Duration, shutter: Bool, detectionPaused: Bool) -> FrameAction {
        let next = cycle.frame(at: now, shutter: shutter, detectionPaused: detectionPaused)
        return action(next)
    }

    mutating func measured(_ observation: DocumentObservation) -> FrameAction {
        let next = cycle.measured(observation)
        return action(next)
    }

    mutating func taken(at now: Duration) {
        imagesTaken += 1
        cycle.taken(at: now)
    }

    mutating func notTaken() { cycle.notTaken() }

    private func action(_ action: ShotCycle<DocumentGate>.Action) -> FrameAction {
        switch action {
        case .ignore: return .ignore
        case .measure: return .measure
        case .report(let update): return .report(update)
        case .take(let byShutter):
            let side = Self.side(of: part, index: imagesTaken)
            let isFront = side == .front
            return .take(
                Shot(
                    side: side, chipAccessKey: isFront ? chipAccessKey : nil, flashPair: isFront && useFlash,
                    mrz: isFront && imagesTaken == 0 ? mrz : nil, byShutter: byShutter,
                    region: byShutter ? nil : cycle.gate.region))
        }
    }
}
