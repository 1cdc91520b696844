/// Conversion of raw frames to 8-bit luma and to RGB.
///
/// The hot path writes into a caller-owned image whose storage is reused, and reads the
/// source through a raw buffer: no allocation per pixel or per row. RGB uses the BT.601
/// limited-range matrix that UVC cameras and vivid use, in 16.16 fixed point.
/// MJPEG frames are decoded by `JPEGCodec` instead.
public enum PixelConversion {
    /// Writes the luma of a raw frame into `image`.
    /// - Throws: ``ImagingError`` `.unsupportedFormat` for compressed formats,
    ///   `.malformedFrame` when the frame is shorter than its size says.
    public static func luma(of frame: Frame, into image: inout LumaImage) throws(ImagingError) {
        try check(frame)
        image.resize(width: frame.width, height: frame.height)
        let w = frame.width, h = frame.height, stride = frame.bytesPerLine
        frame.bytes.withUnsafeBufferPointer { src in
            image.pixels.withUnsafeMutableBufferPointer { dst in
                switch frame.format {
                case .yuyv, .uyvy:
                    let offset = frame.format == .yuyv ? 0 : 1
                    guard let from = src.baseAddress, let to = dst.baseAddress else { return }
                    // Pointer walks, not indexes: the compiler vectorises this loop.
                    for y in 0..<h {
                        let s = from + y * stride + offset, d = to + y * w
                        for x in 0..<w { d[x] = s[2 &* x] }
                    }
                case .rgb24:
                    for y in 0..<h {
                        let row = y * stride, out = y * w
                        for x in 0..<w {
                            let i = row + 3 * x
                            dst[out + x] = lumaFromRGB(src[i], src[i + 1], src[i + 2])
                        }
                    }
                default:  // grey, nv12, i420: the first plane is the luma
                    for y in 0..<h {
                        let row = y * stride, out = y * w
                        for x in 0..<w { dst[out + x] = src[row + x] }
                    }
                }
            }
        }
    }

    /// Writes a raw frame as RGB into `image`.
    /// - Throws: as `luma(of:into:)`.
    public static func rgb(of frame: Frame, into image: inout RGBImage) throws(ImagingError) {
        try check(frame)
        image.resize(width: frame.width, height: frame.height)
        let w = frame.width, h = frame.height, stride = frame.bytesPerLine
        frame.bytes.withUnsafeBufferPointer { src in
            image.pixels.withUnsafeMutableBufferPointer { dst in
                switch frame.format {
                case .yuyv, .uyvy:
                    let (yo, uo, vo) = frame.format == .yuyv ? (0, 1, 3) : (1, 0, 2)
                    guard let from = src.baseAddress, let to = dst.baseAddress else { return }
                    // Pointer walks, a pair of pixels (one chroma sample) at a time.
                    for y in 0..<h {
                        let s = from + y * stride, d = to + y * w * 3
                        for x in 0..<w {
                            let pair = s + (x & ~1) &* 2
                            store(d + x &* 3, s[2 &* x + yo], pair[uo], pair[vo])
                        }
                    }
                case .nv12:
                    let chroma = stride * h
                    for y in 0..<h {
                        let crow = chroma + (y / 2) * stride
                        for x in 0..<w {
                            let c = crow + (x & ~1)
                            store(dst, (y * w + x) * 3, src[y * stride + x], src[c], src[c + 1])
                        }
                    }
                case .i420:
                    let cstride = (stride + 1) / 2
                    let uPlane = stride * h, vPlane = uPlane + cstride * ((h + 1) / 2)
                    for y in 0..<h {
                        let crow = (y / 2) * cstride
                        for x in 0..<w {
                            store(dst, (y * w + x) * 3, src[y * stride + x], src[uPlane + crow + x / 2], src[vPlane + crow + x / 2])
                        }
                    }
                case .rgb24:
                    for y in 0..<h {
                        let row = y * stride, out = y * w * 3
                        for i in 0..<(3 * w) { dst[out + i] = src[row + i] }
                    }
                default:  // grey
                    for y in 0..<h {
                        for x in 0..<w {
                            let v = src[y * stride + x], o = (y * w + x) * 3
                            dst[o] = v
                            dst[o + 1] = v
                            dst[o + 2] = v
                        }
                    }
                }
            }
        }
    }

    /// BT.601 limited range YCbCr to RGB, 16.16 fixed point.
    @inline(__always)
    static func store(_ dst: UnsafeMutableBufferPointer<UInt8>, _ o: Int, _ y: UInt8, _ u: UInt8, _ v: UInt8) {
        let c = (Int32(y) - 16) * 76309
        let d = Int32(u) - 128
        let e = Int32(v) - 128
        dst[o] = clamp((c + 104597 * e + 32768) >> 16)
        dst[o + 1] = clamp((c - 25675 * d - 53279 * e + 32768) >> 16)
        dst[o + 2] = clamp((c + 132201 * d + 32768) >> 16)
    }

    /// As `store(_:_:_:_:_:)`, to a pointer.
    @inline(__always)
    static func store(_ dst: UnsafeMutablePointer<UInt8>, _ y: UInt8, _ u: UInt8, _ v: UInt8) {
        let c = (Int32(y) - 16) * 76309
        let d = Int32(u) - 128
        let e = Int32(v) - 128
        dst[0] = clamp((c + 104597 * e + 32768) >> 16)
        dst[1] = clamp((c - 25675 * d - 53279 * e + 32768) >> 16)
        dst[2] = clamp((c + 132201 * d + 32768) >> 16)
    }

    /// BT.601 limited-range luma of an RGB pixel.
    @inline(__always)
    static func lumaFromRGB(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        UInt8((16 << 16 + 16829 * Int32(r) + 33039 * Int32(g) + 6416 * Int32(b) + 32768) >> 16)
    }

    @inline(__always)
    static func clamp(_ v: Int32) -> UInt8 { UInt8(max(0, min(255, v))) }

    private static func check(_ frame: Frame) throws(ImagingError) {
        guard let needed = PixelFormat.minimumFrameBytes(frame.format, bytesPerLine: frame.bytesPerLine, height: frame.height)
        else {
            throw ImagingError(kind: .unsupportedFormat, message: "cannot convert \(frame.format) frames without decoding")
        }
        guard frame.width > 0, frame.height > 0, frame.bytes.count >= needed,
            frame.bytesPerLine >= PixelFormat.packedBytesPerLine(frame.format, width: frame.width)
        else {
            throw ImagingError(
                kind: .malformedFrame,
                message: "\(frame.format) \(frame.width)x\(frame.height) frame has \(frame.bytes.count) bytes, needs \(needed)")
        }
    }
}
