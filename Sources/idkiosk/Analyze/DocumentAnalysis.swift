import Camera
import Foundation
import Imaging
import Vision

/// The analysis of one input: each frame through the finder and the guidance, timed.
struct DocumentAnalysis {
    let finder: DocumentFinder
    private var guidance: DocumentGuidance
    private var stillGuidance: DocumentGuidance
    private(set) var frames: [DocumentFrameReport] = []
    private let codec = JPEGCodec()
    private var luma = LumaImage()

    init(finder: DocumentFinder, guidance: DocumentGuidance.Settings) {
        self.finder = finder
        self.guidance = DocumentGuidance(settings: guidance)
        // A still stands for a document held still: one frame is enough.
        var still = guidance
        still.stillFrames = 1
        stillGuidance = DocumentGuidance(settings: still)
    }

    mutating func learn(_ background: LumaImage) throws {
        do {
            try finder.learnBackground(background, weight: 1)
        } catch {
            throw CommandFailure(.badInput, "the background cannot be learned: \(error)")
        }
    }

    mutating func analyseStill(_ image: LumaImage) {
        stillGuidance.reset()
        analyse(image, index: 0, still: true)
    }

    /// Reads frames until the recording ends (or `limit` frames from a camera).
    mutating func analyseStream(_ source: any FrameSource, limit: Int?) async throws {
        do throws(CameraError) {
            try await source.start()
        } catch {
            throw CommandFailure(error)
        }
        defer { source.stop() }
        let count = (source as? FileCamera<ImmediateClock>)?.framesInFile ?? limit ?? 150
        for index in 0..<count {
            let frame: Frame
            do throws(CameraError) {
                frame = try await source.nextFrame(timeout: .seconds(5))
            } catch {
                throw CommandFailure(error)
            }
            do {
                try PixelConversion.luma(of: frame, into: &luma, codec: codec)
            } catch {
                frames.append(DocumentFrameReport(index: index, error: "\(error)"))
                continue
            }
            analyse(luma, index: index, still: false)
        }
    }

    /// - Parameter still: a still on its own (learns nothing, one frame is still enough),
    ///   else a frame of a stream.
    private mutating func analyse(_ image: LumaImage, index: Int, still: Bool) {
        let start = ContinuousClock.now
        do {
            let observation = try finder.observe(image, learning: !still)
            let state = still ? stillGuidance.observe(observation) : guidance.observe(observation)
            let elapsed = ContinuousClock.now - start
            frames.append(DocumentFrameReport(index: index, observation: observation, state: state, elapsed: elapsed))
        } catch {
            frames.append(DocumentFrameReport(index: index, error: "\(error)"))
        }
    }
}
