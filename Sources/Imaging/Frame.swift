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
