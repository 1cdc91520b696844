import KioskTestKit
import Testing
import Vision

/// The document finder and guidance on the generated scenes of the dev split (the
/// held-out split is reported by `make bench`, never tuned on). The thresholds below
/// are a margin under what the dev split measured (docs/vision.md has the figures).
@Suite(.enabled(if: VisionDataSet() != nil, "needs \(VisionDataSet.missing)"))
struct VisionDataTests {
    @Test func documentsAreFoundWithAccurateCornersAndNothingElseIsADocument() async throws {
        let data = try #require(VisionDataSet())
        let evaluation = try await onOwnThread { try DocumentEvaluation.run(data, split: .dev) }
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

    /// A camera is joined wherever its picture happens to be: each sequence played from
    /// every sixth frame on (the page half in, sliding, held, or gone) to the end; the page
    /// is taken away for 2 s; the sequence is played again. On that second pass the finder,
    /// learning as the station does, finds the whole page in most frames that show it,
    /// whatever the first frame was. (The first background was once learned from whatever
    /// frame came first: a page sliding in became the platen, and nothing was found again.)
    @Test func whereverTheCameraIsJoinedThePageIsFoundOnTheNextPass() async throws {
        let data = try #require(VisionDataSet())
        struct Pass: Sendable {
            var name: String, start: Int, shown = 0, found = 0, ghostsLeft = 0
        }
        let passes = try await onOwnThread {
            var passes: [Pass] = []
            for name in ["td3-slide-in", "td1-back-slide-in", "td3-tilt-corrected"] {
                let frames = try data.sequenceFrames(name)
                guard frames.count > 30, frames.contains(where: \.whole) else { throw TestFailure("\(name): too short, or no whole page") }
                for start in stride(from: 0, to: frames.count, by: 6) {
                    var pass = Pass(name: name, start: start)
                    let finder = try DocumentFinder(settings: VisionDataSet.finderSettings)
                    for frame in frames[start...] { _ = try finder.observe(frame.image, learning: true) }
                    // The page is taken away: the empty platen for 2 s (its first six frames,
                    // which every sequence opens with, played to and fro).
                    for k in 0..<30 {
                        let n = k % 10
                        let ghost = try finder.observe(frames[n < 6 ? n : 10 - n].image, learning: true).document
                        if k >= 25, ghost != nil { pass.ghostsLeft += 1 }
                    }
                    for frame in frames {
                        let document = try finder.observe(frame.image, learning: true).document
                        guard frame.whole else { continue }
                        pass.shown += 1
                        if document?.whole == true { pass.found += 1 }
                    }
                    passes.append(pass)
                }
            }
            return passes
        }
        #expect(passes.count >= 30)
        for pass in passes {
            #expect(pass.ghostsLeft == 0, "\(pass.name) joined at frame \(pass.start): a document on the empty platen")
            // Measured (dev tuning never saw these): 90 to 100 % of such frames.
            #expect(Double(pass.found) >= 0.8 * Double(pass.shown), "\(pass.name) joined at frame \(pass.start): \(pass.found) of \(pass.shown)")
        }
    }
}
