/// One captured frame: its bytes as the camera delivered them, and when it was taken.
///
/// Raw formats carry `bytesPerLine` (which may exceed the packed width); MJPEG frames
/// carry one JPEG image and `bytesPerLine` 0.
public struct Frame: Sendable {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var bytesPerLine: Int
    /// The driver's frame counter; gaps mean frames were dropped.
    public var sequence: UInt32
    /// When the first byte was captured, on CLOCK_MONOTONIC (the driver's clock).
    public var timestamp: Duration
    public var bytes: [UInt8]

    public init(
        format: PixelFormat, width: Int, height: Int, bytesPerLine: Int = 0, sequence: UInt32 = 0,
        timestamp: Duration = .zero, bytes: [UInt8]
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine == 0 ? PixelFormat.packedBytesPerLine(format, width: width) : bytesPerLine
        self.sequence = sequence
        self.timestamp = timestamp
        self.bytes = bytes
    }
}

extension PixelFormat {
    /// Bytes per line of the first plane when lines are packed without padding.
    static func packedBytesPerLine(_ format: PixelFormat, width: Int) -> Int {
        switch format {
        case .yuyv, .uyvy: return width * 2
        case .rgb24: return width * 3
        case .nv12, .i420, .grey: return width
        default: return 0
        }
    }

    /// The smallest buffer that holds a frame of this format, or nil for compressed formats.
    static func minimumFrameBytes(_ format: PixelFormat, bytesPerLine: Int, height: Int) -> Int? {
        switch format {
        case .yuyv, .uyvy, .rgb24, .grey: return bytesPerLine * height
        case .nv12, .i420: return bytesPerLine * height + bytesPerLine * ((height + 1) / 2)
        default: return nil
        }
    }
}

/// An 8-bit single-channel image; the pixel store is reused across frames.
public struct LumaImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// Row-major, `width` bytes per row.
    public var pixels: [UInt8]

    public init(width: Int = 0, height: Int = 0, pixels: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.pixels = pixels ?? [UInt8](repeating: 0, count: width * height)
    }

    /// Sets the size, reallocating only when it grows.
    mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        if pixels.count != width * height {
            if pixels.count > width * height {
                pixels.removeLast(pixels.count - width * height)
            } else {
                pixels.append(contentsOf: repeatElement(0, count: width * height - pixels.count))
            }
        }
    }

    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}

/// An 8-bit RGB image (R, G, B per pixel); the pixel store is reused across frames.
public struct RGBImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// Row-major, `3 * width` bytes per row.
    public var pixels: [UInt8]

    public init(width: Int = 0, height: Int = 0, pixels: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.pixels = pixels ?? [UInt8](repeating: 0, count: width * height * 3)
    }

    mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        let n = width * height * 3
        if pixels.count > n { pixels.removeLast(pixels.count - n) }
        if pixels.count < n { pixels.append(contentsOf: repeatElement(0, count: n - pixels.count)) }
    }

    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
