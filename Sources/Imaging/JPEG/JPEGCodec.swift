import CTurboJPEG

/// MJPEG decoding and JPEG encoding with libjpeg-turbo's TurboJPEG API.
///
/// A codec keeps its TurboJPEG handles for its lifetime, so decoding a stream of
/// frames allocates nothing but the output image once. Not `Sendable`: use one codec
/// per task.
public final class JPEGCodec {
    private var decompressor: tjhandle?
    private var compressor: tjhandle?
    /// Use the fast integer DCT when decoding (the camera path); the accurate one otherwise.
    public var fastDecode: Bool

    public init(fastDecode: Bool = true) {
        self.fastDecode = fastDecode
    }

    deinit {
        if let decompressor { TurboJPEG.destroy(decompressor) }
        if let compressor { TurboJPEG.destroy(compressor) }
    }

    /// The pixel size a JPEG image declares.
    public func size(of jpeg: [UInt8]) throws(ImagingError) -> (width: Int, height: Int) {
        try decoding { () throws(ImagingError) -> (width: Int, height: Int) in
            let h = try decoder()
            let header = try jpeg.withUnsafeBytes { TurboJPEG.header(h, $0) }.get()
            return (header.width, header.height)
        }
    }

    /// Runs a decode; after a failure the decompressor is made afresh for the next image.
    /// (TurboJPEG 2.1 leaves a handle that failed mid-image failing every image after it
    /// with the same error: one corrupt camera frame stopped every later one.)
    private func decoding<T>(_ body: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        do {
            return try body()
        } catch {
            if let decompressor { TurboJPEG.destroy(decompressor) }
            decompressor = nil
            throw error
        }
    }

    /// The largest image decoded, as for JPEG 2000: above any camera frame (3840 x 2160 at
    /// most) and far above a chip's portrait. A hostile header bounded only by the format (a
    /// 944-byte file declared 28276 x 21833, which libjpeg-turbo "decoded" as grey in two
    /// minutes and 620 MB in a debug build) asks for no more memory and time than this.
    public static let maximumPixels = 4096 * 4096

    /// The size of an image this codec decodes.
    /// - Throws: ``ImagingError`` `.codec` without a header, `.unsupportedFormat` above ``maximumPixels``.
    private func boundedHeader(_ h: tjhandle, _ jpeg: [UInt8]) throws(ImagingError) -> (width: Int, height: Int, subsampling: Int32) {
        let header = try jpeg.withUnsafeBytes { TurboJPEG.header(h, $0) }.get()
        guard header.width * header.height <= Self.maximumPixels else {
            throw ImagingError(
                kind: .unsupportedFormat, call: "tjDecompressHeader3",
                message: "JPEG image of \(header.width)x\(header.height) is above \(Self.maximumPixels) pixels")
        }
        return header
    }

    /// Decodes a JPEG image to 8-bit luma in `image` (reusing its storage).
    /// - Throws: ``ImagingError``; `.unsupportedFormat` for an image above ``maximumPixels``.
    public func decodeLuma(_ jpeg: [UInt8], into image: inout LumaImage) throws(ImagingError) {
        try decoding { () throws(ImagingError) in try decodeLumaOnce(jpeg, into: &image) }
    }

    private func decodeLumaOnce(_ jpeg: [UInt8], into image: inout LumaImage) throws(ImagingError) {
        let h = try decoder()
        let header = try boundedHeader(h, jpeg)
        image.resize(width: header.width, height: header.height)
        let flags = fastDecode ? cturbojpeg_flags_fast() : cturbojpeg_flags_accurate()
        try jpeg.withUnsafeBytes { src in
            image.pixels.withUnsafeMutableBytes { dst in
                TurboJPEG.decompress(h, src, into: dst, width: header.width, pitch: header.width, height: header.height, pixelFormat: TJPF_GRAY, flags: flags)
            }
        }.get()
    }

    /// Decodes a JPEG image to RGB in `image` (reusing its storage).
    /// - Throws: ``ImagingError``; `.unsupportedFormat` for an image above ``maximumPixels``.
    public func decodeRGB(_ jpeg: [UInt8], into image: inout RGBImage) throws(ImagingError) {
        try decoding { () throws(ImagingError) in try decodeRGBOnce(jpeg, into: &image) }
    }

    private func decodeRGBOnce(_ jpeg: [UInt8], into image: inout RGBImage) throws(ImagingError) {
        let h = try decoder()
        let header = try boundedHeader(h, jpeg)
        image.resize(width: header.width, height: header.height)
        let flags = fastDecode ? cturbojpeg_flags_fast() : cturbojpeg_flags_accurate()
        try jpeg.withUnsafeBytes { src in
            image.pixels.withUnsafeMutableBytes { dst in
                TurboJPEG.decompress(h, src, into: dst, width: header.width, pitch: header.width * 3, height: header.height, pixelFormat: TJPF_RGB, flags: flags)
            }
        }.get()
    }

    /// How much colour detail an encoded JPEG keeps.
    public enum Chroma: Hashable, Sendable {
        /// 4:2:0 (`TJSAMP_420`): colour at half width and half height; for upload and preview.
        case yuv420
        /// 4:2:2 (`TJSAMP_422`): colour at half width; what UVC cameras send as MJPEG.
        case yuv422

        var subsampling: TJSAMP { self == .yuv420 ? TJSAMP_420 : TJSAMP_422 }
    }

    /// Encodes RGB as a JPEG (4:2:0 unless asked otherwise, for upload and preview).
    /// - Parameters:
    ///   - quality: 1...100.
    ///   - chroma: the colour subsampling.
    public func encode(_ image: RGBImage, quality: Int = 90, chroma: Chroma = .yuv420) throws(ImagingError) -> [UInt8] {
        let h = try encoder()
        return try image.pixels.withUnsafeBytes { src in
            TurboJPEG.compress(h, src, width: image.width, pitch: image.width * 3, height: image.height, pixelFormat: TJPF_RGB, subsampling: chroma.subsampling, quality: Int32(clamping: max(1, min(100, quality))), flags: 0)
        }.get()
    }

    /// Encodes luma as a greyscale JPEG.
    public func encode(_ image: LumaImage, quality: Int = 90) throws(ImagingError) -> [UInt8] {
        let h = try encoder()
        return try image.pixels.withUnsafeBytes { src in
            TurboJPEG.compress(h, src, width: image.width, pitch: image.width, height: image.height, pixelFormat: TJPF_GRAY, subsampling: TJSAMP_GRAY, quality: Int32(clamping: max(1, min(100, quality))), flags: 0)
        }.get()
    }

    private func decoder() throws(ImagingError) -> tjhandle {
        if let decompressor { return decompressor }
        let h = try TurboJPEG.initDecompress().get()
        decompressor = h
        return h
    }

    private func encoder() throws(ImagingError) -> tjhandle {
        if let compressor { return compressor }
        let h = try TurboJPEG.initCompress().get()
        compressor = h
        return h
    }
}
