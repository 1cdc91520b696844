import COpenJPEG

/// JPEG 2000 (ISO/IEC 15444-1) through OpenJPEG: the faces of passports that store them
/// so (DG2), decoded to RGB and re-encoded as JPEG for display and upload.
///
/// Both a bare codestream (J2K, starts FF 4F FF 51) and a JP2 file (signature box) are
/// read. Input comes from a chip, so nothing is trusted: a malformed or oversized image is
/// a ``ImagingError`` of kind `.codec`, never a crash.
public enum JPEG2000 {
    /// The container of JPEG 2000 bytes.
    public enum Format: Sendable, Hashable {
        /// A raw codestream (`.j2k`, `.j2c`).
        case codestream
        /// A JP2 file with its boxes (`.jp2`).
        case jp2

        /// The format of `data` from its first bytes, or `nil`.
        public init?(sniffing data: [UInt8]) {
            if data.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
                self = .jp2
            } else if data.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) {
                self = .codestream
            } else {
                return nil
            }
        }

        var codec: OPJ_CODEC_FORMAT { self == .jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K }
    }

    /// The largest image decoded: a passport face is far smaller; this bounds the memory a
    /// hostile header can ask for.
    public static let maximumPixels = 4096 * 4096

    /// Decodes to 8-bit RGB (greyscale repeated, sYCC converted, other precisions scaled,
    /// subsampled components stretched).
    /// - Throws: ``ImagingError`` `.codec` when the data is not JPEG 2000 or does not decode,
    ///   `.unsupportedFormat` for 2 or more than 4 components or an oversized image.
    public static func decodeRGB(_ data: [UInt8]) throws(ImagingError) -> RGBImage {
        guard let format = Format(sniffing: data) else {
            throw ImagingError(kind: .codec, message: "not JPEG 2000 (neither a JP2 signature box nor a codestream)")
        }
        let codec = try OpenJPEG.createDecompress(format.codec).get()
        defer { OpenJPEG.destroyCodec(codec) }
        try OpenJPEG.setupDecoder(codec).get()
        let stream = try OpenJPEG.stream(OpenJPEGMemory(data, reading: true), input: true).get()
        defer { OpenJPEG.destroyStream(stream) }
        let image = try OpenJPEG.readHeader(stream, codec).get()
        defer { OpenJPEG.destroyImage(image) }
        let header = image.pointee
        let width = Int(header.x1) - Int(header.x0)
        let height = Int(header.y1) - Int(header.y0)
        guard width > 0, height > 0, width * height <= maximumPixels else {
            throw ImagingError(kind: .unsupportedFormat, message: "JPEG 2000 image of \(width)x\(height) is outside 1...\(maximumPixels) pixels")
        }
        let count = Int(header.numcomps)
        guard count == 1 || count == 3 || count == 4 else {
            throw ImagingError(kind: .unsupportedFormat, message: "JPEG 2000 image with \(count) components")
        }
        try OpenJPEG.decode(codec, stream, image).get()
        try OpenJPEG.endDecompress(codec, stream).get()
        return try rgb(image.pointee, width: width, height: height)
    }

    /// Decodes JPEG 2000 and encodes the picture as JPEG with TurboJPEG.
    /// - Throws: ``ImagingError`` as ``decodeRGB(_:)`` and the JPEG encoder do.
    public static func toJPEG(_ data: [UInt8], quality: Int = 90) throws(ImagingError) -> [UInt8] {
        try JPEGCodec().encode(decodeRGB(data), quality: quality)
    }

    /// Encodes RGB as lossy JPEG 2000 (9-7 wavelet, colour transform, one layer at
    /// `ratio`:1): for test documents whose DG2 holds a JPEG 2000 face.
    /// - Throws: ``ImagingError`` `.codec` when OpenJPEG fails.
    public static func encode(_ image: RGBImage, format: Format = .jp2, ratio: Float = 20) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw ImagingError(kind: .invalidArgument, message: "empty image") }
        var parameters = [opj_image_cmptparm_t](repeating: opj_image_cmptparm_t(), count: 3)
        for index in parameters.indices {
            parameters[index].dx = 1
            parameters[index].dy = 1
            parameters[index].w = OPJ_UINT32(image.width)
            parameters[index].h = OPJ_UINT32(image.height)
            parameters[index].prec = 8
            parameters[index].sgnd = 0
        }
        let target = try OpenJPEG.createImage(&parameters, colorSpace: OPJ_CLRSPC_SRGB).get()
        defer { OpenJPEG.destroyImage(target) }
        target.pointee.x0 = 0
        target.pointee.y0 = 0
        target.pointee.x1 = OPJ_UINT32(image.width)
        target.pointee.y1 = OPJ_UINT32(image.height)
        let pixels = image.width * image.height
        for component in 0..<3 {
            guard let samples = target.pointee.comps[component].data else { throw ImagingError(kind: .codec, message: "no component buffer") }
            image.pixels.withUnsafeBufferPointer { source in
                for i in 0..<pixels { samples[i] = OPJ_INT32(source[i * 3 + component]) }
            }
        }
        let codec = try OpenJPEG.createCompress(format.codec).get()
        defer { OpenJPEG.destroyCodec(codec) }
        try OpenJPEG.setupEncoder(codec, image: target, ratio: ratio).get()
        let memory = OpenJPEGMemory([], reading: false)
        let stream = try OpenJPEG.stream(memory, input: false).get()
        defer { OpenJPEG.destroyStream(stream) }
        try OpenJPEG.startCompress(codec, target, stream).get()
        try OpenJPEG.encode(codec, stream).get()
        try OpenJPEG.endCompress(codec, stream).get()
        return memory.bytes
    }

    /// 8-bit RGB from decoded components.
    private static func rgb(_ image: opj_image_t, width: Int, height: Int) throws(ImagingError) -> RGBImage {
        struct Plane {
            var data: UnsafeMutablePointer<OPJ_INT32>
            var width: Int, height: Int, dx: Int, dy: Int
            var shift: Int, offset: Int32

            /// The sample covering image pixel (x, y), scaled to 0...255.
            func sample(_ x: Int, _ y: Int) -> Int32 {
                let cx = min(width - 1, x / dx), cy = min(height - 1, y / dy)
                var value = data[cy * width + cx] + offset
                value = shift >= 0 ? value >> Int32(shift) : value << Int32(-shift)
                return max(0, min(255, value))
            }
        }
        var planes: [Plane] = []
        for index in 0..<min(3, Int(image.numcomps)) {
            let component = image.comps[index]
            guard let data = component.data, component.w > 0, component.h > 0, component.dx > 0, component.dy > 0,
                Int(component.w) * Int(component.dx) >= width, Int(component.h) * Int(component.dy) >= height,
                (1...16).contains(component.prec)
            else { throw ImagingError(kind: .codec, message: "JPEG 2000 component \(index) has no usable samples") }
            planes.append(Plane(
                data: data, width: Int(component.w), height: Int(component.h), dx: Int(component.dx), dy: Int(component.dy),
                shift: Int(component.prec) - 8, offset: component.sgnd != 0 ? Int32(1) << Int32(component.prec - 1) : 0))
        }
        let ycc = image.color_space == OPJ_CLRSPC_SYCC && planes.count == 3
        var out = RGBImage(width: width, height: height)
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    if planes.count == 1 {
                        let v = UInt8(planes[0].sample(x, y))
                        pixels[i] = v; pixels[i + 1] = v; pixels[i + 2] = v
                    } else if ycc {
                        let luma = Double(planes[0].sample(x, y))
                        let cb = Double(planes[1].sample(x, y)) - 128, cr = Double(planes[2].sample(x, y)) - 128
                        pixels[i] = clamp(luma + 1.402 * cr)
                        pixels[i + 1] = clamp(luma - 0.344136 * cb - 0.714136 * cr)
                        pixels[i + 2] = clamp(luma + 1.772 * cb)
                    } else {
                        pixels[i] = UInt8(planes[0].sample(x, y))
                        pixels[i + 1] = UInt8(planes[1].sample(x, y))
                        pixels[i + 2] = UInt8(planes[2].sample(x, y))
                    }
                }
            }
        }
        return out
    }

    private static func clamp(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}
