/// A pixel format, by its V4L2 fourcc code: the four characters packed little-endian into
/// a `UInt32`, as `v4l2_fourcc()` does.
///
/// The codes are written here as their characters, so this module needs no kernel header;
/// `Camera`'s tests check them against the kernel's `V4L2_PIX_FMT_*` values.
public struct PixelFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// V4L2_PIX_FMT_YUYV: packed 4:2:2, Y0 U Y1 V.
    public static let yuyv = PixelFormat(fourcc: "YUYV")
    /// V4L2_PIX_FMT_UYVY: packed 4:2:2, U Y0 V Y1.
    public static let uyvy = PixelFormat(fourcc: "UYVY")
    /// V4L2_PIX_FMT_NV12: a Y plane, then interleaved U/V at half resolution.
    public static let nv12 = PixelFormat(fourcc: "NV12")
    /// V4L2_PIX_FMT_YUV420 (I420, YU12): Y, U and V planes, 4:2:0.
    public static let i420 = PixelFormat(fourcc: "YU12")
    /// V4L2_PIX_FMT_GREY: 8-bit luma only.
    public static let grey = PixelFormat(fourcc: "GREY")
    /// V4L2_PIX_FMT_RGB24: packed R G B.
    public static let rgb24 = PixelFormat(fourcc: "RGB3")
    /// V4L2_PIX_FMT_MJPEG: each frame a JPEG image (UVC cameras).
    public static let mjpeg = PixelFormat(fourcc: "MJPG")
    /// V4L2_PIX_FMT_JPEG: as MJPEG, named so by some drivers.
    public static let jpeg = PixelFormat(fourcc: "JPEG")

    /// The formats this module can turn into luma and RGB, best first for raw capture.
    public static let decodable: [PixelFormat] = [.yuyv, .nv12, .i420, .uyvy, .grey, .rgb24, .mjpeg, .jpeg]

    /// The format with these four ASCII characters, e.g. `"YUYV"`.
    private init(fourcc: StaticString) {
        precondition(fourcc.utf8CodeUnitCount == 4, "a fourcc has 4 characters")
        self.init(rawValue: Self.code(UnsafeBufferPointer(start: fourcc.utf8Start, count: 4)))
    }

    /// Four characters packed little-endian, the first in the lowest byte.
    private static func code(_ characters: some Sequence<UInt8>) -> UInt32 {
        characters.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    public var isCompressed: Bool { self == .mjpeg || self == .jpeg }

    /// The four characters, e.g. `YUYV`.
    public var fourcc: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }
        return String(decoding: bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    public var description: String { fourcc }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let bytes = Array(text.utf8)
        guard bytes.count == 4 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "fourcc must have 4 characters"))
        }
        rawValue = Self.code(bytes)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fourcc)
    }
}
