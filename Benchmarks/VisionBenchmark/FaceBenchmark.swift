import Capture
import Flash
import Foundation
import Imaging
import KioskTestKit
import Logging
import Synchronization
import Vision

/// The station's face analysis on the generated face data (docs/face-data.md): detection
/// and landmarks against OpenCV's Haar cascade on the same held-out frames, the embedding,
/// the liveness checks (APCER/BPCER, held out) and the match decision on the pairs.
enum FaceBenchmark {
    struct FrameTruth: Decodable {
        struct Face: Decodable {
            var box: [Double]
        }
        var size: [Int]
        var faces: [Face]
    }

    static func run() async throws {
        guard let data = FaceData() else {
            print("  no face data: \(FaceData.missing)")
            return
        }
        guard let models = try? FaceModels(folder: VisionCrops.models) else {
            print("  no face models: make vision-models")
            return
        }
        print(String(format: "  models loaded in %.0f ms, %.1f MB of files, resident set grew %.1f MB", models.cost.milliseconds,
                     Double(models.cost.fileBytes) / 1e6, Double(models.cost.residentBytes) / 1e6))
        try detection(data, models: models)
        try embedding(models: models)
        try liveness(data, models: models)
        try await station(data)
        try match(data, models: models)
    }

    /// The liveness capture through the camera pipeline against the simulated person
    /// (LitFaceCamera, real time at 15 fps): from the person in place (the first frame of the
    /// light challenge, after the guidance said ready) to the decision.
    static func station(_ data: FaceData) async throws {
        print("==> liveness: from the person in place to the decision, the camera pipeline and the simulated person at 15 fps (target: under 3 s)")
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        var seconds: [Double] = []
        var decisions: [String] = []
        for run in 0..<3 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-lit-\(run)-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try data.litRecordings(in: folder, presentation: "genuine")
            var settings = CameraCapture.Settings(name: "file:\(folder)")
            settings.modelsFolder = VisionCrops.models
            let flash = Flash(line: SimulatedLine(), maximumOn: .seconds(2), clock: ContinuousClock(), logger: logger)
            let capture = CameraCapture(settings: settings, flash: flash, preview: PreviewFeed(), logger: logger)
            let marks = Mutex<(placed: ContinuousClock.Instant?, decided: ContinuousClock.Instant?, decision: String)>((nil, nil, ""))
            await capture.capture(CaptureRequest(mode: .faceLiveness, part: .face, trigger: CaptureTrigger(), useFlash: true)) { event in
                switch event {
                // The first frame of the light challenge: the person is in place.
                case .evidence(.livenessFrame(index: 0, _)): marks.withLock { if $0.placed == nil { $0.placed = .now } }
                case .evidence(.liveness(let record)): marks.withLock { $0.decided = .now; $0.decision = record.result.decision.rawValue }
                default: break
                }
            }
            let (placed, decided, decision) = marks.withLock { ($0.placed, $0.decided, $0.decision) }
            if let placed, let decided { seconds.append(milliseconds(decided - placed) / 1000) }
            decisions.append(decision)
        }
        print(String(format: "  %d runs: median %.2f s, slowest %.2f s; decisions %@", seconds.count, median(seconds), seconds.max() ?? 0, decisions.joined(separator: ", ")))
    }

    /// Per frame size: found faces, false faces, landmark error and time, ours against Haar.
    static func detection(_ data: FaceData, models: FaceModels) throws {
        print("==> faces: detection and landmarks on the held-out frames, one core (target: at most 20 ms at 1280x720)")
        let folder = data.root + "/frames/heldout"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        let detector = try FaceDetector(models: models)
        let haar = try HaarBaseline()
        struct Tally { var faces = 0, ours = 0, haar = 0, oursFalse = 0, haarFalse = 0; var oursMs: [Double] = [], haarMs: [Double] = [] }
        var tallies: [Int: Tally] = [:]
        let codec = JPEGCodec()
        var luma = LumaImage()
        for name in names {
            let truth = try JSONDecoder().decode(FrameTruth.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            try codec.decodeLuma([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name.dropLast(5) + ".jpg"))), into: &luma)
            var tally = tallies[truth.size[0]] ?? Tally()
            var bestOurs = Double.infinity, bestHaar = Double.infinity
            var found: [FaceBox] = [], haarFound: [FaceBox] = []
            for _ in 0..<3 {
                let start = ContinuousClock.now
                found = try detector.observe(luma).faces.map(\.box)
                bestOurs = min(bestOurs, milliseconds(ContinuousClock.now - start))
                let haarStart = ContinuousClock.now
                haarFound = try haar.faces(in: luma, minimumSize: 40)
                bestHaar = min(bestHaar, milliseconds(ContinuousClock.now - haarStart))
            }
            tally.oursMs.append(bestOurs)
            tally.haarMs.append(bestHaar)
            let boxes = truth.faces.map { FaceBox(left: $0.box[0], top: $0.box[1], right: $0.box[2], bottom: $0.box[3]) }
            func inside(_ p: Point, _ b: FaceBox) -> Bool { p.x >= b.left && p.x <= b.right && p.y >= b.top && p.y <= b.bottom }
            tally.faces += boxes.count
            tally.ours += boxes.filter { box in found.contains { inside($0.centre, box) } }.count
            tally.haar += boxes.filter { box in haarFound.contains { inside($0.centre, box) } }.count
            tally.oursFalse += found.filter { f in !boxes.contains { inside(f.centre, $0) } }.count
            tally.haarFalse += haarFound.filter { f in !boxes.contains { inside(f.centre, $0) } }.count
            tallies[truth.size[0]] = tally
        }
        for width in tallies.keys.sorted() {
            let t = tallies[width]!
            let size = width == 1280 ? "1280x720" : "640x480"
            print(String(
                format: "  %@ (%d frames, %d faces): ours found %.1f %%, %d false, median %.1f ms (p95 %.1f) with landmarks; Haar found %.1f %%, %d false, median %.1f ms (p95 %.1f)",
                size, t.oursMs.count, t.faces, Double(t.ours) * 100 / Double(max(1, t.faces)), t.oursFalse, median(t.oursMs), percentile(t.oursMs, 0.95),
                Double(t.haar) * 100 / Double(max(1, t.faces)), t.haarFalse, median(t.haarMs), percentile(t.haarMs, 0.95)))
        }
    }

    static func embedding(models: FaceModels) throws {
        let image = try FacePhotos.astronaut
        let landmarks = try requireValue(try FaceDetector(models: models).observe(LumaImage(image)).face?.landmarks)
        var times: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            _ = try models.embedding(of: image, landmarks: landmarks)
            times.append(milliseconds(ContinuousClock.now - start))
        }
        print(String(format: "==> faces: an embedding (aligned chip and network), one core: median %.0f ms of 5", median(times)))
    }

    static func liveness(_ data: FaceData, models: FaceModels) throws {
        print("==> liveness: the checks on the held-out sequences (identities, rooms and seeds not used to set the thresholds)")
        let evaluation = try LivenessEvaluation.run(data, split: "heldout", models: models)
        let genuine = evaluation.taken["genuine"] ?? (0, 0)
        print(String(format: "  BPCER %.1f %% (%d of %d live faces refused)", evaluation.bpcer * 100, genuine.total - genuine.live, genuine.total))
        for kind in ["print", "screen", "replay"] {
            let attack = evaluation.taken[kind] ?? (0, 0)
            print(String(format: "  APCER %@ %.1f %% (%d of %d taken as live)", kind, evaluation.apcer(kind) * 100, attack.live, attack.total))
        }
        print(String(format: "  the checks after the last frame: median %.1f ms, p95 %.1f ms (target for the whole decision after the person is in place: under 3 s; the capture takes 30 frames of light and the turn: about 2 s at 15 fps plus the turn)",
                     median(evaluation.decisionMilliseconds), percentile(evaluation.decisionMilliseconds, 0.95)))
    }

    struct Pairs: Decodable {
        struct Pair: Decodable {
            var a: String
            var b: String
            var same: Bool
            var honesty: String
        }
        var pairs: [Pair]
    }

    static func match(_ data: FaceData, models: FaceModels) throws {
        print("==> face match on the pairs of scripts/face-data (threshold \(FaceMatcher.Settings().threshold), review band ±\(FaceMatcher.Settings().reviewBand))")
        let pairs = try JSONDecoder().decode(Pairs.self, from: Data(contentsOf: URL(fileURLWithPath: data.root + "/match/pairs.json"))).pairs
        let detector = try FaceDetector(models: models)
        var cache: [String: FaceEmbedding] = [:]
        func embedding(_ path: String) throws -> FaceEmbedding? {
            if let known = cache[path] { return known }
            let image = try ImageFile.decodeRGB([UInt8](try Data(contentsOf: URL(fileURLWithPath: data.root + "/" + path))))
            guard let made = try models.embedding(ofSurestFaceIn: image, detector: detector) else { return nil }
            cache[path] = made
            return made
        }
        let matcher = FaceMatcher()
        var rows: [String: (right: Int, review: Int, wrong: Int, none: Int, distances: [Double])] = [:]
        for pair in pairs {
            let key = pair.same ? "same person, " + pair.honesty : "different people"
            guard let a = try embedding(pair.a), let b = try embedding(pair.b) else {
                rows[key, default: (0, 0, 0, 0, [])].none += 1
                continue
            }
            let result = matcher.compare(a, b)
            var row = rows[key, default: (0, 0, 0, 0, [])]
            row.distances.append(result.distance)
            switch result.decision {
            case .review: row.review += 1
            case .match: if pair.same { row.right += 1 } else { row.wrong += 1 }
            case .noMatch: if pair.same { row.wrong += 1 } else { row.right += 1 }
            }
            rows[key] = row
        }
        for key in rows.keys.sorted() {
            let r = rows[key]!
            print(String(format: "  %@: %d right, %d to review, %d wrong, %d without a face; distance median %.3f (min %.3f, max %.3f)",
                         key, r.right, r.review, r.wrong, r.none, median(r.distances), r.distances.min() ?? 0, r.distances.max() ?? 0))
        }
    }
}

/// Unwraps or throws (the benchmark has no test framework).
func requireValue<T>(_ value: T?) throws -> T {
    guard let value else { throw BenchmarkFailure.missing }
    return value
}

enum BenchmarkFailure: Error {
    case missing
}
