import Camera
public import Flash
import Foundation
public import Logging
import MRTD
import ScanFlow
import Backend

/// The camera pipeline of a journey: frames from a V4L2 camera or a recording, a quality
/// gate that captures by itself in the automatic modes (docFinder, faceLiveness) and on the
/// shutter in the manual ones, a flash/no-flash pair for a document's front, and a small
/// preview for the display.
///
/// The quality gate measures brightness and sharpness (``Camera/LumaStatistics``); it does
/// not find the document's outline or a face (the DESIGN's `Vision` module is not built yet).
public struct CameraCapture: CaptureDevice {
    public struct Settings: Sendable {
        /// The camera by the names `idkiosk capture --camera` takes: a device name, or `file:PATH`.
        public var name: String
        public var previewFramesPerSecond: Int
        public var previewWidth: Int
        /// Frames in a row that must pass the gate before an automatic capture.
        public var stableFrames: Int
        /// The least sharpness (variance of the Laplacian of the luma) an automatic capture
        /// accepts. The reference backend rejects images below 50 on the same measure; a
        /// printed page in focus measures in the thousands, a face in the hundreds.
        public var minimumSharpness: Double
        /// Mean luma an automatic capture accepts (the reference backend's range).
        public var brightness: ClosedRange<Double>
        /// How long a wait for one frame may take before the camera counts as lost.
        public var frameTimeout: Duration
        /// Recordings loop (the demo) or end (a test of a camera that stops).
        public var loopRecordings: Bool
        public var jpegQuality: Int

        public init(
            name: String, previewFramesPerSecond: Int = 5, previewWidth: Int = 640, stableFrames: Int = 3,
            minimumSharpness: Double = 100, brightness: ClosedRange<Double> = 50...220, frameTimeout: Duration = .seconds(1),
            loopRecordings: Bool = true, jpegQuality: Int = 90
        ) {
            self.name = name
            self.previewFramesPerSecond = previewFramesPerSecond
            self.previewWidth = previewWidth
            self.stableFrames = stableFrames
            self.minimumSharpness = minimumSharpness
            self.brightness = brightness
            self.frameTimeout = frameTimeout
            self.loopRecordings = loopRecordings
            self.jpegQuality = jpegQuality
        }
    }

    let settings: Settings
    let flash: Flash<ContinuousClock>?
    let preview: PreviewFeed
    let metrics: StationMetrics
    let logger: Logger

    public init(settings: Settings, flash: Flash<ContinuousClock>?, preview: PreviewFeed, metrics: StationMetrics, logger: Logger) {
        self.settings = settings
        self.flash = flash
        self.preview = preview
        self.metrics = metrics
        self.logger = logger
    }

    var recordingPath: String? { settings.name.hasPrefix("file:") ? String(settings.name.dropFirst(5)) : nil }

    /// The recording for a purpose: a file as it is, or from a folder holding `document.*` and
    /// `face.*` recordings (what `idkiosk sim recordings` writes), the one that fits.
    func recording(for purpose: CapturePurpose) -> String? {
        guard let path = recordingPath else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return path }
        let stem = purpose == .face ? "face" : "document"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard let match = names.sorted().first(where: { $0.hasPrefix(stem + ".") && !$0.hasSuffix(".mrz") }) else { return path }
        return path + "/" + match
    }

    public func probe() async -> DeviceHealth {
        if let path = recordingPath {
            return FileManager.default.fileExists(atPath: path)
                ? DeviceHealth(name: "camera", ready: true)
                : DeviceHealth(name: "camera", ready: false, detail: "the recording \(path) is missing")
        }
        do {
            let camera = try V4L2Camera(name: settings.name.isEmpty ? firstCamera() : settings.name, logger: logger)
            camera.stop()
            return DeviceHealth(name: "camera", ready: true)
        } catch {
            return DeviceHealth(name: "camera", ready: false, detail: "\(error.message); run `idkiosk diag camera`")
        }
    }

    private func firstCamera() throws(CameraError) -> String {
        guard let first = CameraDiscovery.captureDevices().first else {
            throw CameraError(kind: .notFound, message: "no video capture device")
        }
        return first.preferredName
    }

    private func open(purpose: CapturePurpose) throws(CameraError) -> any FrameSource {
        if let path = recording(for: purpose) {
            return try FileCamera(path: path, loops: settings.loopRecordings, clock: ContinuousClock())
        }
        let camera = try V4L2Camera(name: settings.name.isEmpty ? firstCamera() : settings.name, logger: logger)
        _ = try camera.configure(for: purpose)
        return camera
    }

    public func capture(_ request: CaptureRequest, report: @escaping @Sendable (CaptureEvent) -> Void) async {
        let purpose: CapturePurpose = request.mode.isFace ? .face : .document
        let source: any FrameSource
        do {
            source = try open(purpose: purpose)
            try await source.start()
        } catch {
            report(.lost(reason: "\(error.message)"))
            return
        }
        defer {
            metrics.framesProcessed(source.statistics.framesDelivered, dropped: source.statistics.framesDropped)
            source.stop()
        }
        let mrz = purpose == .document ? mrzLines(recording: recording(for: .document)) : nil
        var pipeline = Pipeline(settings: settings, request: request, chipKey: Self.chipKey(mrz), mrz: mrz)
        report(.started)
        var lastPreview = ContinuousClock.now - .seconds(1)
        let previewInterval = Duration.milliseconds(1000 / max(1, settings.previewFramesPerSecond))
        var imagesTaken = 0
        while !Task.isCancelled {
            let frame: Frame
            do {
                frame = try await source.nextFrame(timeout: settings.frameTimeout)
            } catch {
                if Task.isCancelled { return }
                report(.lost(reason: "\(error.message)"))
                return
            }
            let now = ContinuousClock.now
            if now - lastPreview >= previewInterval, preview.hasWatchers {
                lastPreview = now
                if let jpeg = try? pipeline.previewJPEG(frame) { preview.publish(jpeg) }
            }
            let decision: Pipeline.Decision
            do {
                decision = try pipeline.judge(frame, shutter: request.trigger.takePress(), paused: request.trigger.isPaused)
            } catch {
                logger.warning("frame could not be analysed", metadata: ["error": "\(error)"])
                continue
            }
            switch decision {
            case .wait(let update):
                if let update { report(.update(update)) }
            case .capture:
                do {
                    let jpeg = try pipeline.encode(frame)
                    let side = Self.side(of: request.part, index: imagesTaken)
                    let isFront = side == .front && !request.mode.isFace
                    if isFront, request.useFlash, let flash {
                        if let lit = await flashImage(after: frame, source: source, flash: flash, pipeline: &pipeline, report: report) {
                            report(.evidence(.frontWithFlash, lit))
                        }
                    }
                    if isFront, imagesTaken == 0, let lines = pipeline.mrz, let body = try? JSONEncoder().encode(MrzData(lines: lines)) {
                        report(.evidence(.mrz, Array(body)))
                    }
                    imagesTaken += 1
                    report(.image(CapturedImage(bytes: jpeg, side: side, chipAccessKey: isFront ? pipeline.chipKey : nil), isLastOfSide: true))
                    pipeline.reset()
                    // Give the person time to turn the card over before the next side.
                    try? await Task.sleep(for: .milliseconds(1500))
                } catch {
                    logger.warning("frame could not be encoded", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// The flash half of a flash/no-flash pair (``Flash/FlashPair`` decides): the frame just
    /// taken is the no-flash one; light the LED, drop the frames that may have begun before it
    /// was lit, keep the next, switch off. Frame timestamps are the camera's clock, so the
    /// switch is placed conservatively at the next frame's time after the last frame seen.
    private func flashImage(
        after frame: Frame, source: any FrameSource, flash: Flash<ContinuousClock>, pipeline: inout Pipeline,
        report: @Sendable (CaptureEvent) -> Void
    ) async -> [UInt8]? {
        let period = source.mode?.interval.duration ?? .milliseconds(100)
        var pair = FlashPair(framePeriod: period, timeLimit: .seconds(2))
        var actions = pair.start(at: frame.timestamp) + pair.frameArrived(timestamp: frame.timestamp)
        var lastTimestamp = frame.timestamp
        var image: [UInt8]?
        while !pair.isFinished {
            var next: [FlashPair.Action] = []
            for action in actions {
                switch action {
                case .switchFlash(let state):
                    do {
                        if state == .on { try await flash.on() } else { try await flash.off() }
                    } catch {
                        logger.warning("flash failed; the document is captured without it", metadata: ["error": "\(error)"])
                        try? await flash.off()
                        return nil
                    }
                    report(.update(.flash(state.scanState)))
                    next += pair.flashSwitched(state, at: lastTimestamp + period)
                case .keepFlashFrame:
                    break
                case .dropFrame, .keepNoFlashFrame, .completed, .failed:
                    break
                }
            }
            actions = next
            if pair.isFinished { break }
            if !actions.isEmpty { continue }
            guard let lit = try? await source.nextFrame(timeout: settings.frameTimeout) else {
                try? await flash.off()
                report(.update(.flash(.off)))
                return nil
            }
            lastTimestamp = lit.timestamp
            actions = pair.frameArrived(timestamp: lit.timestamp)
            if actions.contains(.keepFlashFrame) { image = try? pipeline.encode(lit) }
            actions += pair.tick(now: lit.timestamp)
        }
        return image
    }

    static func side(of part: Credential.Part, index: Int) -> Credential.Part {
        switch part {
        case .multipart: index == 0 ? .front : .back
        default: part
        }
    }

    /// The chip key: for a recording, from its MRZ file beside it (the recording's annotation,
    /// `NAME.mrz`); a live camera needs the MRZ reader of the `Vision` module, not built yet.
    static func chipKey(_ lines: [String]?) -> ChipAccessKey? {
        guard let lines, let mrz = try? MRZ(lines.joined()) else { return nil }
        return .mrz(documentNumber: mrz.documentNumber, dateOfBirth: mrz.birthDate, dateOfExpiry: mrz.expiryDate)
    }

    func mrzLines(recording path: String?) -> [String]? {
        guard let path else { return nil }
        let base = (path as NSString).deletingPathExtension
        for candidate in [base + ".mrz", path + ".mrz"] {
            if let text = try? String(contentsOfFile: candidate, encoding: .utf8) {
                let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                return lines.isEmpty ? nil : lines
            }
        }
        return nil
    }
}

extension Scan.Mode {
    var isFace: Bool { self == .faceLiveness || self == .faceManual }
    var isAutomatic: Bool { self == .docFinder || self == .faceLiveness || self == .barcode }
}

/// The per-frame work of a capture, with buffers kept between frames.
struct Pipeline {
    enum Decision {
        case wait(Scan.Update?)
        case capture
    }

    let settings: CameraCapture.Settings
    let request: CaptureRequest
    let chipKey: ChipAccessKey?
    let mrz: [String]?
    private var luma = LumaImage()
    private var rgb = RGBImage()
    private var small = RGBImage()
    private let codec = JPEGCodec()
    private var goodFrames = 0
    private var lastUpdate: Scan.Update?

    init(settings: CameraCapture.Settings, request: CaptureRequest, chipKey: ChipAccessKey?, mrz: [String]?) {
        self.settings = settings
        self.request = request
        self.chipKey = chipKey
        self.mrz = mrz
    }

    mutating func reset() {
        goodFrames = 0
        lastUpdate = nil
    }

    mutating func judge(_ frame: Frame, shutter: Bool, paused: Bool) throws(CameraError) -> Decision {
        if shutter { return .capture }
        guard request.mode.isAutomatic, !paused else { return .wait(nil) }
        try PixelConversion.luma(of: frame, into: &luma, codec: codec)
        let statistics = LumaStatistics(luma)
        let update: Scan.Update
        if !settings.brightness.contains(statistics.meanLuma) {
            update = request.mode.isFace ? .extractionState(.centerFace) : .extractionState(.centerId)
            goodFrames = 0
        } else if statistics.laplacianVariance < settings.minimumSharpness {
            update = .extractionState(.holdStill)
            goodFrames = 0
        } else {
            goodFrames += 1
            update = .extractionState(.holdStill)
            if goodFrames >= settings.stableFrames { return .capture }
        }
        defer { lastUpdate = update }
        return .wait(update == lastUpdate ? nil : update)
    }

    mutating func encode(_ frame: Frame) throws(CameraError) -> [UInt8] {
        if frame.format.isCompressed { return frame.bytes }
        try PixelConversion.rgb(of: frame, into: &rgb, codec: codec)
        return try codec.encode(rgb, quality: settings.jpegQuality)
    }

    /// A JPEG at preview size (never the full-resolution capture).
    mutating func previewJPEG(_ frame: Frame) throws(CameraError) -> [UInt8] {
        try PixelConversion.rgb(of: frame, into: &rgb, codec: codec)
        Self.downscale(rgb, toWidth: settings.previewWidth, into: &small)
        return try codec.encode(small, quality: 70)
    }

    /// Nearest-neighbour downscale into a reused buffer.
    static func downscale(_ image: RGBImage, toWidth width: Int, into out: inout RGBImage) {
        guard image.width > width, image.width > 0 else {
            out = image
            return
        }
        let height = max(1, image.height * width / image.width)
        if out.width != width || out.height != height { out = RGBImage(width: width, height: height) }
        image.pixels.withUnsafeBufferPointer { source in
            out.pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let sy = y * image.height / height
                    for x in 0..<width {
                        let sx = x * image.width / width
                        let s = (sy * image.width + sx) * 3
                        let t = (y * width + x) * 3
                        target[t] = source[s]
                        target[t + 1] = source[s + 1]
                        target[t + 2] = source[s + 2]
                    }
                }
            }
        }
    }
}
