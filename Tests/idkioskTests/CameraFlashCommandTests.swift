import Camera
import Foundation
import Imaging
import KioskTestKit
import Testing

/// `idkiosk diag camera`, `capture`, `led` and `diag flash` where no camera or GPIO is
/// needed: argument checks, missing devices, the simulated flash line and a recording
/// replayed as the camera. The real devices are in `CommandRigTests`.
@Suite struct CameraFlashCommandTests {
    @Test func badArgumentsExit64() {
        let cases: [[String]] = [
            ["capture"],  // neither --out nor --record
            ["capture", "--out", "/tmp/a.jpg", "--record", "/tmp/a.y4m", "--seconds", "1"],
            ["capture", "--record", "/tmp/a.y4m"],
            ["capture", "--record", "/tmp/a.y4m", "--seconds", "0"],
            ["capture", "--out", "/tmp/a.jpg", "--seconds", "3"],
            ["capture", "--record", "/tmp/a.y4m", "--seconds", "1", "--flash"],
            ["capture", "--out", "/tmp/a.jpg", "--quality", "0"],
            ["capture", "--out", "/tmp/a.jpg", "--purpose", "selfie"],
            ["capture", "--out", "/tmp/a.jpg", "--camera", "video0"],
            ["diag", "camera", "--frames", "301"],
            ["diag", "camera", "--frame-timeout-ms", "5"],
            ["led", "blink"],
            ["led", "on", "--ms", "100", "--simulated"],
            ["led", "pulse", "--ms", "0", "--simulated"],
            ["led", "pulse", "--simulated", "--flash-chip", "gpiochip0"],
            ["diag", "flash", "--ms", "0", "--simulated"],
        ]
        for arguments in cases {
            let outcome = runIDKiosk(arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func aCameraThatIsNotThereExits69WithAHint() {
        let outcome = IDKioskBinary.run("capture", "--out", tempPath("none.jpg"), "--camera", "/dev/video-idkiosk-none")
        #expect(outcome.status == 69)
        #expect(outcome.stderr.contains("/dev/video-idkiosk-none does not exist"))
        #expect(outcome.stderr.contains("hint: check the camera's USB cable"))
        let diag = IDKioskBinary.run("diag", "camera", "--camera", "card:no-such-camera")
        #expect(diag.status == 69)
        #expect(diag.stderr.contains("no capture device with name no-such-camera"))
        #expect(diag.stderr.contains("hint:"))
    }

    @Test(.enabled(if: CameraDiscovery.list().isEmpty, "this machine has video devices; the rig tests cover them"))
    func noCameraAtAllExits69() throws {
        let text = IDKioskBinary.run("diag", "camera")
        #expect(text.status == 69)
        #expect(text.stdout.contains("video nodes: 0"))
        #expect(text.stderr.contains("no camera: the kernel shows no video capture device"))
        #expect(text.stderr.contains("hint: connect the camera"))
        let json = IDKioskBinary.run("diag", "camera", "--json")
        #expect(json.status == 69)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["devices"] as? [Any])?.isEmpty == true)
        #expect(IDKioskBinary.run("capture", "--out", tempPath("none.jpg")).status == 69)
    }

    @Test func ledOnTheSimulatedLine() throws {
        for action in ["on", "off", "pulse"] {
            let outcome = IDKioskBinary.run("led", action, "--simulated", "--json")
            #expect(outcome.status == 0, "\(action): \(outcome.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            #expect(object?["action"] as? String == action)
            #expect(object?["isSimulated"] as? Bool == true)
            #expect(object?["maximumOnMilliseconds"] as? Int == 2000)
            #expect(object?["isOn"] as? Bool == (action == "on"))
        }
        let pulse = IDKioskBinary.run("led", "pulse", "--ms", "30", "--simulated")
        #expect(pulse.status == 0)
        #expect(pulse.stdout.contains("flash line: simulated (no GPIO)"))
        #expect(pulse.stdout.contains("pulse: 30 ms"))
        #expect(pulse.stdout.contains("LED now: off"))

        let diag = IDKioskBinary.run("diag", "flash", "--simulated", "--json")
        #expect(diag.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(diag.stdout.utf8)) as? [String: Any]
        #expect(object?["action"] as? String == "diagnose")
        #expect(object?["isOn"] as? Bool == false)
    }

    @Test func theConfigurationChoosesTheFlashLineAndItsLimit() throws {
        let simulated = try configFile("flash:\n  simulated: true\n  maximum-on-ms: 100\n")
        defer { try? FileManager.default.removeItem(atPath: simulated) }
        let ok = IDKioskBinary.run("led", "pulse", "--ms", "50", "--config", simulated, "--json")
        #expect(ok.status == 0, "\(ok.stderr)")
        let tooLong = IDKioskBinary.run("led", "pulse", "--ms", "150", "--config", simulated)
        #expect(tooLong.status == 64)
        #expect(tooLong.stderr.contains("flash.maximum-on-ms: 100"))

        // No line configured and none simulated: the technician is told what to set.
        let none = IDKioskBinary.run("led", "on", "--config", try configFile(""))
        #expect(none.status == 78)
        #expect(none.stderr.contains("no flash line configured"))
        #expect(none.stderr.contains("hint: set flash.chip and flash.line"))

        let half = IDKioskBinary.run("led", "on", "--config", try configFile("flash:\n  chip: gpiochip0\n"))
        #expect(half.status == 78)
        #expect(half.stderr.contains("flash.line"))
    }

    @Test func aFlashChipThatIsNotThereExits69() {
        let outcome = IDKioskBinary.run("led", "pulse", "--flash-chip", "idkiosk-no-such-chip", "--flash-line", "FLASH_LED")
        #expect(outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("hint: check flash.chip"))
    }

    /// `--camera file:PATH` replays a recording as the camera: a still from it is a JPEG
    /// of the recording's size.
    @Test func aStillFromARecording() throws {
        let recording = tempPath("bars.y4m")
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let mode = CaptureMode(format: .yuyv, width: 64, height: 48, interval: FrameInterval(fps: 30))
        let writer = try Y4MWriter(path: recording, mode: mode)
        // Vertical bars of luma, neutral chroma: Y0 U Y1 V per pixel pair.
        let row = (0..<32).flatMap { pair -> [UInt8] in
            let y = UInt8(truncatingIfNeeded: (pair / 4) * 32)
            return [y, 128, y, 128]
        }
        for n in 0..<3 {
            try writer.append(Frame(format: .yuyv, width: 64, height: 48, sequence: UInt32(n), bytes: Array((0..<48).map { _ in row }.joined())))
        }
        let still = tempPath("still.jpg")
        defer { try? FileManager.default.removeItem(atPath: still) }
        let outcome = IDKioskBinary.run("capture", "--camera", "file:\(recording)", "--out", still, "--json")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let reported = object?["mode"] as? [String: Any]
        #expect(reported?["width"] as? Int == 64)
        #expect(reported?["height"] as? Int == 48)
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: still)))
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        #expect(object?["jpegBytes"] as? Int == jpeg.count)
        #expect(try JPEGCodec().size(of: jpeg) == (64, 48))

        let unwritable = IDKioskBinary.run("capture", "--camera", "file:\(recording)", "--out", "/nonexistent-dir/still.jpg")
        #expect(unwritable.status == 64)
        #expect(unwritable.stderr.contains("cannot write /nonexistent-dir/still.jpg"))

        #expect(IDKioskBinary.run("diag", "camera", "--camera", "file:\(recording)").status == 64)
        #expect(IDKioskBinary.run("capture", "--camera", "file:\(recording)", "--record", tempPath("r.y4m"), "--seconds", "1").status == 64)
        let garbage = try configFile("not a recording")
        #expect(IDKioskBinary.run("capture", "--camera", "file:\(garbage)", "--out", still).status == 64)
    }

    /// A folder of recordings as `sim recordings` writes it: the still comes from the
    /// recording the station would use for the purpose (the same code opens it).
    @Test func aStillFromAFolderOfRecordingsTakesTheOneForThePurpose() throws {
        let folder = tempPath("recordings")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let written = IDKioskBinary.run("sim", "recordings", "--out", folder, "--frames", "4")
        #expect(written.status == 0, "\(written.stderr)")
        let still = tempPath("still.jpg")
        defer { try? FileManager.default.removeItem(atPath: still) }
        let document = IDKioskBinary.run("capture", "--camera", "file:\(folder)", "--out", still)
        #expect(document.status == 0, "\(document.stderr)")
        #expect(try JPEGCodec().size(of: [UInt8](Data(contentsOf: URL(fileURLWithPath: still)))) == (1280, 720))
        let face = IDKioskBinary.run("capture", "--camera", "file:\(folder)", "--out", still, "--purpose", "face")
        #expect(face.status == 0, "\(face.stderr)")
        #expect(try JPEGCodec().size(of: [UInt8](Data(contentsOf: URL(fileURLWithPath: still)))) == (640, 480))
    }

    private func runIDKiosk(_ arguments: [String]) -> ProcessOutcome {
        runCapturing(IDKioskBinary.path, arguments, extraEnvironment: [:])
    }

    private func tempPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-\(UUID().uuidString)-\(name)").path
    }

    private func configFile(_ text: String) throws -> String {
        let path = tempPath("config.yaml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
