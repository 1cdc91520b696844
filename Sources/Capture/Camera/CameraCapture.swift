import KioskTime
import Camera
import Imaging
import ScanFlow
public import Vision
public import Flash
public import Logging

/// The camera pipeline of a journey: frames from a V4L2 camera or a recording, run through
/// a ``DocumentCapture`` or a ``FaceCapture`` (one frame loop for both), a flash/no-flash
/// pair for a document's front, and a small preview for the display.
///
/// The captures take an image by themselves in the automatic modes (docFinder,
/// faceLiveness) and on the shutter in the manual ones. Time comes from the injected clock:
/// the pause after an image is a deadline the capture checks at every frame, and a
/// recording is paced on the same clock.
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
        /// How long frames are ignored after an image: the person turns the card over.
        public var sidePause: Duration
        /// How documents are found in frames.
        public var documentFinder = DocumentFinder.Settings()
        /// When a document counts as placed well enough to take.
        public var documentGuidance = DocumentGuidance.Settings()
        /// Frames in a row a document must be ready for before it is taken.
        public var documentReadyFrames = 3
        /// How long the side with the MRZ waits for two frames to agree on it.
        public var mrzTimeout: Duration = .seconds(4)
        /// How long the back of a card in `barcode` mode is looked at for its PDF417 before
        /// the capture gives up (the seeds' Z when the front is still shown, else the fallback).
        public var barcodeTimeout: Duration = .seconds(10)
        /// The folder of the vision models (the MRZ reader's); nil reads no MRZ.
        public var modelsFolder: String?
        /// Analysed frames per second under which automatic capture is given up for the
        /// fallback (manual) mode.
        public var minimumAnalysedFramesPerSecond = 4
        /// How faces are guided in the liveness capture, and its checks.
        public var faceGuidance = FaceGuidance.Settings()
        public var liveness = LivenessAnalyzer.Settings()
        /// The threshold and review band of the station's own face match (the chip's portrait
        /// against the best face image).
        public var faceMatch = FaceMatcher.Settings()
        /// How the faces are found.
        public var faceDetector = FaceDetector.Settings()

        public init(
            name: String, previewFramesPerSecond: Int = 5, previewWidth: Int = 640, stableFrames: Int = 3,
            minimumSharpness: Double = 100, brightness: ClosedRange<Double> = 50...220, frameTimeout: Duration = .seconds(1),
            loopRecordings: Bool = true, jpegQuality: Int = 90, sidePause: Duration = .milliseconds(1500)
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
            self.sidePause = sidePause
        }

        var gate: QualityGate.Settings {
            QualityGate.Settings(brightness: brightness, minimumSharpness: minimumSharpness, stableFrames: stableFrames)
        }

        var documentGate: DocumentGate.Settings {
            DocumentGate.Settings(guidance: documentGuidance, readyFrames: documentReadyFrames, mrzTimeout: mrzTimeout, barcodeTimeout: barcodeTimeout)
        }
    }

    let settings: Settings
    let camera: CameraSource
    let flash: Flash<ContinuousClock>?
    let preview: PreviewFeed
    let metrics: (any CaptureMetrics)?
    let clock: any Clock<Duration>
    let logger: Logger
    /// The camera's document finder: it keeps the learned platen from one capture to the next.
    let documentFinder: Result<DocumentFinder, VisionError>
    /// The MRZ reader, loaded once (nil when no models folder is configured).
    public let mrzReader: Result<MRZReader, MRZModelError>?
    /// How long loading the MRZ model took.
    public let mrzModelLoadTime: Duration
    /// The face models, loaded once (nil when no models folder is configured: the face is
    /// then taken by the quality gate alone, without liveness checks).
    public let faceModels: Result<FaceModels, FaceModelError>?

    /// - Parameters:
    ///   - flash: the LED for flash/no-flash pairs; nil captures without it.
    ///   - preview: where preview JPEGs go while someone watches.
    ///   - metrics: frames delivered and dropped, per run.
    ///   - clock: paces recordings and times the pause after an image and the preview.
    public init(
        settings: Settings, flash: Flash<ContinuousClock>?, preview: PreviewFeed, metrics: (any CaptureMetrics)? = nil,
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger
    ) {
        self.settings = settings
        self.camera = CameraSource(name: settings.name)
        self.flash = flash
        self.preview = preview
        self.metrics = metrics
        self.clock = clock
        self.logger = logger
        documentFinder = Result { () throws(VisionError) in try DocumentFinder(settings: settings.documentFinder) }
        let start = ContinuousClock.now
        mrzReader = settings.modelsFolder.map { folder in
            Result { () throws(MRZModelError) in MRZReader(model: try MRZModel(folder: folder)) }
        }
        mrzModelLoadTime = ContinuousClock.now - start
        faceModels = settings.modelsFolder.map { folder in Result { () throws(FaceModelError) in try FaceModels(folder: folder) } }
        if case .failure(let error) = faceModels {
            logger.error("the face models cannot be used: face parts are refused", metadata: ["error": "\(error)", "code": "\(error.code)"])
        }
        if case .failure(let error) = mrzReader {
            logger.error("the MRZ model cannot be used: documents are captured without a chip key from their MRZ", metadata: ["error": "\(error)", "code": "\(error.code)"])
        }
    }

    public func probe() async -> DeviceProbe {
        camera.probe(logger: logger)
    }

    public func watchPlaten(frames: Int) async {
        guard let finder = try? documentFinder.get() else { return }
        let source: any FrameSource
        do {
            source = try camera.open(for: .document, loops: settings.loopRecordings, clock: clock, logger: logger)
            try await source.start()
        } catch {
            logger.debug("the platen is not watched: the camera cannot be opened", metadata: ["error": "\(error.message)"])
            return
        }
        defer { source.stop() }
        var processor = FrameProcessor(jpegQuality: settings.jpegQuality, previewWidth: settings.previewWidth)
        for _ in 0..<frames where !Task.isCancelled {
            guard let frame = try? await source.nextFrame(timeout: settings.frameTimeout) else { return }
            // Learning as during a journey: a document left on the platen is never learned.
            _ = try? processor.observeDocument(frame, finder: finder, learning: true)
        }
    }

    public func capture(_ request: CaptureRequest, report: @escaping @Sendable (CaptureEvent) -> Void) async {
        let purpose: CapturePurpose = request.mode.isFace ? .face : .document
        if request.mode == .faceLiveness, case .failure(let error) = faceModels {
            report(.lost(reason: "face analysis cannot start: \(error)"))
            return
        }
        let source: any FrameSource
        do {
            let flash = self.flash
            source = try camera.open(for: purpose, loops: settings.loopRecordings, clock: clock, logger: logger) { await flash?.isOn ?? false }
            try await source.start()
        } catch {
            report(.lost(reason: "\(error.message)"))
            return
        }
        defer {
            metrics?.framesProcessed(source.statistics.framesDelivered, dropped: source.statistics.framesDropped)
            source.stop()
        }
        if request.mode == .faceLiveness, case .success(let models) = faceModels {
            await runLiveness(source: source, request: request, models: models, report: report)
        } else if purpose == .face {
            var face = FaceCapture(request: request, gate: settings.gate, pause: settings.sidePause)
            await run(&face, source: source, request: request, report: report) { processor, frame, _ in try processor.measure(frame) }
        } else {
            let finder: DocumentFinder
            switch documentFinder {
            case .success(let made): finder = made
            case .failure(let error):
                report(.lost(reason: "document analysis cannot start: \(error)"))
                return
            }
            let reader = try? mrzReader?.get()
            let guidance = settings.documentGuidance
            var gate = settings.documentGate
            gate.readsMRZ = reader != nil
            var document = DocumentCapture(request: request, gate: gate, sidePause: settings.sidePause)
            let barcodes = CardBarcodeReader()
            // The MRZ found first where the page's outline gives none (an open booklet).
            let analyzer = DocumentAnalyzer(finder: finder, reader: reader, guidance: guidance)
            await run(&document, source: source, request: request, report: report) { processor, frame, decisions in
                try processor.measureDocument(
                    frame, analyzer: analyzer, classes: decisions.classes, wantsMRZ: decisions.wantsMRZ,
                    barcodeReader: decisions.wantsBarcode ? barcodes : nil)
            }
        }
    }

    /// The frame loop: reads frames until cancelled, feeds the preview and `decisions`, and
    /// performs what they decide.
    /// - Parameter measure: what the decisions measure of a frame they ask to measure.
    private func run<Decisions: FrameDecisions>(
        _ decisions: inout Decisions, source: any FrameSource, request: CaptureRequest,
        report: @escaping @Sendable (CaptureEvent) -> Void,
        measure: (inout FrameProcessor, Frame, Decisions) throws -> Decisions.Measure
    ) async {
        var processor = FrameProcessor(jpegQuality: settings.jpegQuality, previewWidth: settings.previewWidth)
        let stopwatch = Stopwatch(clock)
        report(.started)
        var lastPreview = Duration.zero - .seconds(1)
        var pace = AnalysisPace(minimumFramesPerSecond: settings.minimumAnalysedFramesPerSecond)
        let previewInterval = Duration.milliseconds(1000 / max(1, settings.previewFramesPerSecond))
        while !Task.isCancelled {
            let frame: Frame
            do {
                frame = try await source.nextFrame(timeout: settings.frameTimeout)
            } catch {
                if Task.isCancelled { return }
                report(.lost(reason: "\(error.message)"))
                return
            }
            let now = stopwatch.elapsed
            publishPreview(frame, now: now, interval: previewInterval, last: &lastPreview, processor: &processor)
            var action = decisions.frame(at: now, shutter: request.trigger.hasPress, detectionPaused: request.trigger.isPaused)
            if action == .measure {
                do {
                    let measured = try measure(&processor, frame, decisions)
                    if pace.record(stopwatch.elapsed - now) {
                        logger.warning("the analysis cannot keep up with the camera: automatic capture is given up", metadata: ["floor": "\(pace.minimumFramesPerSecond) fps"])
                        report(.lowPerformance)
                    }
                    action = decisions.measured(measured)
                } catch {
                    logger.warning("frame could not be analysed", metadata: ["error": "\(error)"])
                    continue
                }
            }
            switch action {
            case .ignore, .measure:
                break
            case .report(let update):
                report(.update(update))
            case .giveUp(let failure):
                switch failure {
                case .hint(let error):
                    logger.notice("the document shown cannot be taken: the person is asked to turn it", metadata: ["code": "\(error.code)"])
                    report(.scanFailed(error))
                case .fallback:
                    logger.notice("no barcode could be read on the card's back: the fallback mode takes over")
                    report(.lowPerformance)
                }
            case .take(let shot):
                if shot.byShutter { _ = request.trigger.takePress() }
                do {
                    var shot = shot
                    let rejectReason = usability(&shot, frame: frame, processor: &processor)
                    var jpeg = try processor.encode(frame, region: shot.region)
                    if rejectReason == nil, request.keepFullFrame, shot.region != nil, let full = try? processor.encode(frame) {
                        report(.evidence(.fullFrame(side: shot.side, jpeg: full)))
                    }
                    if rejectReason == nil, shot.flashPair, let flash {
                        let unlit = shot.region.flatMap { try? processor.quality(frame, region: $0) }
                        if let lit = await flashImage(
                            after: frame, region: shot.region, finder: try? documentFinder.get(), source: source, flash: flash, processor: &processor, report: report)
                        {
                            report(.evidence(.frontWithFlash(jpeg: lit.jpeg)))
                            // The image of the front is the one whose glare leaves the MRZ and the photo clear.
                            if FlashPairChoice.prefersLit(unlit: unlit, lit: lit.quality) { jpeg = lit.jpeg }
                        }
                    }
                    if rejectReason == nil, let lines = shot.mrz { report(.evidence(.mrz(lines: lines))) }
                    if rejectReason == nil, let symbol = shot.barcode { report(.evidence(.barcode(.pdf417, bytes: symbol.bytes))) }
                    report(
                        .image(
                            CapturedImage(bytes: jpeg, side: shot.side, chipAccessKeys: shot.chipAccessKeys, rejectReason: rejectReason),
                            isLastOfSide: decisions.endsSide))
                    decisions.taken(at: stopwatch.elapsed)
                } catch {
                    logger.warning("frame could not be encoded", metadata: ["error": "\(error)"])
                    decisions.notTaken()
                }
            }
        }
    }

    /// Publishes a preview of `frame` when someone watches and `interval` has passed since the last.
    func publishPreview(_ frame: Frame, now: Duration, interval: Duration, last: inout Duration, processor: inout FrameProcessor) {
        guard now - last >= interval, preview.hasWatchers else { return }
        last = now
        if let jpeg = try? processor.previewJPEG(frame) { preview.publish(jpeg) }
    }

    /// The station's Instant Feedback on a document shot (``DocumentUsability``); a manual
    /// shot is looked at first, and its region found then is what is kept of it.
    private func usability(_ shot: inout Shot, frame: Frame, processor: inout FrameProcessor) -> RejectReason? {
        guard let info = shot.document, let finder = try? documentFinder.get() else { return nil }
        var observation: DocumentObservation?
        if shot.region == nil {
            guard let seen = try? processor.observeDocument(frame, finder: finder, learning: false, classes: info.classes) else { return nil }
            observation = seen
            if let document = seen.document, document.whole {
                shot.region = DocumentRegion(quadrilateral: document.quadrilateral, documentClass: document.documentClass)
            }
        }
        let quality = shot.region.flatMap { try? processor.quality(frame, region: $0) }
        return DocumentUsability.rejectReason(
            observation: observation, quality: quality, expectsMRZ: info.expectsMRZ ?? false, mrzSeen: info.mrzSeen,
            sharpness: settings.documentGuidance, page: shot.region?.documentClass.isPage ?? (info.classes == DocumentClass.pages))
    }
}
