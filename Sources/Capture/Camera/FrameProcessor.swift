import Imaging
import Vision

/// The pixel work of a capture, with buffers kept between frames: the quality gate's
/// measure, the document in a frame, the JPEG of a shot (a document's perspective-corrected
/// crop), the preview.
///
/// Every use of the frame types and codecs of the capture is here, so the captures' logic
/// sees only measures and bytes.
struct FrameProcessor {
    let jpegQuality: Int
    let previewWidth: Int
    private var luma = LumaImage()
    private var rgb = RGBImage()
    private var small = RGBImage()
    private let codec = JPEGCodec()
    /// The outline of the document last found, for the preview.
    private(set) var overlay: PreviewOverlay?

    init(jpegQuality: Int, previewWidth: Int) {
        self.jpegQuality = jpegQuality
        self.previewWidth = previewWidth
    }

    /// Brightness and sharpness of the frame's luma.
    mutating func measure(_ frame: Frame) throws(ImagingError) -> FrameMeasure {
        try PixelConversion.luma(of: frame, into: &luma, codec: codec)
        let statistics = LumaStatistics(luma)
        return FrameMeasure(meanLuma: statistics.meanLuma, sharpness: statistics.laplacianVariance)
    }

    /// What the frame shows of a document.
    /// - Parameter learning: whether the frame may teach the finder the empty platen.
    /// - Parameter classes: the shapes that count as the document (ID documents, or pages).
    mutating func observeDocument(
        _ frame: Frame, finder: DocumentFinder, learning: Bool = true, classes: Set<DocumentClass> = DocumentClass.identity
    ) throws -> DocumentObservation {
        try PixelConversion.luma(of: frame, into: &luma, codec: codec)
        return try finder.observe(luma, learning: learning, measureQuality: learning, classes: classes)
    }

    /// The document in the frame, its thumbnail, and (when `wantsMRZ` says so for its
    /// class and it lies whole and flat enough to read) the MRZ of its perspective-corrected crop;
    /// with a `barcodeReader`, the PDF417 of a card found (whole or not, at any tilt: the crop flattens it).
    /// With a `locator`, a frame whose page gave no MRZ with every check digit holding is
    /// searched for one on its own (the MRZ found first): a zone read whole gives the MRZ, its
    /// class, and the page where the outline found none or another shape (an open booklet,
    /// whose two pages share an ID-3 page's aspect ratio).
    mutating func measureDocument(
        _ frame: Frame, finder: DocumentFinder, reader: MRZReader?, guidance: DocumentGuidance.Settings,
        classes: Set<DocumentClass> = DocumentClass.identity, wantsMRZ: (DocumentClass) -> Bool, barcodeReader: CardBarcodeReader? = nil,
        locator: MRZLocator? = nil
    ) throws -> DocumentFrame {
        var measured = try measureOutlined(
            frame, finder: finder, reader: reader, guidance: guidance, classes: classes, wantsMRZ: wantsMRZ, barcodeReader: barcodeReader)
        // Not where the outline found a whole document of a kind that carries no MRZ here (a
        // card's front): the search costs about as much as the rest of the frame's analysis.
        if let outlined = measured.observation.document, outlined.whole, !wantsMRZ(outlined.documentClass) { return measured }
        guard let locator, measured.mrz?.allCheckDigitsHold != true, wantsMRZ(.td3) || wantsMRZ(.td1),
              let found = try locator.locate(in: luma), found.reading.allCheckDigitsHold, wantsMRZ(found.documentClass)
        else { return measured }
        measured.mrzLookedFor = true
        measured.mrz = found.reading
        let observation = measured.observation
        if let outlined = observation.document, outlined.quadrilateral.jaccardIndex(with: found.page) >= 0.75 {
            // The outline is the page: the class is the MRZ's (ID-2 and ID-3 look alike).
            measured.observation.document?.documentClass = found.documentClass
            return measured
        }
        guard var document = finder.document(at: found.page, as: found.documentClass, width: observation.width, height: observation.height)
        else { return measured }
        if document.whole {
            document.quality = try DocumentFinder.quality(of: luma, document.quadrilateral, document.documentClass)
            let size = DocumentFrame.thumbnailSize
            measured.thumbnail = try DocumentFinder.crop(
                luma, document.quadrilateral, as: document.documentClass,
                pixelsPerMillimetre: Double(size.width) / document.documentClass.size.width
            ).pixels
        }
        measured.observation.document = document
        overlay = PreviewOverlay(
            quadrilateral: document.quadrilateral, frameWidth: observation.width, frameHeight: observation.height,
            placed: DocumentGuidance.isPlaced(document, settings: guidance))
        return measured
    }

    /// What the document's outline gives: the document, its thumbnail and the MRZ of its crop.
    private mutating func measureOutlined(
        _ frame: Frame, finder: DocumentFinder, reader: MRZReader?, guidance: DocumentGuidance.Settings,
        classes: Set<DocumentClass>, wantsMRZ: (DocumentClass) -> Bool, barcodeReader: CardBarcodeReader?
    ) throws -> DocumentFrame {
        let observation = try observeDocument(frame, finder: finder, classes: classes)
        var measured = DocumentFrame(observation: observation)
        overlay = observation.document.map { document in
            PreviewOverlay(
                quadrilateral: document.quadrilateral, frameWidth: observation.width, frameHeight: observation.height,
                placed: DocumentGuidance.isPlaced(document, settings: guidance))
        }
        // A card's barcode can be read before the card lies whole in the frame.
        if let barcodeReader, let document = observation.document, document.documentClass == .td1 {
            measured.barcodeLookedFor = true
            measured.barcode = try barcodeReader.read(luma, card: document.quadrilateral).map(BarcodeRead.init)
        }
        guard let document = observation.document, document.whole else { return measured }
        let size = DocumentFrame.thumbnailSize
        measured.thumbnail = try DocumentFinder.crop(
            luma, document.quadrilateral, as: document.documentClass,
            pixelsPerMillimetre: Double(size.width) / document.documentClass.size.width
        ).pixels
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

    /// Sharpness and glare of the document's region in the frame.
    mutating func quality(_ frame: Frame, region: DocumentRegion) throws -> DocumentQuality {
        try PixelConversion.luma(of: frame, into: &luma, codec: codec)
        return try DocumentFinder.quality(of: luma, region.quadrilateral, region.documentClass)
    }

    /// The faces in the frame, and its luma (for the liveness checks).
    mutating func observeFaces(_ frame: Frame, detector: FaceDetector) throws -> (FaceObservation, LumaImage) {
        try PixelConversion.luma(of: frame, into: &luma, codec: codec)
        return (try detector.observe(luma), luma)
    }

    /// Zeroes the buffers (they held a face).
    mutating func wipe() {
        luma.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        rgb.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        small.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// The frame as JPEG: a camera's own JPEG as it is, anything else encoded; with a
    /// `region`, the perspective-corrected crop of the document there.
    mutating func encode(_ frame: Frame, region: DocumentRegion? = nil) throws -> [UInt8] {
        if let region {
            try PixelConversion.rgb(of: frame, into: &rgb, codec: codec)
            let crop = try DocumentFinder.crop(rgb, region.quadrilateral, as: region.documentClass)
            return try codec.encode(crop, quality: jpegQuality)
        }
        if frame.format.isCompressed { return frame.bytes }
        try PixelConversion.rgb(of: frame, into: &rgb, codec: codec)
        return try codec.encode(rgb, quality: jpegQuality)
    }

    /// A JPEG at preview size (never the full-resolution capture).
    mutating func previewJPEG(_ frame: Frame) throws(ImagingError) -> [UInt8] {
        try PixelConversion.rgb(of: frame, into: &rgb, codec: codec)
        Self.downscale(rgb, toWidth: previewWidth, into: &small)
        if let overlay {
            var marked = small
            overlay.draw(on: &marked)
            return try codec.encode(marked, quality: 70)
        }
        return try codec.encode(small, quality: 70)
    }

    /// Nearest-neighbour downscale into a reused buffer.
    static func downscale(_ image: RGBImage, toWidth width: Int, into out: inout RGBImage) {
        guard image.width > width, image.width > 0 else {
            out = image
            return
        }
        let height = max(1, image.height * width / image.width)
        if out.width != width || out.height != height { out = RGBImage(width: width, height: height) }
        image.pixels.withUnsafeBufferPointer { source in
            out.pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let sy = y * image.height / height
                    for x in 0..<width {
                        let sx = x * image.width / width
                        let s = (sy * image.width + sx) * 3
                        let t = (y * width + x) * 3
                        target[t] = source[s]
                        target[t + 1] = source[s + 1]
                        target[t + 2] = source[s + 2]
                    }
                }
            }
        }
    }
}
