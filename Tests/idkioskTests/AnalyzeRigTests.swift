import Camera
import Foundation
import Glibc
import Imaging
import KioskTestKit
import Synchronization
import Testing

/// What the rig VM holds for the analysis through a real V4L2 device: a generated
/// recording of a passport page sliding in (hardware/rig/rig.sh copies it) and the MRZ model.
enum VisionRig {
    static var sequence: String? { CommandRig.env("IDKIOSK_RIG_SEQUENCE") }
    static var faceSequence: String? { CommandRig.env("IDKIOSK_RIG_FACE_SEQUENCE") }
    /// The field scenes' demo booklet: a passport open at its data page placed on the platen.
    static var booklet: String? { CommandRig.env("IDKIOSK_RIG_BOOKLET") }
    static var hasBooklet: Bool { CommandRig.isActive && access("/dev/video10", F_OK) == 0 && booklet != nil && models != nil }
    static var hasFace: Bool { CommandRig.isActive && access("/dev/video10", F_OK) == 0 && faceSequence != nil && models != nil }
    static var models: String? { CommandRig.env("IDKIOSK_RIG_MODELS") }
    static var isActive: Bool {
        CommandRig.isActive && access("/dev/video10", F_OK) == 0 && sequence != nil && models != nil
    }
}

/// `idkiosk analyze document /dev/video10` in the rig VM, with v4l2loopback fed the frames
/// of a generated recording: the camera path of the station end to end (V4L2 streaming,
/// MJPEG decoding, the finder learning the platen, the MRZ read twice), and the key is read.
@Suite(
    "analyze document through v4l2loopback in the rig VM",
    .enabled(if: VisionRig.isActive, "needs v4l2loopback, the generated recording and the MRZ model in the rig VM: run `make rig-test`"))
struct AnalyzeRigTests {
    @Test func aPageSlidingInFrontOfTheCameraGivesTheChipKey() throws {
        try Self.expectReadyAndKey(recording: try #require(VisionRig.sequence), frames: 90)
    }

    /// `idkiosk analyze document /dev/video10 --frames N` while `recording` is fed: it ends
    /// well, some frame is ready and the chip key is read.
    static func expectReadyAndKey(recording: String, frames: Int) throws {
        let models = try #require(VisionRig.models)
        let run = try LoopbackFeed.while(recording) {
            IDKioskBinary.run("analyze", "document", "/dev/video10", "--frames", "\(frames)", "--models", models, "--json")
        }
        #expect(run.status == 0, "\(run.stderr)")
        let reports = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        let report = try #require(reports?.first)
        let states = (report["frames"] as? [[String: Any]])?.compactMap { $0["state"] as? String } ?? []
        #expect(states.contains("ready"), "\(states)")
        #expect(report["chipKeyRead"] as? Bool == true, "\(states)")
    }
}

/// `idkiosk analyze document /dev/video10` in the rig VM with v4l2loopback fed a passport
/// open in its booklet (the facing page above the data page, the cover's edge): the page is
/// found and guided to ready, and the key is read from the MRZ (issue 25's real peer).
@Suite(
    "analyze a booklet through v4l2loopback in the rig VM",
    .enabled(if: VisionRig.hasBooklet, "needs v4l2loopback, the field scenes' demo booklet and the MRZ model in the rig VM: run `make rig-test`"))
struct AnalyzeBookletRigTests {
    @Test func aPassportOpenInItsBookletGivesTheChipKey() throws {
        try AnalyzeRigTests.expectReadyAndKey(recording: try #require(VisionRig.booklet), frames: 60)
    }
}

/// `idkiosk analyze face /dev/video10` in the rig VM, with v4l2loopback fed the generated
/// face recording (a person turning slightly): the face is found through a real V4L2
/// device, with its landmarks, and the guidance speaks.
@Suite(
    "analyze face through v4l2loopback in the rig VM",
    .enabled(if: VisionRig.hasFace, "needs v4l2loopback, the generated face recording and the face models in the rig VM: run `make rig-test`"))
struct AnalyzeFaceRigTests {
    @Test func aPersonInFrontOfTheCameraIsFoundAndGuided() throws {
        let path = try #require(VisionRig.faceSequence), models = try #require(VisionRig.models)
        let run = try LoopbackFeed.while(path) {
            IDKioskBinary.run("analyze", "face", "/dev/video10", "--frames", "45", "--models", models, "--json")
        }
        #expect(run.status == 0, "\(run.stderr)")
        let reports = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        let frames = try #require(reports?.first?["frames"] as? [[String: Any]])
        let withLandmarks = frames.filter { ($0["landmarks"] as? [[Double]])?.count == 5 }
        let states = Set(frames.compactMap { $0["state"] as? String })
        #expect(frames.count == 45)
        #expect(withLandmarks.count >= 35, "\(withLandmarks.count) of \(frames.count) frames with a face")
        #expect(!states.isEmpty && states != ["centerFace"], "\(states)")
    }
}

/// Feeds v4l2loopback's /dev/video10 with a recording, round and round at 15 fps, while
/// `body` runs.
enum LoopbackFeed {
    static func `while`<T>(_ recording: String, _ body: () throws -> T) throws -> T {
        let frames = MJPEG.split([UInt8](try Data(contentsOf: URL(fileURLWithPath: recording))))
        try #require(frames.count > 30)
        let size = try JPEGCodec().size(of: frames[0])
        let mode = CaptureMode(format: .mjpeg, width: size.width, height: size.height, interval: FrameInterval(fps: 15))
        let writer = LoopbackWriter()
        let thread = Thread {
            do {
                let output = try V4L2Output(path: "/dev/video10")
                _ = try output.configure(mode)
                var k = 0
                while !writer.stopped {
                    try output.write(Frame(format: .mjpeg, width: size.width, height: size.height, bytes: frames[k % frames.count]))
                    writer.wrote()
                    k += 1
                    usleep(66_000)
                }
            } catch {
                writer.failed("\(error)")
            }
            writer.finish()
        }
        thread.start()
        defer { writer.stop() }
        for _ in 0..<100 where writer.written == 0 && writer.failure == nil { usleep(50_000) }
        try #require(writer.written > 0, "the loopback writer: \(writer.failure ?? "wrote nothing")")
        let result = try body()
        writer.stop()
        // The writer closes the device before the next feed opens it.
        for _ in 0..<40 where !writer.finished { usleep(50_000) }
        return result
    }
}

/// The state the writer thread and the test share.
final class LoopbackWriter: Sendable {
    private let state = Mutex<(stopped: Bool, written: Int, failure: String?)>((false, 0, nil))
    private let done = Mutex(false)
    var finished: Bool { done.withLock { $0 } }
    func finish() { done.withLock { $0 = true } }
    var stopped: Bool { state.withLock { $0.stopped } }
    var written: Int { state.withLock { $0.written } }
    var failure: String? { state.withLock { $0.failure } }
    func stop() { state.withLock { $0.stopped = true } }
    func wrote() { state.withLock { $0.written += 1 } }
    func failed(_ message: String) { state.withLock { $0.failure = message } }
}
