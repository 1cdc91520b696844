import KioskTestKit
import Testing
import Vision

/// The page finder and its usability gate on the generated paper scenes
/// (`scripts/vision-data/paper`, docs/vision-data.md). Tuning is done on train only; the
/// held-out split (other templates, backgrounds and seeds) must reach the product's
/// requirements below, and beat the field's usual OpenCV finder on the same frames.
@Suite(.enabled(if: VisionDataSet.paper() != nil, "needs \(VisionDataSet.paperMissing)"))
struct PaperDataTests {
    /// What a station needs of a page finder: nearly every whole page found, its corners
    /// within a small part of the page (the crop is read), the paper size right, nothing
    /// taken as a page where none lies (an ID document, a phone, a hand), and a gate that
    /// takes usable pages and hardly ever an unusable one (a blurred, tilted, cut page goes
    /// to the backend and is read by nobody).
    ///
    /// Changed after the first held-out run: "a page reported where none lies at most 5 %"
    /// became "none taken". Train (1 of 14) and held-out (1 of 16) each showed an ID-3
    /// passport page on the platen reported as an A4 page (the same shape; the finder has no
    /// scale to tell them apart), which the gate never takes (it lies far too small: "move
    /// closer"). docs/vision.md reports both figures.
    struct Requirements {
        static let foundRate = 0.95
        static let medianCornerError = 0.005
        static let p95CornerError = 0.02
        static let classRate = 0.95
        static let gateRecall = 0.85
        static let gateFalseReadyRate = 0.05
    }

    @Test func theTrainSplitsFiguresForTuning() async throws {
        let data = try #require(VisionDataSet.paper())
        let evaluation = try await onOwnThread { try PageEvaluation.run(data, split: .train) }
        for line in evaluation.summary { print("paper train: \(line)") }
        for line in evaluation.gateDisagreements { print("paper train: \(line)") }
        #expect(evaluation.ours.wholePages >= 50)
    }

    @Test func theHeldOutPagesMeetTheRequirementsAndBeatTheBaseline() async throws {
        try await Self.meetsTheRequirements(split: .heldout)
    }

    /// The same requirements on the sealed split: the held-out looks with new seeds, made
    /// after the requirement above had been changed on seeing the held-out split, and
    /// measured once with the finder and the requirements as they stood.
    @Test func theSealedPagesMeetTheRequirementsAndBeatTheBaseline() async throws {
        try await Self.meetsTheRequirements(split: .sealed)
    }

    static func meetsTheRequirements(split: VisionDataSet.Split) async throws {
        let data = try #require(VisionDataSet.paper())
        let evaluation = try await onOwnThread { try PageEvaluation.run(data, split: split) }
        for line in evaluation.summary { print("paper \(split): \(line)") }
        let ours = evaluation.ours
        #expect(ours.wholePages >= 50)
        #expect(evaluation.withoutPage >= 5)
        #expect(evaluation.labelledReady >= 30)
        #expect(ours.foundRate >= Requirements.foundRate)
        #expect(ours.medianCornerError <= Requirements.medianCornerError)
        #expect(ours.p95CornerError <= Requirements.p95CornerError)
        #expect(Double(ours.classRight) / Double(max(1, ours.found)) >= Requirements.classRate)
        #expect(evaluation.takenWithoutPage.isEmpty, "\(evaluation.takenWithoutPage)")
        #expect(evaluation.gateRecall >= Requirements.gateRecall)
        #expect(evaluation.gateFalseReadyRate <= Requirements.gateFalseReadyRate)
        // Better than the classic scanner on the same frames: more pages found accurately.
        #expect(ours.accurateRate > evaluation.baseline.accurateRate)
    }

    /// The demo recording: each page is found whole while it lies, and never while the
    /// platen is empty (the station takes the next page only after the last one left).
    @Test func theDemoRecordingsPagesAreFoundWhileTheyLie() async throws {
        let data = try #require(VisionDataSet.paper())
        let frames = try data.sequenceFrames("demo-pages")
        let (found, whole, empty, falseFound) = try await onOwnThread {
            let finder = try DocumentFinder(settings: VisionDataSet.finderSettings)
            var found = 0, whole = 0, empty = 0, falseFound = 0
            for (image, isWhole) in frames {
                let observation = try finder.observe(image, learning: true, classes: DocumentClass.pages)
                if isWhole {
                    whole += 1
                    if observation.document?.whole == true { found += 1 }
                } else if observation.document == nil && !observation.cutOff {
                    empty += 1
                } else if observation.document?.whole == true {
                    falseFound += 1
                }
            }
            return (found, whole, empty, falseFound)
        }
        print("demo-pages: whole in \(whole) frames, found in \(found); frames without a whole page \(frames.count - whole), a whole page reported in \(falseFound)")
        #expect(whole > 60)
        #expect(Double(found) / Double(whole) >= 0.8)
        #expect(falseFound == 0)
        #expect(empty > 0)
    }
}
