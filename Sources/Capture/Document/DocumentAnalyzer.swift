public import Imaging
public import Vision

/// The station's analysis of one frame for a document: the document's outline
/// (``DocumentFinder``), the MRZ of its perspective-corrected crop, and, where that gives no
/// MRZ whose check digits hold, the MRZ found first (``MRZLocator``) with the page it predicts.
///
/// One analysis for every user of it: the capture's frame loop, `idkiosk analyze document`
/// and the benchmarks measure the same code (docs/vision.md).
public struct DocumentAnalyzer: Sendable {
    public let finder: DocumentFinder
    public let reader: MRZReader?
    /// The MRZ found first, where the page's outline gives none (nil: not looked for).
    public let locator: MRZLocator?
    public let guidance: DocumentGuidance.Settings

    /// - Parameter findsMRZFirst: whether to look for the MRZ on its own (with a `reader`).
    public init(finder: DocumentFinder, reader: MRZReader?, guidance: DocumentGuidance.Settings, findsMRZFirst: Bool = true) {
        self.finder = finder
        self.reader = reader
        self.guidance = guidance
        locator = findsMRZFirst ? reader.map { MRZLocator(reader: $0) } : nil
    }

    /// The document in `luma`, its thumbnail, and (when `wantsMRZ` says so for its class and
    /// it lies whole and flat enough to read) the MRZ of its perspective-corrected crop; with
    /// a `barcodeReader`, the PDF417 of a card found (whole or not, at any tilt: the crop
    /// flattens it). A frame whose page gave no MRZ with every check digit holding is
    /// searched for one on its own: a zone read whole gives the MRZ, its class, and the page
    /// where the outline found none or another shape (an open booklet, whose two pages share
    /// an ID-3 page's aspect ratio).
    /// - Parameter learning: whether the frame may teach the finder the empty platen.
    /// - Parameter classes: the shapes that count as the document (ID documents, or pages).
    public func analyse(
        _ luma: LumaImage, learning: Bool = true, classes: Set<DocumentClass> = DocumentClass.identity,
        wantsMRZ: (DocumentClass) -> Bool = { $0.hasMRZ }
    ) throws -> DocumentFrame {
        try analyse(luma, learning: learning, classes: classes, wantsMRZ: wantsMRZ, barcodeReader: nil)
    }

    func analyse(
        _ luma: LumaImage, learning: Bool, classes: Set<DocumentClass>, wantsMRZ: (DocumentClass) -> Bool,
        barcodeReader: CardBarcodeReader?
    ) throws -> DocumentFrame {
        var measured = try outlined(luma, learning: learning, classes: classes, wantsMRZ: wantsMRZ, barcodeReader: barcodeReader)
        // Not where the outline found a whole document of a kind that carries no MRZ here (a
        // card's front): the search costs about as much as the rest of the frame's analysis.
        if let outlined = measured.observation.document, outlined.whole, !wantsMRZ(outlined.documentClass) { return measured }
        guard let locator, measured.mrz?.allCheckDigitsHold != true, wantsMRZ(.td3) || wantsMRZ(.td1),
              let found = try locator.locate(in: luma), found.reading.allCheckDigitsHold, wantsMRZ(found.documentClass)
        else { return measured }
        measured.mrzLookedFor = true
        measured.mrz = found.reading
        let observation = measured.observation
        // The page as its MRZ predicts it, each side brought to the page's own edge near it.
        let page = try finder.snapped(
            found.page, as: found.documentClass, in: luma, inward: Self.predictedPageReach, outward: Self.predictedPageReach)
        if let outlined = observation.document, outlined.quadrilateral.jaccardIndex(with: page) >= 0.75 {
            // The outline is the page: the class is the MRZ's (ID-2 and ID-3 look alike).
            measured.observation.document?.documentClass = found.documentClass
            return measured
        }
        guard var document = finder.document(at: page, as: found.documentClass, width: observation.width, height: observation.height)
        else { return measured }
        if document.whole {
            document.quality = try DocumentFinder.quality(of: luma, document.quadrilateral, document.documentClass)
            measured.thumbnail = try Self.thumbnail(luma, document)
        }
        measured.observation.document = document
        return measured
    }

    /// How far a side of the page predicted from its MRZ may move to the page's edge, either
    /// way (a part of its length): the prediction is within a few millimetres where the MRZ
    /// sits as ICAO puts it.
    static let predictedPageReach = 0.08

    /// What the document's outline gives: the document, its thumbnail and the MRZ of its crop.
    private func outlined(
        _ luma: LumaImage, learning: Bool, classes: Set<DocumentClass>, wantsMRZ: (DocumentClass) -> Bool,
        barcodeReader: CardBarcodeReader?
    ) throws -> DocumentFrame {
        let observation = try finder.observe(luma, learning: learning, measureQuality: true, classes: classes)
        var measured = DocumentFrame(observation: observation)
        // A card's barcode can be read before the card lies whole in the frame.
        if let barcodeReader, let document = observation.document, document.documentClass == .td1 {
            measured.barcodeLookedFor = true
            measured.barcode = try barcodeReader.read(luma, card: document.quadrilateral).map(BarcodeRead.init)
        }
        guard let document = observation.document, document.whole else { return measured }
        measured.thumbnail = try Self.thumbnail(luma, document)
        if let reader, wantsMRZ(document.documentClass), document.pose.tiltDegrees <= guidance.maximumTilt {
            let crop = try DocumentFinder.crop(luma, document.quadrilateral, as: document.documentClass)
            measured.mrzLookedFor = true
            measured.mrz = reader.read(crop)
            // The class from the content: a TD2 card is cropped as an ID-3 page (same shape).
            if let reading = measured.mrz, reading.allCheckDigitsHold, reading.format == .td2, document.documentClass == .td3 {
                measured.observation.document?.documentClass = .td2
            }
        }
        return measured
    }

    /// The document's luma at ``DocumentFrame/thumbnailSize``.
    private static func thumbnail(_ luma: LumaImage, _ document: DocumentObservation.Found) throws -> [UInt8] {
        let size = DocumentFrame.thumbnailSize
        return try DocumentFinder.crop(
            luma, document.quadrilateral, as: document.documentClass,
            pixelsPerMillimetre: Double(size.width) / document.documentClass.size.width
        ).pixels
    }
}
