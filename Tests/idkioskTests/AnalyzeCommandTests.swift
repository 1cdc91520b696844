import Foundation
import Imaging
import KioskTestKit
import Testing

/// `idkiosk analyze document` on the demo's recording, on stills cut from it, and on
/// inputs that cannot be read.
@Suite struct AnalyzeCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-analyze-\(UUID().uuidString)").path

    /// The frames of the demo's document recording, as JPEG stills.
    func recording() throws -> [[UInt8]] {
        let written = IDKioskBinary.run("sim", "recordings", "--out", folder, "--frames", "12")
        try #require(written.status == 0, "\(written.stderr)")
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/document.mjpeg")))
        // Split at each start-of-image marker that follows an end-of-image one.
        var frames: [[UInt8]] = []
        var start = 0
        for i in 1..<(data.count - 1) where data[i - 1] == 0xD9 && data[i] == 0xFF && data[i + 1] == 0xD8 && i - start > 2 {
            frames.append(Array(data[start..<i]))
            start = i
        }
        frames.append(Array(data[start...]))
        return frames
    }

    struct Report: Decodable {
        struct Frame: Decodable {
            var state: String?
            var documentClass: String?
            var corners: [[Double]]?
            var error: String?
        }
        var input: String
        var frames: [Frame]
    }

    @Test func theRecordingGoesFromAnEmptyPlatenToAPageReadyToTake() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try recording()
        let run = IDKioskBinary.run("analyze", "document", folder, "--json")
        #expect(run.status == 0, "\(run.stderr)")
        let reports = try JSONDecoder().decode([Report].self, from: Data(run.stdout.utf8))
        let frames = try #require(reports.first?.frames)
        #expect(frames.count == 12)
        #expect(frames.first?.state == "centerId")
        #expect(frames.first?.documentClass == nil)
        #expect(frames.last?.state == "ready")
        #expect(frames.last?.documentClass == "TD3")
        // The page lies at (290, 120) to (990, 601) give or take the camera's jitter.
        let corners = try #require(frames.last?.corners)
        #expect((corners[0][0] - 290).magnitude <= 3 && (corners[0][1] - 120).magnitude <= 3)
        #expect((corners[2][0] - 990).magnitude <= 3 && (corners[2][1] - 601).magnitude <= 3)
    }

    @Test func stillsAreAnalysedOnTheirOwnOrAgainstABackgroundStill() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let frames = try recording()
        let empty = folder + "/empty.jpg", page = folder + "/page.jpg"
        try Data(frames[0]).write(to: URL(fileURLWithPath: empty))
        try Data(frames[11]).write(to: URL(fileURLWithPath: page))
        for arguments in [["analyze", "document", page, "--json"], ["analyze", "document", page, "--background", empty, "--json"]] {
            let run = runCapturing(IDKioskBinary.path, arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let reports = try JSONDecoder().decode([Report].self, from: Data(run.stdout.utf8))
            #expect(reports.first?.frames.first?.documentClass == "TD3", "\(arguments)")
            #expect(reports.first?.frames.first?.state == "ready", "\(arguments)")
        }
        let text = IDKioskBinary.run("analyze", "document", page, empty)
        #expect(text.status == 0)
        #expect(text.stdout.contains("ready") && text.stdout.contains("centerId"))
    }

    @Test func anUnreadableInputIsBadInputAndNamesIt() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let corrupt = folder + "/corrupt.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: URL(fileURLWithPath: corrupt))
        let bad = IDKioskBinary.run("analyze", "document", corrupt)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("corrupt.jpg"))
        #expect(IDKioskBinary.run("analyze", "document", folder + "/missing.png").status == 64)
        #expect(IDKioskBinary.run("analyze", "document", folder + "/missing.mjpeg").status == 64)
        #expect(IDKioskBinary.run("analyze", "document").status == 64)
    }

    /// A generated recording of a passport page in OCR-B: the chip key is read from two
    /// agreeing frames; the lines are printed only with --show-data, and then they are the
    /// page's own (its ground truth).
    @Test(.enabled(if: VisionDataSet() != nil && VisionCrops.hasModel, "needs \(VisionDataSet.missing) and the MRZ model (`make vision-models`)"))
    func theKeyIsReadFromARecordingAndItsLinesShownOnlyWhenAsked() throws {
        let data = try #require(VisionDataSet())
        let recording = data.sequence("td3-slide-in")
        let plain = IDKioskBinary.run("analyze", "document", "--models", VisionCrops.models, recording)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("chip key from the MRZ: read"))
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data.root + "/sequences/td3-slide-in.json"))) as? [Any]
        let lines = try #require(truth?.compactMap { ($0 as? [String: Any])?["mrz"] as? [String] }.first)
        #expect(!lines.contains { plain.stdout.contains($0) })
        let shown = IDKioskBinary.run("analyze", "document", "--models", VisionCrops.models, recording, "--show-data")
        #expect(lines.allSatisfy { shown.stdout.contains($0) })
        // Without a model the analysis still runs, and says the key was not read.
        let none = IDKioskBinary.run("analyze", "document", "--models", "/nonexistent", recording)
        #expect(none.status == 0)
        #expect(none.stdout.contains("chip key from the MRZ: not read"))
        #expect(none.stderr.contains("model-missing") || none.stderr.contains("not read"))
    }

    /// Bad frames mid-stream: a corrupt JPEG and a frame of another size in the generated
    /// recording. The corrupt one is reported as an error on its own line, the other is
    /// analysed, and the analysis goes on to read the key; the exit code stays 0.
    @Test(.enabled(if: VisionDataSet() != nil && VisionCrops.hasModel, "needs \(VisionDataSet.missing) and the MRZ model (`make vision-models`)"))
    func aCorruptFrameAndAFrameOfAnotherSizeMidStreamAreSaidAndTheKeyIsStillRead() throws {
        let data = try #require(VisionDataSet())
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: data.sequence("td3-slide-in"))))
        var frames: [[UInt8]] = []
        var start = 0
        for i in 2..<(bytes.count - 1) where bytes[i - 2] == 0xFF && bytes[i - 1] == 0xD9 && bytes[i] == 0xFF && bytes[i + 1] == 0xD8 {
            frames.append(Array(bytes[start..<i]))
            start = i
        }
        frames.append(Array(bytes[start...]))
        try #require(frames.count > 40)
        // A frame cut short and filled with noise, its markers kept; then a 640x360 frame.
        let corrupt: [UInt8] = Array(frames[5].prefix(600)) + (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) } + [0xFF, 0xD9]
        var small = RGBImage(width: 640, height: 360)
        for i in stride(from: 0, to: small.pixels.count, by: 3) { small.pixels[i] = 60; small.pixels[i + 1] = 60; small.pixels[i + 2] = 60 }
        let other = try JPEGCodec().encode(small, quality: 80)
        var edited = frames
        edited.insert(corrupt, at: 6)
        edited.insert(other, at: 12)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/edited.mjpeg"
        try Data(edited.joined()).write(to: URL(fileURLWithPath: path))
        let run = IDKioskBinary.run("analyze", "document", "--models", VisionCrops.models, "--json", path)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONDecoder().decode([Report].self, from: Data(run.stdout.utf8)).first)
        #expect(report.frames.count == edited.count)
        #expect(report.frames[6].error != nil)
        #expect(report.frames[12].error == nil && report.frames[12].state == "centerId")
        #expect(report.frames.filter { $0.error != nil }.count == 1)
        #expect(report.frames.contains { $0.state == "ready" })
        let plain = IDKioskBinary.run("analyze", "document", "--models", VisionCrops.models, path)
        #expect(plain.stdout.contains("chip key from the MRZ: read"), "\(plain.stdout.suffix(300))")
    }
}
