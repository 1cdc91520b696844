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
}
