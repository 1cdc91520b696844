import Capture
import Foundation
import Imaging
import KioskTestKit
import Vision

/// The station's whole analysis of a frame (``DocumentAnalyzer``: the outline, the MRZ of its
/// crop, the MRZ found first and the page it predicts; then ``DocumentGuidance``) on stills
/// with their truth (the field scenes, the clean-room stills), each still on its own as one
/// frame held still: with the empty platen learned from the still's own `NNNN-platen.jpg`,
/// as a fixed station learns it, and without it; beside it OpenCV's usual finder on the same
/// frames. The figures of issue 25's targets (docs/vision.md):
///
/// - found: the data page's quadrilateral within SmartDoc's Jaccard 0.9 of the true one, on
///   the stills whose page lies whole in the frame;
/// - guidance: the state against the still's label, glare stills excepted (glare is a reject
///   reason, not a guidance state);
/// - keys: each still's key as the capture takes one (`MRZConsensus.oneFrame`), right among
///   the readable MRZs, wrong on every still;
/// - time: the analysis of a frame, one core, per frame height.
enum StationStillsBenchmark {
    typealias Truth = FieldScenes.Truth

    struct Tally {
        var stills = 0, whole = 0, found = 0, foundBare = 0, foundBaseline = 0
        var guided = 0, guidedRight = 0, guidedRightBare = 0
        var readable = 0, rightKey = 0, rightKeyBare = 0, wrongKey = 0, wrongKeyBare = 0

        func row(_ name: String) -> String {
            func part(_ n: Int, _ of: Int) -> String { of > 0 ? String(format: "%d (%.1f %%)", n, 100 * Double(n) / Double(of)) : "-" }
            return "| \(name) | \(stills) | \(whole) | \(part(found, whole)) | \(part(foundBare, whole)) | \(part(foundBaseline, whole)) "
                + "| \(part(guidedRight, guided)) | \(part(guidedRightBare, guided)) | \(readable) | \(part(rightKey, readable)) "
                + "| \(part(rightKeyBare, readable)) | \(wrongKey) | \(wrongKeyBare) |"
        }
    }

    /// One still's outcome.
    struct Outcome {
        var found = false, guidedRight = false, rightKey = false, wrongKey = false
    }

    /// The label's word for a guidance state.
    static func label(_ state: DocumentGuidance.State) -> String {
        switch state {
        case .tilt: "tilt"
        default: "\(state)"
        }
    }

    /// The figures on the stills (`NNNN.jpg`, `NNNN.json`, `NNNN-platen.jpg`) of one folder.
    static func run(stills folder: String, title: String) throws {
        guard let all = try? FieldScenes.stills(in: folder), !all.isEmpty else {
            print("no stills in \(folder)")
            return
        }
        let reader = VisionCrops.model.map { MRZReader(model: $0) }
        if reader == nil { print("  (no MRZ model: make vision-models; keys not read)") }
        var settings = DocumentGuidance.Settings()
        // A still stands for a document held still: one frame is enough.
        settings.stillFrames = 1
        var groups: [String: Tally] = [:], surfaces: [String: Tally] = [:]
        var times: [Int: [Double]] = [:], baselineTimes: [Int: [Double]] = [:]
        for still in all {
            let truth = still.truth
            let image = try still.luma()
            var platen = LumaImage()
            try JPEGCodec().decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: still.platenPath))), into: &platen)

            let learned = DocumentAnalyzer(finder: try DocumentFinder(), reader: reader, guidance: settings)
            try learned.finder.learnBackground(platen, weight: 1)
            let start = ContinuousClock.now
            let frame = try learned.analyse(image, learning: false)
            times[truth.height, default: []].append(milliseconds(ContinuousClock.now - start))
            let bare = DocumentAnalyzer(finder: try DocumentFinder(), reader: reader, guidance: settings)
            let bareFrame = try bare.analyse(image, learning: false)
            let baselineStart = ContinuousClock.now
            let baseline = try DocumentFinder.baselineQuadrilateral(in: image)
            baselineTimes[truth.height, default: []].append(milliseconds(ContinuousClock.now - baselineStart))

            let ours = outcome(frame, truth, settings)
            let oursBare = outcome(bareFrame, truth, settings)
            let page = truth.corners.map { Quadrilateral($0.map { Point(x: $0[0], y: $0[1]) }) }
            let whole = truth.case == "normal" && page.map { $0.isInside(width: truth.width, height: truth.height, margin: 0) } == true
            let baselineFound = whole && page.flatMap { page in baseline.map { $0.jaccardIndex(with: page) >= 0.9 } } == true
            let group = truth.case == "normal" ? "\(truth.class ?? "none") \(truth.layout ?? "")" : "case \(truth.case)"
            if detail { print(describe(still, frame, ours, whole: whole, settings)) }
            for key in [group, "all"] {
                groups[key, default: Tally()].add(truth, whole: whole, ours, oursBare, baselineFound: baselineFound)
            }
            surfaces[truth.surface, default: Tally()].add(truth, whole: whole, ours, oursBare, baselineFound: baselineFound)
        }
        print("==> the station's analysis of a frame (outline, MRZ, MRZ found first, guidance) on \(title): \(all.count) stills")
        print("  found: Jaccard >= 0.9 on the stills whose page lies whole in the frame; guidance: glare stills excepted;"
            + " platen learned from the still's empty platen, and bare (no platen)")
        let header = "| group | stills | page whole | found | found, bare | found, OpenCV baseline | guidance right | guidance right, bare "
            + "| readable MRZ | right key | right key, bare | wrong keys | wrong keys, bare |"
        print("  " + header)
        print("  | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for (key, tally) in groups.sorted(by: { $0.key < $1.key }) { print("  " + tally.row(key)) }
        print("  by surface:")
        for (key, tally) in surfaces.sorted(by: { $0.key < $1.key }) { print("  " + tally.row(key)) }
        for (height, values) in times.sorted(by: { $0.key < $1.key }) {
            let sorted = values.sorted(), base = (baselineTimes[height] ?? []).sorted()
            print(String(
                format: "  time per frame (%dp, one core, platen learned): median %.1f ms, p95 %.1f ms; OpenCV baseline median %.1f ms",
                height, sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 95 / 100)], base.isEmpty ? 0 : base[base.count / 2]))
        }
    }

    /// Whether to print each still's outcome (`VisionBenchmark stations FOLDER`: own data only;
    /// the clean-room stills are never looked at one by one).
    nonisolated(unsafe) static var detail = false

    /// One still's outcome on a line: no MRZ text, no image.
    static func describe(_ still: FieldScenes.Still, _ frame: DocumentFrame, _ outcome: Outcome, whole: Bool, _ settings: DocumentGuidance.Settings) -> String {
        let truth = still.truth
        var guidance = DocumentGuidance(settings: settings)
        let state = label(guidance.observe(frame.observation))
        var text = "\(still.name) \(truth.case) \(truth.class ?? "-") \(truth.layout ?? "-") \(truth.surface) label \(truth.guidance ?? "-") ours \(state)"
        text += whole ? " whole" : ""
        if let document = frame.observation.document {
            var jaccard = 0.0
            if let corners = truth.corners, corners.count == 4 {
                jaccard = document.quadrilateral.jaccardIndex(with: Quadrilateral(corners.map { Point(x: $0[0], y: $0[1]) }))
            }
            text += String(format: " doc %@ J %.2f%@ tilt %.1f rot %.1f area %.2f", document.documentClass.rawValue, jaccard, document.whole ? "" : " cut",
                document.pose.tiltDegrees, document.pose.rotationDegrees, document.areaFraction)
            if let q = document.quality { text += String(format: " sharp %.0f bal %.2f", q.sharpness, q.directional?.balance ?? -1) }
        } else {
            text += " no doc" + (frame.observation.cutOff ? " (cut off)" : "")
        }
        text += frame.mrzLookedFor ? (frame.mrz?.allCheckDigitsHold == true ? " mrz read" : " mrz fail") : ""
        text += outcome.rightKey ? " KEY" : outcome.wrongKey ? " WRONGKEY" : ""
        if outcome.wrongKey, let read = frame.mrz?.text, let mrz = truth.mrz {
            // Where the read differs from the truth (the field scenes' fictional documents only).
            for (index, (a, b)) in zip(read, mrz).enumerated() {
                let differences = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }
                text += " line \(index + 1): " + differences.map { "\($0.offset + 1):\($0.element.0)/\($0.element.1)" }.joined(separator: ",")
            }
            if read.count != mrz.count { text += " (\(read.count) lines read, \(mrz.count) printed)" }
        }
        return text
    }

    static func outcome(_ frame: DocumentFrame, _ truth: Truth, _ settings: DocumentGuidance.Settings) -> Outcome {
        var result = Outcome()
        var guidance = DocumentGuidance(settings: settings)
        result.guidedRight = label(guidance.observe(frame.observation)) == truth.guidance
        if let document = frame.observation.document, let corners = truth.corners, corners.count == 4 {
            let page = Quadrilateral(corners.map { Point(x: $0[0], y: $0[1]) })
            result.found = document.quadrilateral.jaccardIndex(with: page) >= 0.9
        }
        var consensus = MRZConsensus.oneFrame
        if frame.mrzLookedFor { consensus.add(frame.mrz) }
        if let key = consensus.keys.first {
            if let mrz = truth.mrz, key == CleanroomBenchmark.key(mrz) {
                result.rightKey = truth.mrz_readable
            } else {
                result.wrongKey = true
            }
        }
        return result
    }
}

extension StationStillsBenchmark.Tally {
    mutating func add(
        _ truth: StationStillsBenchmark.Truth, whole isWhole: Bool, _ ours: StationStillsBenchmark.Outcome,
        _ bare: StationStillsBenchmark.Outcome, baselineFound: Bool
    ) {
        stills += 1
        if isWhole {
            whole += 1
            if ours.found { found += 1 }
            if bare.found { foundBare += 1 }
            if baselineFound { foundBaseline += 1 }
        }
        if truth.glare != true {
            guided += 1
            if ours.guidedRight { guidedRight += 1 }
            if bare.guidedRight { guidedRightBare += 1 }
        }
        if truth.mrz != nil, truth.mrz_readable { readable += 1 }
        if ours.rightKey { rightKey += 1 }
        if bare.rightKey { rightKeyBare += 1 }
        if ours.wrongKey { wrongKey += 1 }
        if bare.wrongKey { wrongKeyBare += 1 }
    }
}
