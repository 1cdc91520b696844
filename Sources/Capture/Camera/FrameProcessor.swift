import Imaging
import Vision

/// The pixel work of a capture, with buffers kept between frames: the quality gate's
/// measure, the JPEG of a shot, the preview.
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

    /// The frame as JPEG: a camera's own JPEG as it is, anything else encoded.
    mutating func encode(_ frame: Frame) throws(ImagingError) -> [UInt8] {
        if frame.format.isCompressed { return frame.bytes }
        try PixelConversion.rgb(of: frame, into: &rgb, codec: codec)
        return try codec.encode(rgb, quality: jpegQuality)
    }

    /// A JPEG at preview size (never the full-resolution capture).
    mutating func previewJPEG(_ frame: Frame) throws(ImagingError) -> [UInt8] {
        try PixelConversion.rgb(of: frame, into: &rgb, codec: codec)
        Self.downscale(rgb, toWidth: previewWidth, into: &small)
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
