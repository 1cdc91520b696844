import Glibc
public import Imaging

/// A camera that replays a recording at a chosen frame rate, behind the same
/// `FrameSource` protocol as `V4L2Camera`, for tests and demos.
///
/// Recordings: a Y4M file (read frame by frame), an MJPEG file (JPEG images one after
/// another, as `ffmpeg -f mjpeg` writes) or a folder of `.jpg`/`.jpeg` files in name
/// order; the JPEG kinds are held in memory and delivered as MJPEG frames.
///
/// Pacing comes from the injected clock: frame n is due at start + n × interval, and a
/// wait longer than the caller's timeout ends in `.timeout` after that timeout, as a
/// stalled camera would. Timestamps are the recording's time (n × interval).
public final class FileCamera<C: Clock>: FrameSource where C.Duration == Duration {
    public let path: String
    public private(set) var mode: CaptureMode?
    public private(set) var statistics = StreamStatistics()
    /// Whether to start again at the first frame after the last.
    public var loops: Bool

    private let clock: C
    private var fd: Int32 = -1
    private let frameCount: Int
    private let storage: Storage

    private enum Storage {
        case y4m(Y4MHeader, firstFrameOffset: Int)
        case jpegs([[UInt8]])
    }
    private var startInstant: C.Instant?
    private var index = 0

    /// Opens a recording.
    /// - Parameters:
    ///   - path: a Y4M file, an MJPEG file or a folder of JPEG files.
    ///   - interval: the replay rate; the file's own rate (Y4M) or 10 fps when nil.
    ///   - loops: start again after the last frame instead of reporting `.timeout`.
    /// - Throws: `.badFile`, `.unsupportedFormat`, `.codec`, or the error of open.
    public init(path: String, interval: FrameInterval? = nil, loops: Bool = true, clock: C) throws(CameraError) {
        self.path = path
        self.clock = clock
        self.loops = loops
        let folder = Sys.listDirectory(path)
        if !folder.isEmpty || Sys.isDirectory(path) {
            let names = folder.filter { $0.lowercased().hasSuffix(".jpg") || $0.lowercased().hasSuffix(".jpeg") }
            var images: [[UInt8]] = []
            for name in names { images.append(try Sys.readFile(path + "/" + name).get()) }
            (storage, frameCount, mode) = try Self.jpegs(images, path: path, interval: interval)
            return
        }
        let fd = try Sys.open(path, flags: O_RDONLY).get()
        do throws(CameraError) {
            let head = try Sys.pread(fd, count: 512, offset: 0).get()
            if head.starts(with: [0xFF, 0xD8]) {
                Sys.close(fd)
                let all = try Sys.readFile(path).get()
                (storage, frameCount, mode) = try Self.jpegs(MJPEG.split(all), path: path, interval: interval)
                return
            }
            let (header, length) = try Y4MHeader.parse(head)
            storage = .y4m(header, firstFrameOffset: length)
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

    private static func jpegs(_ images: [[UInt8]], path: String, interval: FrameInterval?) throws(CameraError)
        -> (Storage, Int, CaptureMode)
    {
        guard let first = images.first else { throw CameraError(kind: .badFile, message: "\(path) holds no JPEG image") }
        let size = try CameraError.catching { () throws(ImagingError) in try JPEGCodec().size(of: first) }
        let mode = CaptureMode(format: .mjpeg, width: size.width, height: size.height, interval: interval ?? FrameInterval(fps: 10))
        return (.jpegs(images), images.count, mode)
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
        guard let start = startInstant, let mode else {
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
        let sequence = UInt32(truncatingIfNeeded: index)
        let timestamp = mode.interval.duration * Int(sequence)
        let frame: Frame
        switch storage {
        case .y4m(let header, let firstFrameOffset):
            // Frame headers are taken to be plain `FRAME` lines (no per-frame parameters).
            let stride = 6 + header.frameBytes
            let chunk = try Sys.pread(fd, count: stride, offset: firstFrameOffset + n * stride).get()
            guard chunk.count == stride, chunk.starts(with: Array("FRAME\n".utf8)) else {
                throw CameraError(kind: .badFile, message: "\(path): frame \(n) is damaged")
            }
            frame = header.frame(from: Array(chunk.dropFirst(6)), sequence: sequence, timestamp: timestamp)
        case .jpegs(let images):
            frame = Frame(format: .mjpeg, width: mode.width, height: mode.height, sequence: sequence, timestamp: timestamp, bytes: images[n])
        }
        index += 1
        statistics.record(sequence: sequence)
        return frame
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
