import Camera
import Capture
import Foundation
import Imaging
import Vision

/// The analysis of one input: each frame through the station's own analysis
/// (``DocumentAnalyzer``: the outline, the MRZ of its crop, the MRZ found first) and the
/// guidance, timed, and the MRZ read through the frames' agreement.
struct DocumentAnalysis {
    let analyzer: DocumentAnalyzer
    private(set) var consensus = MRZConsensus()
    /// The same reads, one frame enough: what a still (one frame) can say.
    private var oneFrame = MRZConsensus.oneFrame

    /// For a still: its one read, if every check digit held.
    var singleReading: MRZConsensus? { oneFrame.accepted.isEmpty ? nil : oneFrame }
    private var guidance: DocumentGuidance
    private var stillGuidance: DocumentGuidance
    private(set) var frames: [DocumentFrameReport] = []

    init(finder: DocumentFinder, guidance: DocumentGuidance.Settings, reader: MRZReader?) {
        analyzer = DocumentAnalyzer(finder: finder, reader: reader, guidance: guidance)
        self.guidance = DocumentGuidance(settings: guidance)
        // A still stands for a document held still: one frame is enough.
        var still = guidance
        still.stillFrames = 1
        stillGuidance = DocumentGuidance(settings: still)
    }

    mutating func learn(_ background: LumaImage) throws {
        do {
            try analyzer.finder.learnBackground(background, weight: 1)
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
        try await AnalysisStream.eachLuma(source, limit: limit, defaultCount: 150) { index, luma in
            switch luma {
            case .success(let image): analyse(image, index: index, still: false)
            case .failure(let error): frames.append(DocumentFrameReport(index: index, error: "\(error)"))
            }
        }
    }

    /// - Parameter still: a still on its own (learns nothing, one frame is still enough),
    ///   else a frame of a stream.
    private mutating func analyse(_ image: LumaImage, index: Int, still: Bool) {
        let start = ContinuousClock.now
        do {
            let measured = try analyzer.analyse(image, learning: !still)
            let observation = measured.observation
            let state = still ? stillGuidance.observe(observation) : guidance.observe(observation)
            let elapsed = ContinuousClock.now - start
            var report = DocumentFrameReport(index: index, observation: observation, state: state, elapsed: elapsed)
            if measured.mrzLookedFor {
                let reading = measured.mrz
                report.mrz = reading == nil ? "none" : reading!.allCheckDigitsHold ? "read" : "check digits fail"
                if let reading, reading.upsideDown { report.mrz! += ", upside down" }
                consensus.add(reading)
                oneFrame.add(reading)
            }
            frames.append(report)
        } catch {
            frames.append(DocumentFrameReport(index: index, error: "\(error)"))
        }
    }
}
