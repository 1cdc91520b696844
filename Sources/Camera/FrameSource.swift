public import Imaging

/// Something that delivers frames: a V4L2 camera or a recording replayed from a file.
///
/// A source is used from one task at a time; it is not `Sendable`. `nextFrame` of a
/// V4L2 camera blocks its thread in poll(2) for at most `timeout`.
public protocol FrameSource: AnyObject {
    /// The mode frames arrive in once started.
    var mode: CaptureMode? { get }
    /// Counters since the stream started.
    var statistics: StreamStatistics { get }
    /// Starts delivering frames in `mode`.
    func start() async throws(CameraError)
    /// The next frame, or `CameraError` `.timeout` when none arrives within `timeout`,
    /// `.unplugged` when the device went away.
    func nextFrame(timeout: Duration) async throws(CameraError) -> Frame
    /// Stops the stream; safe to call more than once.
    func stop()
}

/// What a stream did: frames delivered and lost, stalls and recoveries.
public struct StreamStatistics: Hashable, Sendable, Codable {
    public var framesDelivered: Int = 0
    /// Frames the driver skipped (gaps in the sequence) or flagged as corrupt.
    public var framesDropped: Int = 0
    /// Waits that ended without a frame.
    public var timeouts: Int = 0
    /// Times the device was reopened after it went away.
    public var reopens: Int = 0
    public var lastSequence: UInt32? = nil

    public init() {}

    /// Counts a delivered frame and the gap before it.
    mutating func record(sequence: UInt32) {
        if let last = lastSequence, sequence > last &+ 1 {
            framesDropped += Int(sequence &- last &- 1)
        }
        lastSequence = sequence
        framesDelivered += 1
    }
}
