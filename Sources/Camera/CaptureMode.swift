public import Imaging

/// A frame interval as the fraction V4L2 uses (seconds per frame).
public struct FrameInterval: Hashable, Sendable, Codable, CustomStringConvertible {
    public var numerator: UInt32
    public var denominator: UInt32

    public init(numerator: UInt32, denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The interval of `fps` whole frames per second.
    public init(fps: UInt32) { self.init(numerator: 1, denominator: fps) }

    public var framesPerSecond: Double {
        numerator == 0 ? 0 : Double(denominator) / Double(numerator)
    }

    public var duration: Duration {
        denominator == 0 ? .zero : .nanoseconds(Int64(numerator) * 1_000_000_000 / Int64(denominator))
    }

    public var description: String {
        let fps = framesPerSecond
        return fps == fps.rounded() ? "\(Int(fps)) fps" : "\(Double(Int(fps * 100)) / 100) fps"
    }
}

/// One way a camera can deliver frames: a format, a size and a frame rate.
public struct CaptureMode: Hashable, Sendable, Codable, CustomStringConvertible {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var interval: FrameInterval

    public init(format: PixelFormat, width: Int, height: Int, interval: FrameInterval) {
        self.format = format
        self.width = width
        self.height = height
        self.interval = interval
    }

    public var pixels: Int { width * height }
    public var framesPerSecond: Double { interval.framesPerSecond }

    public var description: String { "\(format) \(width)x\(height) @ \(interval)" }
}
