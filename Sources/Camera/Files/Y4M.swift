public import Imaging

/// The YUV4MPEG2 (Y4M) stream format: a text header, then `FRAME` and raw planes.
///
/// Supported colour spaces: `C420jpeg`/`C420paldv`/`C420mpeg2`/`C420` (I420), `C422`
/// (planar 4:2:2, delivered as packed YUYV) and `Cmono` (GREY).
public struct Y4MHeader: Hashable, Sendable {
    public enum ColorSpace: String, Hashable, Sendable {
        case c420 = "420"
        case c422 = "422"
        case mono = "mono"
    }

    public var width: Int
    public var height: Int
    public var interval: FrameInterval
    public var colorSpace: ColorSpace

    public init(width: Int, height: Int, interval: FrameInterval, colorSpace: ColorSpace) {
        self.width = width
        self.height = height
        self.interval = interval
        self.colorSpace = colorSpace
    }

    /// Bytes of one frame's planes.
    public var frameBytes: Int {
        let chromaW = (width + 1) / 2
        switch colorSpace {
        case .c420: return width * height + 2 * chromaW * ((height + 1) / 2)
        case .c422: return width * height + 2 * chromaW * height
        case .mono: return width * height
        }
    }

    /// The pixel format frames are delivered in.
    public var pixelFormat: PixelFormat {
        switch colorSpace {
        case .c420: return .i420
        case .c422: return .yuyv
        case .mono: return .grey
        }
    }

    /// The header line, with its newline.
    public var line: String {
        let c: String
        switch colorSpace {
        case .c420: c = "C420jpeg"
        case .c422: c = "C422"
        case .mono: c = "Cmono"
        }
        return "YUV4MPEG2 W\(width) H\(height) F\(interval.denominator):\(interval.numerator) Ip A1:1 \(c)\n"
    }

    /// Parses a header from the start of `bytes`.
    /// - Returns: the header and the number of bytes it took, newline included.
    public static func parse(_ bytes: some Collection<UInt8>) throws(CameraError) -> (Y4MHeader, Int) {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            throw CameraError(kind: .badFile, message: "no Y4M header line")
        }
        let text = String(decoding: bytes[bytes.startIndex..<newline], as: UTF8.self)
        let fields = text.split(separator: " ")
        guard fields.first == "YUV4MPEG2" else { throw CameraError(kind: .badFile, message: "not a YUV4MPEG2 file") }
        var width = 0, height = 0
        var interval = FrameInterval(fps: 30)
        var colorSpace = ColorSpace.c420
        for field in fields.dropFirst() {
            let value = field.dropFirst()
            switch field.first {
            case "W": width = Int(value) ?? 0
            case "H": height = Int(value) ?? 0
            case "F":
                let parts = value.split(separator: ":")
                if parts.count == 2, let n = UInt32(parts[0]), let d = UInt32(parts[1]), n > 0, d > 0 {
                    interval = FrameInterval(numerator: d, denominator: n)
                }
            case "C":
                if value.hasPrefix("420") {
                    colorSpace = .c420
                } else if value == "422" {
                    colorSpace = .c422
                } else if value == "mono" {
                    colorSpace = .mono
                } else {
                    throw CameraError(kind: .unsupportedFormat, message: "Y4M colour space C\(value) is not supported")
                }
            case "I":
                guard value == "p" || value == "?" else {
                    throw CameraError(kind: .unsupportedFormat, message: "interlaced Y4M (I\(value)) is not supported")
                }
            default: break
            }
        }
        guard width > 0, height > 0 else { throw CameraError(kind: .badFile, message: "Y4M header without a size") }
        return (Y4MHeader(width: width, height: height, interval: interval, colorSpace: colorSpace), bytes.distance(from: bytes.startIndex, to: newline) + 1)
    }

    /// Turns one frame's planes into a frame in `pixelFormat` (C422 planes become YUYV).
    func frame(from planes: [UInt8], sequence: UInt32, timestamp: Duration) -> Frame {
        var bytes = planes
        if colorSpace == .c422 {
            let cw = (width + 1) / 2, ySize = width * height, cSize = cw * height
            bytes = [UInt8](repeating: 0, count: width * 2 * height)
            planes.withUnsafeBufferPointer { p in
                bytes.withUnsafeMutableBufferPointer { out in
                    for y in 0..<height {
                        for x in 0..<width {
                            let o = y * width * 2 + x * 2
                            out[o] = p[y * width + x]
                            out[o + 1] = x & 1 == 0 ? p[ySize + y * cw + x / 2] : p[ySize + cSize + y * cw + x / 2]
                        }
                    }
                }
            }
        }
        return Frame(format: pixelFormat, width: width, height: height, sequence: sequence, timestamp: timestamp, bytes: bytes)
    }

    /// Turns a raw frame into this header's planes, or nil when the formats do not fit.
    func planes(from frame: Frame) -> [UInt8]? {
        guard frame.width == width, frame.height == height else { return nil }
        let w = width, h = height, s = frame.bytesPerLine
        switch (colorSpace, frame.format) {
        case (.mono, .grey), (.mono, .i420), (.mono, .nv12):
            return (0..<h).flatMap { y in frame.bytes[(y * s)..<(y * s + w)] }
        case (.c420, .i420) where s == w:
            return Array(frame.bytes.prefix(frameBytes))
        case (.c420, .nv12):
            let cw = (w + 1) / 2, ch = (h + 1) / 2
            var out = (0..<h).flatMap { y in frame.bytes[(y * s)..<(y * s + w)] }
            let base = s * h
            for plane in 0..<2 {
                for y in 0..<ch { for x in 0..<cw { out.append(frame.bytes[base + y * s + 2 * x + plane]) } }
            }
            return out
        case (.c422, .yuyv):
            let cw = (w + 1) / 2
            var out = [UInt8](repeating: 0, count: frameBytes)
            for y in 0..<h {
                for x in 0..<w { out[y * w + x] = frame.bytes[y * s + 2 * x] }
                for x in 0..<cw {
                    out[w * h + y * cw + x] = frame.bytes[y * s + 4 * x + 1]
                    out[w * h + cw * h + y * cw + x] = frame.bytes[y * s + 4 * x + 3]
                }
            }
            return out
        default:
            return nil
        }
    }

    /// The Y4M colour space that records `format` without loss, if any.
    public static func colorSpace(for format: PixelFormat) -> ColorSpace? {
        switch format {
        case .i420, .nv12: return .c420
        case .yuyv: return .c422
        case .grey: return .mono
        default: return nil
        }
    }
}
