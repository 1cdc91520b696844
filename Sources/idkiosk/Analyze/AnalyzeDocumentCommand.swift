import ArgumentParser
import Camera
import Capture
import Foundation
import Imaging
import Logging
import Station
import Vision

/// `idkiosk analyze document INPUT...`: the document analysis of the station, frame by frame.
struct AnalyzeDocumentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "document",
        abstract: "Find the document in each frame and say what the station would tell the person.",
        discussion: """
            INPUT is a JPEG or PNG still, a Y4M or MJPEG recording, a folder of recordings \
            (document.* is taken), or a camera (/dev/videoN, card:NAME, bus:POSITION). For \
            each frame: the guidance, the document's class and corners, its tilt and \
            rotation, the sharpness and glare of its region, and the milliseconds the \
            analysis took. The thresholds are the configuration's (vision.document, \
            docs/vision.md). Stills are analysed each on its own (with --background, against \
            that empty-station still; else by their edges); a recording or camera learns the \
            empty platen from its own first frames, as the station does. Exits 0 when every \
            input was analysed, 64 for an input that cannot be read, 69 when a camera is \
            missing, 74 when it fails.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Stills, recordings or cameras.")
    var inputs: [String]

    @Option(name: .long, help: "A still of the empty station to find documents in stills against.")
    var background: String?

    @Option(name: .long, help: "Frames to take from a camera (1-3000).")
    var frames = 150

    @Option(name: .long, help: "The folder of the vision models (default: vision.models).")
    var models: String?

    @Flag(name: .long, help: "Print the MRZ lines read (personal data: only where the person agreed).")
    var showData = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one INPUT") }
        guard (1...3000).contains(frames) else { throw ValidationError("--frames must be 1 to 3000") }
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            var settings = CameraCapture.Settings(name: "")
            configuration.vision.document.apply(to: &settings)
            let backgroundImage = try background.map { try Self.still($0) }
            let reader: MRZReader?
            do throws(MRZModelError) {
                reader = MRZReader(model: try MRZModel(folder: models ?? configuration.vision.models))
            } catch {
                FileHandle.standardError.write(Data("idkiosk: the MRZ is not read: \(error)\nhint: make vision-models, or --models DIR\n".utf8))
                reader = nil
            }
            var reports: [DocumentAnalysisReport] = []
            for input in inputs {
                let finder: DocumentFinder
                do {
                    finder = try DocumentFinder(settings: settings.documentFinder)
                } catch {
                    throw CommandFailure(.internalError, "document analysis cannot start: \(error)")
                }
                var analysis = DocumentAnalysis(finder: finder, guidance: settings.documentGuidance, reader: reader)
                if Self.isStill(input) {
                    if let backgroundImage { try analysis.learn(backgroundImage) }
                    analysis.analyseStill(try Self.still(input))
                } else {
                    try await analysis.analyseStream(try Self.open(input, logger: logger), limit: Self.isDevice(input) ? frames : nil)
                }
                // A still is one frame: its read alone counts.
                var consensus = analysis.consensus
                if Self.isStill(input), consensus.accepted.isEmpty, let only = analysis.singleReading { consensus = only }
                reports.append(
                    DocumentAnalysisReport(
                        input: input, frames: analysis.frames, chipKeyRead: consensus.nextKey != nil,
                        mrzLines: showData ? consensus.accepted.map(\.lines) : nil))
                if !global.json { Output.text(reports[reports.count - 1].lines) }
            }
            if global.json { try Output.json(reports) }
        }
    }

    static func isStill(_ input: String) -> Bool {
        let lower = input.lowercased()
        return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") || lower.hasSuffix(".png")
    }

    static func isDevice(_ input: String) -> Bool {
        input.hasPrefix("/dev/") || input.hasPrefix("card:") || input.hasPrefix("bus:")
    }

    /// A still's luma.
    /// - Throws: `CommandFailure` 64 when it cannot be read or decoded.
    static func still(_ path: String) throws -> LumaImage {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(.badInput, "cannot read \(path)") }
        let bytes = [UInt8](data)
        do {
            if PNGCodec.isPNG(bytes) { return try PNGCodec.decodeLuma(bytes) }
            var image = LumaImage()
            try JPEGCodec(fastDecode: false).decodeLuma(bytes, into: &image)
            return image
        } catch {
            throw CommandFailure(.badInput, "\(path) is not a readable JPEG or PNG image: \(error)")
        }
    }

    /// A recording, played as fast as it decodes, or a camera in its document mode.
    static func open(_ input: String, logger: Logger) throws -> any FrameSource {
        if !isDevice(input), !FileManager.default.fileExists(atPath: input) { throw CommandFailure(.badInput, "\(input) does not exist") }
        let source = isDevice(input) ? CameraSource.device(input) : CameraSource.recording(input)
        do throws(CameraError) {
            return try source.open(for: .document, loops: false, clock: ImmediateClock(), logger: logger)
        } catch {
            throw CommandFailure(error)
        }
    }
}
