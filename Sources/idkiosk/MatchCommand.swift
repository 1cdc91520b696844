import ArgumentParser
import Foundation
import Imaging
import Vision

/// `idkiosk match IMAGE IMAGE`: whether two face images show one person.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Say whether two face images show the same person.",
        discussion: """
            Each IMAGE is a JPEG, PNG or JPEG 2000 file (a chip's DG2 portrait, a frame of \
            the camera). The surest face of each is aligned from its five landmarks and \
            described by dlib's face recognition network; the distance of the two \
            descriptions gives the similarity and the decision: match, review (within the \
            band around the threshold) or noMatch (docs/faces.md). Exits 0 for a match, 65 \
            for review or noMatch, 64 when an image cannot be read or shows no face, 78 \
            when the face models are missing.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Two face images.")
    var images: [String]

    @Option(name: .long, help: "The folder of the vision models (default: vision.models).")
    var models: String?

    @Option(name: .long, help: "Distances below this are one person (default 0.6).")
    var threshold: Double?

    func validate() throws {
        guard images.count == 2 else { throw ValidationError("give exactly two images") }
        if let threshold, !(0.1...2).contains(threshold) { throw ValidationError("--threshold must be 0.1 to 2") }
    }

    struct Report: Encodable {
        var images: [String]
        var distance: Double
        var similarity: Double
        var decision: String
        var threshold: Double
        var reviewBand: Double
        var milliseconds: Double
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, _) = try global.start()
            let folder = models ?? configuration.vision.models
            let faceModels: FaceModels
            do throws(FaceModelError) {
                faceModels = try FaceModels(folder: folder)
            } catch {
                throw CommandFailure(.badConfiguration, "\(error)", hint: "make vision-models, or --models DIR")
            }
            var settings = FaceMatcher.Settings()
            if let threshold { settings.threshold = threshold }
            let start = ContinuousClock.now
            var embeddings: [FaceEmbedding] = []
            for path in images { embeddings.append(try Self.embedding(path, models: faceModels)) }
            let result = FaceMatcher(settings: settings).compare(embeddings[0], embeddings[1])
            for i in embeddings.indices { embeddings[i].wipe() }
            let report = Report(
                images: images, distance: DocumentFrameReport.rounded(result.distance, 4),
                similarity: DocumentFrameReport.rounded(result.similarity, 3), decision: result.decision.rawValue,
                threshold: settings.threshold, reviewBand: settings.reviewBand,
                milliseconds: DocumentFrameReport.milliseconds(ContinuousClock.now - start))
            if global.json {
                try Output.json(report)
            } else {
                Output.text(["\(report.decision): distance \(report.distance), similarity \(report.similarity) (threshold \(settings.threshold) ± \(settings.reviewBand)); \(report.milliseconds) ms"])
            }
            if result.decision != .match { throw CommandFailure(.verificationFailed, "the faces are not a match (\(result.decision.rawValue))") }
        }
    }

    /// The embedding of the surest face in the image at `path`.
    static func embedding(_ path: String, models: FaceModels) throws -> FaceEmbedding {
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure(.badInput, "cannot read \(path)") }
        var image: RGBImage
        do {
            image = try ImageFile.decodeRGB([UInt8](data))
        } catch {
            throw CommandFailure(.badInput, "\(path) is not a readable JPEG, PNG or JPEG 2000 image: \(error)")
        }
        defer { image.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let found: FaceEmbedding?
        do {
            found = try models.embedding(ofSurestFaceIn: image, detector: try FaceDetector(models: models))
        } catch {
            throw CommandFailure(.internalError, "the face in \(path) cannot be described: \(error)")
        }
        guard let found else { throw CommandFailure(.badInput, "no face found in \(path)", hint: "a frontal face at least 40 pixels wide is needed") }
        return found
    }
}
