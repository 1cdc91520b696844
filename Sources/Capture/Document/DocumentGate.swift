import ScanFlow
import Vision

/// Where the document lies in the frame an image is taken from: its crop is the image kept.
struct DocumentRegion: Hashable, Sendable {
    var quadrilateral: Quadrilateral
    var documentClass: DocumentClass
}

/// The gate of an automatic document capture: the guidance of ``DocumentGuidance`` from
/// what `Vision` found in each frame, said when it changes; the MRZ read across frames; and
/// the image taken when the document has been ready for a number of frames in a row and,
/// on the side with the MRZ, two frames agreed on it (or the wait for that is over).
///
/// The side with the MRZ is a passport's data page (TD2/TD3 shape) and a card's back. The
/// back is taken only once the card was really turned: an MRZ was seen on it, or its face
/// differs from the front's. A paper document's next page is taken only once the page
/// before was lifted (a frame without a page) or the page shown differs from it.
///
/// In `barcode` mode a card's back carries a PDF417 instead of an MRZ: it is taken only once
/// the barcode decoded to an AAMVA record with the document's fields (the record goes with
/// the image). A record without the address is the seeds' Y (scan the front); when nothing
/// decodes within the barcode timeout, the front still shown is Z (turn the card), anything
/// else gives up for the fallback (manual) mode.
struct DocumentGate: ShotGate {
    struct Settings: Hashable, Sendable {
        var guidance = DocumentGuidance.Settings()
        /// Frames in a row the document must be ready for.
        var readyFrames = 3
        /// How long, from the first ready frame, the side with the MRZ waits for two frames
        /// to agree on it before it is taken without a key.
        var mrzTimeout: Duration = .seconds(4)
        /// The least mean difference (luma levels) between a card's front and what is shown
        /// as its back, when no MRZ tells the back apart.
        var turnedDifference = 25.0
        /// Whether an MRZ reader is there to wait for (no model: nothing to wait for).
        var readsMRZ = true
        /// How long the back in `barcode` mode is looked at for its barcode, from its first frame.
        var barcodeTimeout: Duration = .seconds(10)
    }

    let settings: Settings
    /// Whether the back carries a barcode to read (`barcode` mode).
    let readsBarcode: Bool
    /// The side the next image shows.
    var side: Credential.Part = .front
    /// The thumbnail of the front taken, to see that the card was turned.
    var frontThumbnail: [UInt8]?
    /// The thumbnail of the paper document's page taken last, to see that the next is another.
    var previousPage: [UInt8]?
    /// Whether a frame showed no page since the last page was taken (it was lifted).
    private var pageLifted = false
    private var guidance: DocumentGuidance
    private var readyFrames = 0
    private var firstReady: Duration?
    private(set) var sawMRZ = false
    private var lastUpdate: Scan.Update?
    /// The region of the frame the gate said to take, and that frame's thumbnail.
    private(set) var region: DocumentRegion?
    private(set) var thumbnail: [UInt8]?
    /// The MRZ read across frames on this side.
    private(set) var consensus = MRZConsensus()
    /// The barcode decoded on this side, with its record (personal data).
    private(set) var barcode: PDF417Symbol?
    /// The first frame judged on this side, and whether the last whole card shown was still the front.
    private var sideStarted: Duration?
    private var lastShowedFront = false

    init(settings: Settings, readsBarcode: Bool = false) {
        self.settings = settings
        self.readsBarcode = readsBarcode
        guidance = DocumentGuidance(settings: settings.guidance)
    }

    /// Whether this side carries a barcode to read.
    var wantsBarcode: Bool { readsBarcode && side == .back }

    /// Whether this side is expected to carry the MRZ, for a document of `documentClass`.
    func expectsMRZ(_ documentClass: DocumentClass?) -> Bool {
        guard settings.readsMRZ, !wantsBarcode, side != .document else { return false }
        return side == .back || (documentClass.map { $0.hasMRZ && $0 != .td1 } ?? false)
    }

    mutating func judge(_ frame: DocumentFrame) -> ShotVerdict {
        if frame.mrzLookedFor, let reading = frame.mrz {
            sawMRZ = true
            consensus.add(reading)
        }
        if wantsBarcode {
            if sideStarted == nil { sideStarted = frame.at }
            if case .record(let symbol, let record)? = frame.barcode {
                guard record.hasAddress else { return .giveUp(.hint(FlowError(.Y))) }
                barcode = symbol
            }
            if let front = frontThumbnail, let thumbnail = frame.thumbnail {
                lastShowedFront = DocumentFrame.difference(front, thumbnail) < settings.turnedDifference
            }
            if barcode == nil, let started = sideStarted, frame.at - started >= settings.barcodeTimeout {
                return .giveUp(lastShowedFront ? .hint(FlowError(.Z)) : .fallback)
            }
        }
        let observation = frame.observation
        if observation.document == nil { pageLifted = true }
        let state = guidance.observe(observation)
        if state == .ready, let document = observation.document, turned(frame) {
            readyFrames += 1
            if firstReady == nil { firstReady = frame.at }
            let waitedEnough = frame.at - (firstReady ?? frame.at) >= settings.mrzTimeout
            let mrzDone = !expectsMRZ(document.documentClass) || consensus.nextKey != nil || waitedEnough
            if readyFrames >= settings.readyFrames && mrzDone && (!wantsBarcode || barcode != nil) {
                region = DocumentRegion(quadrilateral: document.quadrilateral, documentClass: document.documentClass)
                thumbnail = frame.thumbnail
                return .take
            }
        } else {
            readyFrames = 0
        }
        // While the ready frames are counted (and the MRZ read), the person keeps holding still.
        let update = Scan.Update.extractionState(Self.extractionState(state))
        defer { lastUpdate = update }
        return .wait(update == lastUpdate ? nil : update)
    }

    /// Whether the face shown is the side wanted: anything for the front; for the back, an
    /// MRZ seen on it or a face other than the front's.
    private func turned(_ frame: DocumentFrame) -> Bool {
        if side == .document {
            guard let previousPage, !pageLifted else { return true }
            guard let thumbnail = frame.thumbnail else { return false }
            return DocumentFrame.difference(previousPage, thumbnail) >= settings.turnedDifference
        }
        guard side == .back, let front = frontThumbnail else { return true }
        if sawMRZ || barcode != nil { return true }
        guard let thumbnail = frame.thumbnail else { return false }
        return DocumentFrame.difference(front, thumbnail) >= settings.turnedDifference
    }

    mutating func reset() {
        guidance.reset()
        readyFrames = 0
        firstReady = nil
        sawMRZ = false
        pageLifted = false
        lastUpdate = nil
        region = nil
        thumbnail = nil
        consensus.reset()
        barcode = nil
        sideStarted = nil
        lastShowedFront = false
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
