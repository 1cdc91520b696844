import Camera
import Capture
import Foundation
import Imaging
import Vision

/// The analysis of one input: each frame through the finder and the guidance, timed, and
/// the MRZ of each whole, flat enough document through the reader and the frames' agreement.
struct DocumentAnalysis {
    let finder: DocumentFinder
    let reader: MRZReader?
    let maximumTilt: Double
    private(set) var consensus = MRZConsensus()
    /// The same reads, one frame enough: what a still (one frame) can say.
    private var oneFrame = MRZConsensus.oneFrame

    /// For a still: its one read, if every check digit held.
    var singleReading: MRZConsensus? { oneFrame.accepted.isEmpty ? nil : oneFrame }
    private var guidance: DocumentGuidance
    private var stillGuidance: DocumentGuidance
    private(set) var frames: [DocumentFrameReport] = []

    init(finder: DocumentFinder, guidance: DocumentGuidance.Settings, reader: MRZReader?) {
        self.finder = finder
        self.reader = reader
        maximumTilt = guidance.maximumTilt
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
            let observation = try finder.observe(image, learning: !still)
            let state = still ? stillGuidance.observe(observation) : guidance.observe(observation)
            let elapsed = ContinuousClock.now - start
            var report = DocumentFrameReport(index: index, observation: observation, state: state, elapsed: elapsed)
            if let reader, let document = observation.document, document.whole, document.pose.tiltDegrees <= maximumTilt {
                let readStart = ContinuousClock.now
                let crop = try DocumentFinder.crop(image, document.quadrilateral, as: document.documentClass)
                let reading = reader.read(crop)
                report.mrzMilliseconds = DocumentFrameReport.milliseconds(ContinuousClock.now - readStart)
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
