import Camera
import Foundation
import Imaging
import KioskTestKit
import Testing

/// `idkiosk match` and `idkiosk analyze face` on real photographs Debian ships.
@Suite(.enabled(if: FacePhotos.available && FacePhotos.models != nil, "needs \(FacePhotos.missing) and \(FacePhotos.modelsMissing)"))
struct FaceCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-face-\(UUID().uuidString)").path

    struct Match: Decodable {
        var decision: String
        var distance: Double
        var similarity: Double
    }

    /// The astronaut photograph cut to a small portrait, as a chip's DG2 might hold it, in `format`.
    func portrait(jpeg2000: Bool) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let image = try FacePhotos.astronaut
        var crop = RGBImage(width: 160, height: 200)
        for y in 0..<200 { for x in 0..<160 { for c in 0..<3 { crop.pixels[3 * (y * 160 + x) + c] = image.pixels[3 * ((40 + y) * 512 + 143 + x) + c] } } }
        let path = folder + (jpeg2000 ? "/dg2.jp2" : "/dg2.jpg")
        let bytes = jpeg2000 ? try JPEG2000.encode(crop, ratio: 20) : try JPEGCodec().encode(crop, quality: 70)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a small JPEG 2000 portrait matches the photograph it came from: exit 0")
    func matchesItsOwnPortrait() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = IDKioskBinary.run("match", "--models", VisionCrops.models, "--json", FacePhotos.astronautPath, try portrait(jpeg2000: true))
        #expect(run.status == 0, "\(run.stderr)")
        let match = try JSONDecoder().decode(Match.self, from: Data(run.stdout.utf8))
        #expect(match.decision == "match")
        #expect(match.distance < 0.4)
    }

    @Test("two people: noMatch, exit 65; an image without a face: exit 64; no models: exit 78")
    func noMatchAndErrors() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let other = IDKioskBinary.run("match", "--models", VisionCrops.models, FacePhotos.astronautPath, FacePhotos.hopperPath)
        #expect(other.status == 65)
        #expect(other.stdout.hasPrefix("noMatch"))
        let cup = IDKioskBinary.run("match", "--models", VisionCrops.models, FacePhotos.astronautPath, FacePhotos.coffeePath)
        #expect(cup.status == 64)
        #expect(cup.stderr.contains("no face found"))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let broken = folder + "/broken.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: URL(fileURLWithPath: broken))
        #expect(IDKioskBinary.run("match", "--models", VisionCrops.models, FacePhotos.astronautPath, broken).status == 64)
        let none = IDKioskBinary.run("match", "--models", folder, FacePhotos.astronautPath, FacePhotos.hopperPath)
        #expect(none.status == 78)
        #expect(none.stderr.contains("model-missing") || none.stderr.contains("is missing"))
    }

    struct Analysis: Decodable {
        struct Frame: Decodable {
            var state: String?
            var faces: Int?
            var landmarks: [[Double]]?
            var rollDegrees: Double?
        }
        var frames: [Frame]
    }

    /// A corrupt frame mid-stream in a held-out recording of a live person: said on its own
    /// line, the frames after it analysed, and the liveness decision still live.
    @Test(.enabled(if: FaceData() != nil, "needs \(FaceData.missing)"))
    func aCorruptFrameMidStreamIsSaidAndTheLivenessCheckGoesOn() throws {
        struct Truth: Decodable { var led: [Int] }
        struct Run: Decodable {
            struct Frame: Decodable {
                var state: String?
                var error: String?
            }
            struct Liveness: Decodable { var decision: String }
            var frames: [Frame]
            var liveness: Liveness?
        }
        let data = try #require(FaceData())
        let sequence = try #require(data.livenessSequences("heldout").first { $0.truth.contains("/genuine/") })
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: sequence.truth)))
        var frames = MJPEG.split([UInt8](try Data(contentsOf: URL(fileURLWithPath: sequence.recording))))
        try #require(frames.count == truth.led.count && frames.count > 10)
        let corrupt: [UInt8] = Array(frames[5].prefix(500)) + (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) } + [0xFF, 0xD9]
        frames.insert(corrupt, at: 6)
        var led = truth.led.map { $0 == 1 ? "1" : "0" }
        led.insert("-", at: 6)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-face-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/edited.mjpeg"
        try Data(frames.joined()).write(to: URL(fileURLWithPath: path))
        let run = IDKioskBinary.run("analyze", "face", "--models", VisionCrops.models, "--json", "--led", led.joined(), path)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONDecoder().decode([Run].self, from: Data(run.stdout.utf8)).first)
        #expect(report.frames.count == frames.count)
        #expect(report.frames[6].error != nil)
        #expect(report.frames.filter { $0.error != nil }.count == 1)
        #expect(report.frames[7].state != nil)
        #expect(report.liveness?.decision == "live", "\(run.stdout.suffix(400))")
    }

    @Test("analyze face on a still: one face, five landmarks near the annotated ones, its guidance")
    func analyzeStill() throws {
        let run = IDKioskBinary.run("analyze", "face", "--models", VisionCrops.models, "--json", FacePhotos.astronautPath)
        #expect(run.status == 0, "\(run.stderr)")
        let frame = try #require(try JSONDecoder().decode([Analysis].self, from: Data(run.stdout.utf8)).first?.frames.first)
        #expect(frame.faces == 1)
        // The face is 17 % of the photograph's width: the station would ask to come closer.
        #expect(frame.state == "moveCloser")
        let landmarks = try #require(frame.landmarks)
        for (seen, truth) in zip(landmarks, FacePhotos.astronautLandmarks.points) {
            #expect(abs(seen[0] - truth.x) < 6 && abs(seen[1] - truth.y) < 6)
        }
        let plain = IDKioskBinary.run("analyze", "face", "--models", VisionCrops.models, FacePhotos.coffeePath)
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("centerFace"))
        #expect(IDKioskBinary.run("analyze", "face", "--led", "01x", FacePhotos.coffeePath).status == 64)
    }
}

/// `idkiosk diag models`: what the station would load, and what is wrong when it cannot.
@Suite struct DiagModelsCommandTests {
    @Test(.enabled(if: FacePhotos.models != nil && VisionCrops.hasModel, "needs the models (make vision-models)"))
    func everyModelLoads() throws {
        let run = IDKioskBinary.run("diag", "models", "--models", VisionCrops.models, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(reports.count == 2)
        #expect(reports.allSatisfy { $0["available"] as? Bool == true })
    }

    @Test func aMissingFolderIsSaidAndExits78() throws {
        let run = IDKioskBinary.run("diag", "models", "--models", "/nonexistent/models")
        #expect(run.status == 78)
        #expect(run.stdout.contains("model-missing"))
        #expect(run.stderr.contains("make vision-models"))
    }
}
