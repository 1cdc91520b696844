public import Imaging
import KioskTime
public import Logging

/// The library side of `idkiosk diag camera`, `capture --out` and `capture --record`.
/// The command line formats the reports; nothing here prints.
public enum CameraDiagnostics {
    /// Examines every video node.
    /// - Parameters:
    ///   - streamCheckFrames: frames to read from each capture device in its preview
    ///     mode; 0 skips the stream check.
    ///   - timeout: the limit for each frame of the stream check.
    public static func report(
        deviceDirectory: String = "/dev", streamCheckFrames: Int = 0, timeout: Duration = .seconds(2), logger: Logger
    ) -> CameraDiagnosticReport {
        let devices = CameraDiscovery.list(deviceDirectory: deviceDirectory).map { info in
            guard info.isCapture else { return CameraDiagnosticReport.Device(info: info) }
            do throws(CameraError) {
                let camera = try V4L2Camera(name: info.path, logger: logger)
                return examine(camera, info: info, streamCheckFrames: streamCheckFrames, timeout: timeout)
            } catch {
                return CameraDiagnosticReport.Device(info: info, error: .init(error))
            }
        }
        return CameraDiagnosticReport(devices: devices)
    }

    static func examine(_ camera: V4L2Camera, info: CaptureDeviceInfo, streamCheckFrames: Int, timeout: Duration) -> CameraDiagnosticReport.Device {
        var device = CameraDiagnosticReport.Device(info: info)
        do throws(CameraError) {
            device.modes = try camera.modes()
            let controls = try camera.controls()
            let stationByID = Dictionary(ControlMapping.resolveAll(controls).map { ($0.value.id, $0.key) }, uniquingKeysWith: { a, _ in a })
            device.controls = controls.map { c in
                .init(station: stationByID[c.id], info: c, current: c.type == .other ? nil : (try? camera.rawValue(controlID: c.id)).map(Int64.init))
            }
            for purpose in CapturePurpose.allCases {
                if let mode = negotiateMode(device.modes, for: purpose) { device.negotiated[purpose.rawValue] = mode }
            }
            if streamCheckFrames > 0, let mode = device.negotiated[CapturePurpose.preview.rawValue] {
                device.streamCheck = streamCheck(camera, mode: mode, frames: streamCheckFrames, timeout: timeout)
            }
        } catch {
            device.error = .init(error)
        }
        return device
    }

    /// Reads `frames` frames in `mode` and measures them.
    public static func streamCheck(_ camera: V4L2Camera, mode: CaptureMode, frames: Int, timeout: Duration) -> CameraDiagnosticReport.StreamCheck {
        var delivered: [Frame] = []
        var failure: CameraError?
        let codec = JPEGCodec()
        var luma = LumaImage()
        do throws(CameraError) {
            try camera.configure(mode)
            try camera.startStreaming()
            for _ in 0..<frames { delivered.append(try camera.readFrame(timeout: timeout)) }
        } catch {
            failure = error
        }
        camera.stop()
        var fps: Double?
        if let first = delivered.first, let last = delivered.last, delivered.count > 1, last.timestamp > first.timestamp {
            let span = last.timestamp - first.timestamp
            let seconds = span.inSeconds
            fps = Double(last.sequence - first.sequence) / seconds
        }
        var meanLuma: Double?
        var sharpness: Double?
        if let last = delivered.last, (try? PixelConversion.luma(of: last, into: &luma, codec: codec)) != nil, !luma.pixels.isEmpty {
            meanLuma = Double(luma.pixels.reduce(0) { $0 + Int($1) }) / Double(luma.pixels.count)
            sharpness = Self.sharpness(of: luma)
        }
        return .init(
            mode: camera.mode ?? mode, framesRequested: frames, framesDelivered: delivered.count,
            framesDropped: camera.statistics.framesDropped, timeouts: camera.statistics.timeouts,
            measuredFramesPerSecond: fps, meanLuma: meanLuma, sharpness: sharpness, error: failure.map { .init($0) })
    }

    /// The variance of the 4-neighbour Laplacian of `image`: a focus measure that grows
    /// with edge contrast. Nil for images smaller than 3x3.
    public static func sharpness(of image: LumaImage) -> Double? {
        let w = image.width, h = image.height
        guard w >= 3, h >= 3 else { return nil }
        var sum = 0.0, sumOfSquares = 0.0
        image.pixels.withUnsafeBufferPointer { p in
            for y in 1..<(h - 1) {
                let row = y * w
                for x in 1..<(w - 1) {
                    let i = row + x
                    let l = Int(p[i - 1]) + Int(p[i + 1]) + Int(p[i - w]) + Int(p[i + w]) - 4 * Int(p[i])
                    let d = Double(l)
                    sum += d
                    sumOfSquares += d * d
                }
            }
        }
        let n = Double((w - 2) * (h - 2))
        let mean = sum / n
        return sumOfSquares / n - mean * mean
    }

    /// Takes one still as JPEG from any frame source (a recording replayed by
    /// `FileCamera`, for demos and tests): starts it, drops `warmupFrames`, encodes the
    /// next frame (MJPEG frames are kept as they are).
    /// - Parameter name: the name the report gives the source.
    /// - Returns: the JPEG bytes and what was done.
    public static func captureStill(
        from source: some FrameSource, name: String, quality: Int = 90, warmupFrames: Int = 0, timeout: Duration = .seconds(2)
    ) async throws(CameraError) -> (jpeg: [UInt8], report: CaptureReport) {
        try await source.start()
        defer { source.stop() }
        for _ in 0..<warmupFrames { _ = try await source.nextFrame(timeout: timeout) }
        let frame = try await source.nextFrame(timeout: timeout)
        let jpeg = try Self.jpeg(of: frame, quality: quality)
        let mode = source.mode ?? CaptureMode(format: frame.format, width: frame.width, height: frame.height, interval: FrameInterval(fps: 10))
        return (jpeg, CaptureReport(
            camera: name, mode: mode, sequence: frame.sequence,
            timestampNanoseconds: frame.timestamp.wholeNanoseconds,
            warmupFrames: warmupFrames, jpegBytes: jpeg.count, quality: quality))
    }

    /// Takes one still for `purpose` as JPEG: negotiates, streams, drops `warmupFrames`
    /// frames while exposure settles, encodes the next.
    /// - Returns: the JPEG bytes and what was done.
    public static func captureStill(
        _ camera: V4L2Camera, purpose: CapturePurpose = .document, quality: Int = 90, warmupFrames: Int = 5,
        timeout: Duration = .seconds(2)
    ) throws(CameraError) -> (jpeg: [UInt8], report: CaptureReport) {
        let mode = try camera.configure(for: purpose)
        try camera.startStreaming()
        defer { camera.stop() }
        for _ in 0..<warmupFrames { _ = try camera.readFrame(timeout: timeout) }
        let frame = try camera.readFrame(timeout: timeout)
        let jpeg = try Self.jpeg(of: frame, quality: quality)
        return (jpeg, CaptureReport(
            camera: camera.name, mode: mode, sequence: frame.sequence,
            timestampNanoseconds: frame.timestamp.wholeNanoseconds,
            warmupFrames: warmupFrames, jpegBytes: jpeg.count, quality: quality))
    }

    /// A still's JPEG: MJPEG frames as they are, raw frames converted and encoded.
    private static func jpeg(of frame: Frame, quality: Int) throws(CameraError) -> [UInt8] {
        if frame.format.isCompressed { return frame.bytes }
        return try CameraError.catching { () throws(ImagingError) in
            var rgb = RGBImage()
            try PixelConversion.rgb(of: frame, into: &rgb)
            return try JPEGCodec().encode(rgb, quality: quality)
        }
    }

    /// Records `frames` raw frames to a Y4M file that `FileCamera` replays.
    /// - Parameter mode: a raw mode (YUYV, NV12, I420 or GREY); the camera's preview
    ///   mode among those when nil.
    public static func record(
        _ camera: V4L2Camera, to path: String, frames: Int, mode: CaptureMode? = nil, timeout: Duration = .seconds(2)
    ) throws(CameraError) -> RecordingReport {
        let chosen: CaptureMode
        if let mode {
            chosen = mode
        } else {
            let raw = try camera.modes().filter { Y4MHeader.colorSpace(for: $0.format) != nil }
            guard let best = negotiateMode(raw, for: .preview) else {
                throw CameraError(kind: .noSuitableMode, message: "\(camera.info.card) offers no raw mode to record as Y4M")
            }
            chosen = best
        }
        let actual = try camera.configure(chosen)
        let writer = try Y4MWriter(path: path, mode: actual)
        try camera.startStreaming()
        defer { camera.stop() }
        for _ in 0..<frames { try writer.append(try camera.readFrame(timeout: timeout)) }
        return RecordingReport(camera: camera.name, path: path, mode: actual, framesWritten: writer.framesWritten, statistics: camera.statistics)
    }
}
