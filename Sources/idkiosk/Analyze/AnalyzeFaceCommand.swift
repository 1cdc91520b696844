import ArgumentParser
import Camera
import Capture
import Foundation
import Imaging
import Logging
import Vision

/// `idkiosk analyze face INPUT...`: the face analysis of the station, frame by frame.
struct AnalyzeFaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "face",
        abstract: "Find the face in each frame and say what the station would tell the person.",
        discussion: """
            INPUT is a JPEG or PNG still, a Y4M or MJPEG recording, a folder of recordings \
            (face.* is taken), or a camera (/dev/videoN, card:NAME, bus:POSITION). For each \
            frame: the guidance, the face's box and five landmarks, its roll and yaw, the \
            brightness and sharpness of its box, and the milliseconds the analysis took. \
            With --led (the LED's state in each frame of a recording: 1 lit, 0 dark, - \
            switching; or @FILE holding that), a recording is also judged for liveness: the \
            light's answer, the relief and the parallax of a head turn, the score and the \
            decision (docs/faces.md). Without the face models there are no landmarks. \
            Exits 0 when every input was analysed, 64 for an input that cannot be read, 69 \
            when a camera is missing, 74 when it fails.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Stills, recordings or cameras.")
    var inputs: [String]

    @Option(name: .long, help: "Frames to take from a camera (1-3000).")
    var frames = 90

    @Option(name: .long, help: "The folder of the vision models (default: vision.models).")
    var models: String?

    @Option(name: .long, help: "The LED's state per frame of a recording (1, 0, -), or @FILE.")
    var led: String?

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one INPUT") }
        guard (1...3000).contains(frames) else { throw ValidationError("--frames must be 1 to 3000") }
        if let led, !led.hasPrefix("@"), led.contains(where: { !"01-".contains($0) }) {
            throw ValidationError("--led takes 1, 0 and - for each frame, or @FILE")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            let folder = models ?? configuration.vision.models
            let faceModels: FaceModels?
            do throws(FaceModelError) {
                faceModels = try FaceModels(folder: folder)
            } catch {
                FileHandle.standardError.write(Data("idkiosk: no landmarks: \(error)\nhint: make vision-models, or --models DIR\n".utf8))
                faceModels = nil
            }
            let states = try ledStates()
            var reports: [FaceAnalysisReport] = []
            for input in inputs {
                let detector: FaceDetector
                do {
                    detector = try FaceDetector(models: faceModels)
                } catch {
                    throw CommandFailure(.internalError, "face analysis cannot start: \(error)")
                }
                var analysis = FaceAnalysis(detector: detector, led: states)
                if AnalyzeDocumentCommand.isStill(input) {
                    analysis.analyseStill(try AnalyzeDocumentCommand.still(input))
                } else {
                    try await analysis.analyseStream(
                        try Self.open(input, logger: logger), limit: AnalyzeDocumentCommand.isDevice(input) ? frames : nil)
                }
                reports.append(FaceAnalysisReport(input: input, frames: analysis.frames, liveness: analysis.liveness))
                analysis.wipe()
                if !global.json { Output.text(reports[reports.count - 1].lines) }
            }
            if global.json { try Output.json(reports) }
        }
    }

    /// The LED's state per frame from --led: true lit, false dark, nil switching.
    func ledStates() throws -> [Bool?]? {
        guard var text = led else { return nil }
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(.badInput, "cannot read \(path)") }
            text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
            guard !text.contains(where: { !"01-".contains($0) }) else {
                throw CommandFailure(.badInput, "\(path) must hold only 1, 0 and - (one per frame)")
            }
        }
        return text.map { $0 == "-" ? nil : $0 == "1" }
    }

    /// A recording, played as fast as it decodes, or a camera in its face mode.
    static func open(_ input: String, logger: Logger) throws -> any FrameSource {
        if !AnalyzeDocumentCommand.isDevice(input), !FileManager.default.fileExists(atPath: input) {
            throw CommandFailure(.badInput, "\(input) does not exist")
        }
        let source = AnalyzeDocumentCommand.isDevice(input) ? CameraSource.device(input) : CameraSource.recording(input)
        do throws(CameraError) {
            return try source.open(for: .face, loops: false, clock: ImmediateClock(), logger: logger)
        } catch {
            throw CommandFailure(error)
        }
    }
}

/// The analysis of one input: each frame through the detector and the guidance, timed, and
/// with the LED's states the liveness checks over the whole recording.
struct FaceAnalysis {
    let detector: FaceDetector
    let led: [Bool?]?
    private var guidance = FaceGuidance()
    private var analyzer = LivenessAnalyzer()
    private(set) var frames: [FaceFrameReport] = []

    init(detector: FaceDetector, led: [Bool?]?) {
        self.detector = detector
        self.led = led
    }

    var liveness: LivenessResult? { led == nil ? nil : analyzer.result() }

    mutating func analyseStill(_ image: LumaImage) {
        var still = FaceGuidance.Settings()
        still.stillFrames = 1
        guidance = FaceGuidance(settings: still)
        analyse(image, index: 0)
    }

    mutating func analyseStream(_ source: any FrameSource, limit: Int?) async throws {
        try await AnalysisStream.eachLuma(source, limit: limit, defaultCount: 90) { index, luma in
            switch luma {
            case .success(let image): analyse(image, index: index)
            case .failure(let error): frames.append(FaceFrameReport(index: index, error: "\(error)"))
            }
        }
    }

    private mutating func analyse(_ image: LumaImage, index: Int) {
        let start = ContinuousClock.now
        do {
            let observation = try detector.observe(image)
            let state = guidance.observe(observation)
            frames.append(FaceFrameReport(index: index, observation: observation, state: state, elapsed: ContinuousClock.now - start))
            if let led, let face = observation.face {
                analyzer.add(image, face: face, lit: index < led.count ? led[index] : nil)
            }
        } catch {
            frames.append(FaceFrameReport(index: index, error: "\(error)"))
        }
    }

    /// Forgets the frames kept for the parallax check (they show a face).
    mutating func wipe() {
        analyzer.wipe()
    }
}
