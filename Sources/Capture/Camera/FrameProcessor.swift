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

    /// The document in the frame (``DocumentAnalyzer``), and its outline for the preview.
    mutating func measureDocument(
        _ frame: Frame, analyzer: DocumentAnalyzer, classes: Set<DocumentClass> = DocumentClass.identity,
        wantsMRZ: (DocumentClass) -> Bool, barcodeReader: CardBarcodeReader? = nil
    ) throws -> DocumentFrame {
        try PixelConversion.luma(of: frame, into: &luma, codec: codec)
        let measured = try analyzer.analyse(luma, learning: true, classes: classes, wantsMRZ: wantsMRZ, barcodeReader: barcodeReader)
        let observation = measured.observation
        overlay = observation.document.map { document in
            PreviewOverlay(
                quadrilateral: document.quadrilateral, frameWidth: observation.width, frameHeight: observation.height,
                placed: DocumentGuidance.isPlaced(document, settings: analyzer.guidance))
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
