import Foundation
import Glibc
import Imaging
import KioskTestKit
import Testing

/// The rig VM (hardware/rig) as the commands see it: vivid and, when built, gpio-sim.
enum CommandRig {
    static func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    static var isActive: Bool { env("IDKIOSK_RIG") != nil }
    static var hasGPIOSim: Bool { env("IDKIOSK_RIG_GPIO_VALUE") != nil }
    static var gpioChip: String { env("IDKIOSK_RIG_GPIO_CHIP") ?? "idkiosk-rig" }
    static var gpioLine: String { env("IDKIOSK_RIG_GPIO_LINE") ?? "FLASH_LED" }
    /// vivid's stable name (its bus position).
    static let vivid = "bus:platform:vivid-000"
    /// TCG emulation is slow: a large first frame from vivid takes seconds.
    static let frameTimeoutMs = "10000"
}

/// The `idkiosk` binary against vivid and gpio-sim inside the rig VM (`make rig-test`).
@Suite(
    "idkiosk commands in the rig VM", .enabled(if: CommandRig.isActive, "needs vivid and gpio-sim in the rig VM: run `make rig-test`"),
    .serialized)
struct CommandRigTests {
    @Test func diagCameraReportsVividWithATestCapture() throws {
        let outcome = IDKioskBinary.run("diag", "camera", "--json", "--frames", "4", "--frame-timeout-ms", CommandRig.frameTimeoutMs)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let devices = object?["devices"] as? [[String: Any]] ?? []
        let vivid = try #require(devices.first { ($0["info"] as? [String: Any])?["driver"] as? String == "vivid" })
        #expect((vivid["modes"] as? [Any])?.isEmpty == false)
        #expect((vivid["controls"] as? [Any])?.isEmpty == false)
        let check = try #require(vivid["streamCheck"] as? [String: Any])
        #expect(check["framesDelivered"] as? Int == 4)
        #expect((check["measuredFramesPerSecond"] as? Double ?? 0) > 0)
        #expect((check["meanLuma"] as? Double ?? 0) > 20)
        // vivid's colour bars and text have hard edges.
        #expect((check["sharpness"] as? Double ?? 0) > 50)

        let text = IDKioskBinary.run("diag", "camera", "--camera", CommandRig.vivid, "--frames", "2", "--frame-timeout-ms", CommandRig.frameTimeoutMs)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("preview mode: "))
        #expect(text.stdout.contains("brightness: "))
        #expect(text.stdout.contains("sharpness: "))
    }

    @Test func captureAStill() throws {
        let still = "/tmp/rig-still.jpg"
        let outcome = IDKioskBinary.run(
            "capture", "--camera", CommandRig.vivid, "--out", still, "--purpose", "preview", "--warmup", "1",
            "--frame-timeout-ms", CommandRig.frameTimeoutMs, "--json")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: still)))
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let mode = object?["mode"] as? [String: Any]
        let size = try JPEGCodec().size(of: jpeg)
        #expect(size.width == mode?["width"] as? Int && size.height == mode?["height"] as? Int)
        #expect(object?["jpegBytes"] as? Int == jpeg.count)
    }

    @Test func recordThenReplayTheRecording() throws {
        let recording = "/tmp/rig-record.y4m"
        let outcome = IDKioskBinary.run(
            "capture", "--camera", CommandRig.vivid, "--record", recording, "--seconds", "1", "--frame-timeout-ms", CommandRig.frameTimeoutMs,
            "--json")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let written = object?["framesWritten"] as? Int ?? 0
        #expect(written >= 1)
        let still = "/tmp/rig-replayed.jpg"
        let replay = IDKioskBinary.run("capture", "--camera", "file:\(recording)", "--out", still)
        #expect(replay.status == 0, "\(replay.stderr)")
        unlink(recording)
    }

    @Test(.enabled(if: CommandRig.hasGPIOSim, "needs gpio-sim, built out of tree: see hardware/rig/README.md"))
    func ledAndDiagFlashOnGPIOSim() throws {
        let line = ["--flash-chip", CommandRig.gpioChip, "--flash-line", CommandRig.gpioLine]
        for action in ["on", "off", "pulse"] {
            let outcome = runCapturing(IDKioskBinary.path, ["led", action, "--json"] + line)
            #expect(outcome.status == 0, "\(action): \(outcome.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            #expect(object?["isSimulated"] as? Bool == false)
            #expect((object?["location"] as? String)?.contains(CommandRig.gpioLine) == true)
        }
        let diag = runCapturing(IDKioskBinary.path, ["diag", "flash"] + line)
        #expect(diag.status == 0, "\(diag.stderr)")
        #expect(diag.stdout.contains("LED now: off"))

        let missing = IDKioskBinary.run("led", "pulse", "--flash-chip", CommandRig.gpioChip, "--flash-line", "NO_SUCH_LINE")
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("hint: check flash.line"))
    }

    @Test(.enabled(if: CommandRig.hasGPIOSim, "needs gpio-sim, built out of tree: see hardware/rig/README.md"))
    func captureWithTheFlash() throws {
        let outcome = IDKioskBinary.run(
            "capture", "--camera", CommandRig.vivid, "--out", "/tmp/rig-flash.jpg", "--purpose", "preview", "--warmup", "0", "--flash",
            "--flash-chip", CommandRig.gpioChip, "--flash-line", CommandRig.gpioLine, "--frame-timeout-ms", CommandRig.frameTimeoutMs)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("flash on"))
    }
}
