import Capture
import Foundation
import Imaging
import KioskTestKit
import MRTD
import ScanFlow
import Vision

/// The MRZ found first (``MRZLocator``) on the clean-room stills (scripts/cleanroom-data,
/// docs/cleanroom-data.md): documents drawn and photographed by a generator written without
/// reading the vision code. Measurement only: nothing here is tuned on them.
///
/// Per class and layout, each frame's reading taken as the capture takes one
/// (`MRZConsensus.oneFrame`: every check digit, the confidence floors, the key): right keys
/// among the readable MRZs, the lines exact, wrong keys (a key taken that is not the
/// document's: the number that must stay 0), the predicted page against the true corners,
/// and the time of a frame on one core, at 1280x720 and 1920x1080.
enum CleanroomBenchmark {
    typealias Truth = FieldScenes.Truth

    struct Tally {
        var stills = 0, readable = 0, right = 0, rightKey = 0, wrong = 0, wrongLines = 0, found = 0
        var jaccard: [Double] = []
    }

    /// The chip key of the true lines, by MRTD's parser (as the chip reader parses them).
    static func key(_ lines: [String]) -> ChipAccessKey? {
        guard let mrz = try? MRZ(lines.joined()) else { return nil }
        return .mrz(documentNumber: mrz.documentNumber, dateOfBirth: mrz.birthDate, dateOfExpiry: mrz.expiryDate)
    }

    static var folder: String {
        ProcessInfo.processInfo.environment["IDKIOSK_CLEANROOM_DATA"]
            ?? FileManager.default.currentDirectoryPath + "/.cache/cleanroom-data"
    }

    /// The field scenes' split (scripts/vision-data/field, docs/vision-data.md): the project's
    /// own stills of the same kinds, in the same truth format.
    static func fieldFolder(_ split: String) -> String {
        FileManager.default.currentDirectoryPath + "/.cache/vision-data/field/" + split
    }

    static func run() throws {
        try run(
            stills: folder + "/stills", missing: "make cleanroom-data",
            title: "the clean-room stills (made by a generator written without reading the vision code; never tuned on)")
    }

    /// The figures on the stills (`NNNN.jpg` and `NNNN.json`) of one folder.
    static func run(stills: String, missing: String, title: String) throws {
        guard let all = try? FieldScenes.stills(in: stills) else {
            print("no stills in \(stills): \(missing)")
            return
        }
        guard let model = VisionCrops.model else {
            print("no MRZ model: make vision-models")
            return
        }
        let locator = MRZLocator(reader: MRZReader(model: model))
        var tallies: [String: Tally] = [:], surfaces: [String: Tally] = [:]
        var times: [Int: [Double]] = [:]
        // The reader given the true page (cut out from the true corners): what the reader
        // does on its own, apart from finding the zone; per group and per scale.
        var onPage: [String: (readable: Int, right: Int, located: Int)] = [:]
        for still in all {
            let truth = still.truth
            let image = try still.luma()
            let start = ContinuousClock.now
            let found = try locator.locate(in: image)
            let elapsed = ContinuousClock.now - start
            times[truth.height, default: []].append(milliseconds(elapsed))
            let group = truth.case == "normal" ? "\(truth.class ?? "none") \(truth.layout ?? "")" : "case \(truth.case)"
            for key in [group, "all"] {
                tallies[key, default: Tally()].add(truth, found)
            }
            surfaces[truth.surface, default: Tally()].add(truth, found)
            if truth.case == "normal", truth.mrz_readable, let mrz = truth.mrz, let corners = truth.corners,
                let documentClass = truth.class.flatMap(DocumentClass.init(rawValue:))
            {
                let page = Quadrilateral(corners.map { Point(x: $0[0], y: $0[1]) })
                let scale = hypot(page.corners[1].x - page.corners[0].x, page.corners[1].y - page.corners[0].y) / documentClass.size.width
                var consensus = MRZConsensus.oneFrame
                consensus.add(try? locator.reader.read(DocumentFinder.crop(image, page, as: documentClass)))
                let right = consensus.keys.first == key(mrz) ? 1 : 0
                var located = MRZConsensus.oneFrame
                located.add(found?.reading)
                let locatedRight = located.keys.first == key(mrz) ? 1 : 0
                let bin = scale < 3.5 ? "< 3.5 px/mm" : scale < 4.5 ? "3.5-4.5 px/mm" : scale < 6 ? "4.5-6 px/mm" : ">= 6 px/mm"
                for name in ["\(truth.class ?? "") \(truth.layout ?? "")", bin, "\(truth.surface) surface"] {
                    onPage[name, default: (0, 0, 0)].readable += 1
                    onPage[name, default: (0, 0, 0)].right += right
                    onPage[name, default: (0, 0, 0)].located += locatedRight
                }
            }
        }
        print("==> the MRZ found first on \(title): \(all.count) stills")
        print("  | group | stills | readable MRZ | right key | exact lines | wrong keys | key right, other lines wrong | zone read | predicted page, Jaccard median |")
        print("  | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for (key, tally) in tallies.sorted(by: { $0.key < $1.key }) { print("  " + tally.row(key)) }
        print("  by surface:")
        for (key, tally) in surfaces.sorted(by: { $0.key < $1.key }) { print("  " + tally.row(key)) }
        print("  the reader given the true page (readable MRZs, normal stills): right keys, and the locator's beside them")
        for (name, t) in onPage.sorted(by: { $0.key < $1.key }) {
            print("  | \(name) | \(t.readable) | true page \(t.right) | located \(t.located) |")
        }
        for (height, values) in times.sorted(by: { $0.key < $1.key }) {
            let sorted = values.sorted()
            print(String(
                format: "  time per frame (%dp, one core): median %.1f ms, p95 %.1f ms", height, sorted[sorted.count / 2],
                sorted[min(sorted.count - 1, sorted.count * 95 / 100)]))
        }
    }
}

extension CleanroomBenchmark.Tally {
    mutating func add(_ truth: CleanroomBenchmark.Truth, _ found: MRZLocator.Found?) {
        stills += 1
        if found != nil { self.found += 1 }
        if truth.mrz != nil, truth.mrz_readable { readable += 1 }
        var consensus = MRZConsensus.oneFrame
        consensus.add(found?.reading)
        guard let found, let key = consensus.keys.first else { return }
        if let mrz = truth.mrz, key == CleanroomBenchmark.key(mrz) {
            if truth.mrz_readable { rightKey += 1 }
            if found.reading.text == mrz {
                if truth.mrz_readable { right += 1 }
            } else {
                wrongLines += 1
            }
            if let corners = truth.corners, corners.count == 4 {
                let page = Quadrilateral(corners.map { Point(x: $0[0], y: $0[1]) })
                jaccard.append(found.page.jaccardIndex(with: page))
            }
        } else {
            wrong += 1
        }
    }

    func row(_ name: String) -> String {
        func percent(_ n: Int) -> String { readable > 0 ? String(format: "%.1f %%", 100 * Double(n) / Double(readable)) : "-" }
        let sorted = jaccard.sorted()
        let median = sorted.isEmpty ? "-" : String(format: "%.3f", sorted[sorted.count / 2])
        return "| \(name) | \(stills) | \(readable) | \(rightKey) (\(percent(rightKey))) | \(right) (\(percent(right))) | \(wrong) | \(wrongLines) | \(found) | \(median) |"
    }
}
