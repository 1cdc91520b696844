import ScanFlow
import Vision

/// The per-frame decisions of a document capture: the document gate (or the shutter), one
/// image per side (front, then back for a two-sided part), and between the sides a pause
/// for the person to turn the card over, as a deadline on the capture's clock.
///
/// The side with the MRZ (a passport's data page, a card's back) carries the chip key the
/// frames agreed on and the MRZ lines read; the front, with the flash, asks for a
/// flash/no-flash pair.
struct DocumentCapture: FrameDecisions {
    let part: Credential.Part
    let useFlash: Bool
    private var cycle: ShotCycle<DocumentGate>
    private var imagesTaken = 0
    private var now: Duration = .zero

    /// - Parameters:
    ///   - request: the mode and part; `useFlash` asks for a flash pair of the front.
    ///   - gate: the document gate's settings.
    ///   - sidePause: how long frames are ignored after an image.
    init(request: CaptureRequest, gate: DocumentGate.Settings, sidePause: Duration) {
        part = request.part
        useFlash = request.useFlash
        cycle = ShotCycle(
            automatic: request.mode.isAutomatic, gate: DocumentGate(settings: gate, readsBarcode: request.mode == .barcode), pause: sidePause)
        // Resuming at a card's back (after Z): the front is already taken.
        imagesTaken = request.part == .multipart ? min(max(request.firstSide, 0), 1) : 0
        cycle.gate.side = Self.side(of: part, index: imagesTaken)
        // A paper document's pages carry no MRZ and are told apart from each other.
        if part == .document { cycle.gate.side = .document }
    }

    /// The side the next image shows: front then back for a two-sided part.
    static func side(of part: Credential.Part, index: Int) -> Credential.Part {
        switch part {
        case .multipart: index == 0 ? .front : .back
        default: part
        }
    }

    /// Whether to look for the MRZ in a frame showing a document of `documentClass`.
    func wantsMRZ(_ documentClass: DocumentClass) -> Bool {
        cycle.gate.expectsMRZ(documentClass)
    }

    /// Whether to look for a card's barcode (the back in `barcode` mode).
    var wantsBarcode: Bool { cycle.gate.wantsBarcode }

    // The cycle runs before `action` reads it (`action(cycle.measured(...))` would read the
    // self from before the call).
    mutating func frame(at now: Duration, shutter: Bool, detectionPaused: Bool) -> FrameAction {
        self.now = now
        let next = cycle.frame(at: now, shutter: shutter, detectionPaused: detectionPaused)
        return action(next)
    }

    mutating func measured(_ frame: DocumentFrame) -> FrameAction {
        var frame = frame
        frame.at = now
        let next = cycle.measured(frame)
        return action(next)
    }

    mutating func taken(at now: Duration) {
        let thumbnail = cycle.gate.thumbnail
        imagesTaken += 1
        cycle.taken(at: now)
        cycle.gate.side = Self.side(of: part, index: imagesTaken)
        if imagesTaken == 1 { cycle.gate.frontThumbnail = thumbnail }
        if part == .document { cycle.gate.previousPage = thumbnail }
    }

    /// The shapes that count as the document: pages of print for a paper document's part.
    var classes: Set<DocumentClass> { part == .document ? DocumentClass.pages : DocumentClass.identity }

    /// Whether an image taken ends its side: a paper document takes pages until the person
    /// says the last was taken (ScanFlow counts them), every other side one image.
    var endsSide: Bool { part != .document }

    mutating func notTaken() { cycle.notTaken() }

    private func action(_ action: ShotCycle<DocumentGate>.Action) -> FrameAction {
        switch action {
        case .ignore: return .ignore
        case .measure: return .measure
        case .report(let update): return .report(update)
        case .giveUp(let failure): return .giveUp(failure)
        case .take(let byShutter):
            let side = Self.side(of: part, index: imagesTaken)
            let gate = cycle.gate
            let consensus = gate.consensus
            let region = byShutter ? nil : gate.region
            return .take(
                Shot(
                    side: side, chipAccessKeys: consensus.keys, flashPair: side == .front && useFlash,
                    mrz: consensus.accepted.first?.lines, byShutter: byShutter, region: region, barcode: byShutter ? nil : gate.barcode,
                    document: DocumentShot(
                        expectsMRZ: byShutter ? nil : gate.expectsMRZ(region?.documentClass), mrzSeen: gate.sawMRZ, classes: classes)))
        }
    }
}
