import Glibc

/// A camera that replays a recording at a chosen frame rate, behind the same
/// `FrameSource` protocol as `V4L2Camera`, for tests and demos.
///
/// Pacing comes from the injected clock: frame n is due at start + n × interval, and a
/// wait longer than the caller's timeout ends in `.timeout` after that timeout, as a
/// stalled camera would. Timestamps are the recording's time (n × interval).
public final class FileCamera<C: Clock>: FrameSource where C.Duration == Duration {
    public let path: String
    public let header: Y4MHeader
    public private(set) var mode: CaptureMode?
    public private(set) var statistics = StreamStatistics()
    /// Whether to start again at the first frame after the last.
    public var loops: Bool

    private let clock: C
    private var fd: Int32 = -1
    private let frameCount: Int
    private let firstFrameOffset: Int
    private var frameStride: Int { 6 + header.frameBytes }
    private var startInstant: C.Instant?
    private var index = 0

    /// Opens a Y4M recording.
    /// - Parameters:
    ///   - interval: the replay rate; the file's own rate when nil.
    ///   - loops: start again after the last frame instead of reporting `.timeout`.
    /// - Throws: `.badFile`, `.unsupportedFormat`, or the error of open.
    public init(path: String, interval: FrameInterval? = nil, loops: Bool = true, clock: C) throws(CameraError) {
        self.path = path
        self.clock = clock
        self.loops = loops
        let fd = try Sys.open(path, flags: O_RDONLY).get()
        do throws(CameraError) {
            let head = try Sys.pread(fd, count: 512, offset: 0).get()
            let (header, length) = try Y4MHeader.parse(head)
            self.header = header
            firstFrameOffset = length
            let size = try Sys.fileSize(fd).get()
            frameCount = (size - length) / (6 + header.frameBytes)
            guard frameCount > 0 else { throw CameraError(kind: .badFile, message: "\(path) holds no whole frame") }
            mode = CaptureMode(format: header.pixelFormat, width: header.width, height: header.height, interval: interval ?? header.interval)
            self.fd = fd
        } catch {
            Sys.close(fd)
            throw error
        }
    }

    deinit {
        if fd >= 0 { Sys.close(fd) }
    }

    public var framesInFile: Int { frameCount }

    public func start() async throws(CameraError) {
        if startInstant == nil {
            startInstant = clock.now
            index = 0
        }
    }

    public func nextFrame(timeout: Duration) async throws(CameraError) -> Frame {
        guard let start = startInstant, let mode, fd >= 0 else {
            throw CameraError(kind: .notStreaming, message: "\(path) is not started")
        }
        if index >= frameCount && !loops {
            try await wait(until: clock.now.advanced(by: timeout))
            statistics.timeouts += 1
            throw CameraError(kind: .timeout, message: "\(path) has no more frames")
        }
        let due = start.advanced(by: mode.interval.duration * index)
        let now = clock.now
        if now.duration(to: due) > timeout {
            try await wait(until: now.advanced(by: timeout))
            statistics.timeouts += 1
            throw CameraError(kind: .timeout, message: "\(path): next frame not due within \(timeout)")
        }
        try await wait(until: due)
        let n = index % frameCount
        let offset = firstFrameOffset + n * frameStride
        let chunk = try Sys.pread(fd, count: frameStride, offset: offset).get()
        guard chunk.count == frameStride, chunk.starts(with: Array("FRAME".utf8)) else {
            throw CameraError(kind: .badFile, message: "\(path): frame \(n) is damaged")
        }
        let sequence = UInt32(truncatingIfNeeded: index)
        index += 1
        statistics.record(sequence: sequence)
        return header.frame(from: Array(chunk.dropFirst(6)), sequence: sequence, timestamp: mode.interval.duration * Int(sequence))
    }

    public func stop() {
        startInstant = nil
    }

    private func wait(until instant: C.Instant) async throws(CameraError) {
        do {
            try await clock.sleep(until: instant, tolerance: nil)
        } catch {
            throw CameraError(kind: .notStreaming, message: "\(path): cancelled while waiting for a frame")
        }
    }
}
