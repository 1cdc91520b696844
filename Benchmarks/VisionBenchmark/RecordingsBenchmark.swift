import Camera
import Capture
import Foundation
import Imaging
import KioskTestKit
import ScanFlow
import Vision

/// Time from a document lying still to its chip key, on recordings of documents placed on
/// the platen (the field scenes' and the clean-room's): as a station takes it, the empty
/// platen learned first (`NAME-platen.jpg`), then the frames analysed in order by
/// ``DocumentAnalyzer`` (learning) and the reads agreed over two frames (``MRZConsensus``, as
/// the capture's gate feeds it).
///
/// The frames come at the recording's rate and the analysis of one takes what it takes on
/// this core: as at a station, the frame analysed next is the newest one when the last
/// analysis ended (frames that came meanwhile are skipped). Issue 25's target: every
/// recording reads the key within 1.5 s of the document lying still (the recording's own
/// label of that frame).
enum RecordingsBenchmark {
    struct Recording {
        var name: String
        /// TD1 card, TD2 card, TD3 loose, TD3 booklet.
        var group: String
        var video: String
        var platen: String
        var fps: Double
        /// The first frame from which the document lies still (and its MRZ readable).
        var stillFrame: Int
        var key: ChipAccessKey?
    }

    /// What a recording gave.
    struct Outcome {
        /// Seconds from the still frame to the frame whose read made the key accepted.
        var seconds: Double?
        var right = false
        var wrong = false
        var analysed = 0
        var milliseconds: [Double] = []
    }

    static func group(_ documentClass: String?, _ layout: String?) -> String {
        switch (documentClass, layout) {
        case ("TD1", _): "TD1 card"
        case ("TD2", _): "TD2 card"
        case ("TD3", "booklet"): "TD3 booklet"
        default: "TD3 loose"
        }
    }

    /// The field scenes' recordings of `groups` (scripts/vision-data/field/recordings.py).
    static func field(groups: Set<String>) throws -> [Recording] {
        let folder = FieldScenes.folder("sequences")
        struct Index: Decodable {
            struct Entry: Decodable {
                var name: String, group: String, `class`: String, layout: String, fps: Double, first_still_s: Double
            }
            var recordings: [Entry]
        }
        struct Frame: Decodable { var mrz: [String]? }
        guard let data = FileManager.default.contents(atPath: folder + "/index.json") else { return [] }
        return try JSONDecoder().decode(Index.self, from: data).recordings.filter { groups.contains($0.group) }.map { entry in
            let frames = try JSONDecoder().decode([Frame?].self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/\(entry.name).json")))
            return Recording(
                name: entry.name, group: group(entry.class, entry.layout), video: folder + "/\(entry.name).mjpeg",
                platen: folder + "/\(entry.name)-platen.jpg", fps: entry.fps, stillFrame: Int((entry.first_still_s * entry.fps).rounded()),
                key: frames.compactMap { $0?.mrz }.first.flatMap(CleanroomBenchmark.key))
        }
    }

    /// The clean-room's recordings (docs/cleanroom-data.md, "Recordings").
    static func cleanroom() throws -> [Recording] {
        let folder = CleanroomBenchmark.folder + "/recordings"
        struct Top: Decodable {
            var fps: Double, `class`: String?, layout: String?, mrz: [String]?, platen: String, still_from_frame: Int
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            let top = try JSONDecoder().decode(Top.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            let base = String(name.dropLast(5))
            return Recording(
                name: base, group: group(top.class, top.layout), video: folder + "/\(base).mjpeg", platen: folder + "/" + top.platen,
                fps: top.fps, stillFrame: top.still_from_frame, key: top.mrz.flatMap(CleanroomBenchmark.key))
        }
    }

    static func play(_ recording: Recording, reader: MRZReader) throws -> Outcome {
        let codec = JPEGCodec()
        var platen = LumaImage()
        try codec.decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: recording.platen))), into: &platen)
        let analyzer = DocumentAnalyzer(finder: try DocumentFinder(), reader: reader, guidance: DocumentGuidance.Settings())
        try analyzer.finder.learnBackground(platen, weight: 1)
        let frames = MJPEG.split([UInt8](try Data(contentsOf: URL(fileURLWithPath: recording.video))))
        var consensus = MRZConsensus()
        var outcome = Outcome()
        var luma = LumaImage()
        // The station's clock: the frame analysed next is the newest when the last analysis ends.
        var now = 0.0
        var index = 0
        while index < frames.count {
            try codec.decodeLuma(frames[index], into: &luma)
            let start = ContinuousClock.now
            let frame = try analyzer.analyse(luma, learning: true)
            if frame.mrzLookedFor, let reading = frame.mrz { consensus.add(reading) }
            let spent = milliseconds(ContinuousClock.now - start)
            outcome.milliseconds.append(spent)
            outcome.analysed += 1
            if let key = consensus.nextKey {
                outcome.seconds = Double(index - recording.stillFrame) / recording.fps
                outcome.right = key == recording.key
                outcome.wrong = !outcome.right
                break
            }
            now = max(now, Double(index) / recording.fps) + spent / 1000
            index = max(index + 1, Int((now * recording.fps).rounded(.down)))
        }
        return outcome
    }

    /// The figures on `recordings`; `detail`: a line per recording (own data only).
    static func run(_ recordings: [Recording], title: String, detail: Bool) throws {
        guard let model = VisionCrops.model else {
            print("  (no MRZ model: make vision-models)")
            return
        }
        guard !recordings.isEmpty else {
            print("  (no recordings for \(title))")
            return
        }
        let reader = MRZReader(model: model)
        print("==> time from a document lying still to its chip key, \(title): \(recordings.count) recordings (target: every one within 1.5 s)")
        print("  | group | recordings | right key | within 1.5 s of still | seconds after still, median | slowest | wrong keys | no key | frames analysed | analysis, median ms |")
        print("  | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        var rows: [String: [Outcome]] = [:]
        for recording in recordings {
            let outcome = try play(recording, reader: reader)
            rows[recording.group, default: []].append(outcome)
            rows["all", default: []].append(outcome)
            if detail {
                print(String(
                    format: "  %@ (%@): still at frame %d, key %@%@", recording.name, recording.group, recording.stillFrame,
                    outcome.seconds.map { String(format: "%+.2f s after still", $0) } ?? "never", outcome.wrong ? " WRONG" : ""))
            }
        }
        for name in ["TD1 card", "TD2 card", "TD3 loose", "TD3 booklet", "all"] {
            guard let outcomes = rows[name] else { continue }
            let right = outcomes.filter(\.right)
            let seconds = right.compactMap(\.seconds)
            print(String(
                format: "  | %@ | %d | %d | %d | %@ | %@ | %d | %d | %d | %.1f |", name, outcomes.count, right.count,
                seconds.filter { $0 <= 1.5 }.count, seconds.isEmpty ? "-" : String(format: "%.2f", median(seconds)),
                seconds.max().map { String(format: "%.2f", $0) } ?? "-", outcomes.filter(\.wrong).count,
                outcomes.filter { $0.seconds == nil }.count, outcomes.map(\.analysed).reduce(0, +), median(outcomes.flatMap(\.milliseconds))))
        }
    }
}
