import KioskTestKit
import Testing
import Vision

/// The document finder and guidance on the generated scenes of the dev split (the
/// held-out split is reported by `make bench`, never tuned on). The thresholds below
/// are a margin under what the dev split measured (docs/vision.md has the figures).
@Suite(.enabled(if: VisionDataSet() != nil, "needs \(VisionDataSet.missing)"))
struct VisionDataTests {
    @Test func documentsAreFoundWithAccurateCornersAndNothingElseIsADocument() throws {
        let data = try #require(VisionDataSet())
        let evaluation = try DocumentEvaluation.run(data, split: .dev)
        for line in evaluation.summary { print("dev: \(line)") }
        for disagreement in evaluation.disagreements { print("dev: \(disagreement)") }
        // Measured on dev (110 scenes, session 4): found 92.9 %, Jaccard mean 0.992 and
        // >= 0.95 for 90.0 %, shape class 96.9 %, false documents 7.7 % (2 of 26: a book
        // and a phone at ID-1's aspect), guidance 85.5 % (misses: hands merged with the page).
        #expect(evaluation.wholeDocuments >= 50)
        #expect(evaluation.foundRate >= 0.88)
        #expect(evaluation.meanJaccard >= 0.98)
        #expect(evaluation.accurateRate >= 0.85)
        #expect(evaluation.classRate >= 0.93)
        #expect(evaluation.falseDocumentRate <= 0.12)
        #expect(evaluation.guidanceRate >= 0.80)
    }
}
