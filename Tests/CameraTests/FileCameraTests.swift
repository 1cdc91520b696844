import Camera
import Foundation
import Imaging
import KioskTestKit
import Testing

@Suite("File camera and Y4M")
struct FileCameraTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-\(UUID().uuidString)-\(name)").path
    }

    @Test func parsesHeaders() throws {
        let (h, length) = try Y4MHeader.parse(Array("YUV4MPEG2 W640 H360 F30000:1001 Ip A1:1 C420jpeg XYSCSS=420JPEG\nFRAME".utf8))
        #expect(h == Y4MHeader(width: 640, height: 360, interval: FrameInterval(numerator: 1001, denominator: 30000), colorSpace: .c420))
        #expect(length == 64)
        #expect(h.frameBytes == 640 * 360 * 3 / 2)
        #expect(throws: CameraError.self) { try Y4MHeader.parse(Array("YUV4MPEG2 W4 H4 Ct\n".utf8)) }
        #expect(throws: CameraError.self) { try Y4MHeader.parse(Array("RIFF\n".utf8)) }
    }

    @Test func recordsAndReplaysYUYVExactly() async throws {
        let path = temporaryPath("yuyv.y4m")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mode = CaptureMode(format: .yuyv, width: 4, height: 2, interval: FrameInterval(fps: 10))
        let frames = (0..<3).map { n in
            Frame(format: .yuyv, width: 4, height: 2, bytes: (0..<16).map { UInt8(n * 16 + $0) })
        }
        let writer = try Y4MWriter(path: path, mode: mode)
        for f in frames { try writer.append(f) }

        let clock = TestClock()
        let camera = try FileCamera(path: path, loops: false, clock: clock)
        #expect(camera.framesInFile == 3)
        #expect(camera.mode == mode)
        try await camera.start()
        let first = try await camera.nextFrame(timeout: .seconds(1))
        #expect(first.bytes == frames[0].bytes)
        #expect(first.timestamp == .zero)

        // The second frame is due 100 ms later: nextFrame sleeps on the clock until then.
        let f2 = try await camera.nextFrame(timeout: .seconds(1), advancing: clock, by: .milliseconds(100))
        #expect(f2.bytes == frames[1].bytes)
        #expect(f2.sequence == 1)
        #expect(f2.timestamp == .milliseconds(100))
        #expect(camera.statistics.framesDelivered == 2)
    }

    @Test func replaysAtAChosenRateAndTimesOutLikeAStalledCamera() async throws {
        let path = temporaryPath("grey.y4m")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mode = CaptureMode(format: .grey, width: 2, height: 2, interval: FrameInterval(fps: 30))
        let writer = try Y4MWriter(path: path, mode: mode)
        try writer.append(Frame(format: .grey, width: 2, height: 2, bytes: [1, 2, 3, 4]))

        let clock = TestClock()
        let camera = try FileCamera(path: path, interval: FrameInterval(fps: 2), loops: true, clock: clock)
        try await camera.start()
        _ = try await camera.nextFrame(timeout: .seconds(1))
        // Next frame due at 500 ms; a 200 ms wait ends in .timeout after 200 ms.
        do {
            _ = try await camera.nextFrame(timeout: .milliseconds(200), advancing: clock, by: .milliseconds(200))
            Issue.record("a frame arrived before it was due")
        } catch {
            #expect((error as? CameraError)?.kind == .timeout)
        }
        #expect(camera.statistics.timeouts == 1)
        // Looping: the same single frame comes again once due.
        let again = try await camera.nextFrame(timeout: .seconds(1), advancing: clock, by: .milliseconds(300))
        #expect(again.bytes == [1, 2, 3, 4])
    }

    @Test func nv12IsRecordedAsI420WithTheSamePixels() async throws {
        let path = temporaryPath("nv12.y4m")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let nv12 = Frame(format: .nv12, width: 2, height: 2, bytes: [81, 82, 83, 84, 90, 240])
        let writer = try Y4MWriter(path: path, mode: CaptureMode(format: .nv12, width: 2, height: 2, interval: FrameInterval(fps: 5)))
        try writer.append(nv12)
        let camera = try FileCamera(path: path, clock: TestClock())
        try await camera.start()
        let replayed = try await camera.nextFrame(timeout: .seconds(1))
        #expect(replayed.format == .i420)
        var a = RGBImage(), b = RGBImage()
        try PixelConversion.rgb(of: nv12, into: &a)
        try PixelConversion.rgb(of: replayed, into: &b)
        #expect(a == b)
    }

    @Test func missingFileIsNotFound() {
        do {
            _ = try FileCamera(path: "/nonexistent/x.y4m", clock: TestClock())
            Issue.record("opened a missing file")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.call == "open")
        }
    }
}

extension FrameSource {
    /// Waits for the next frame while another task moves `clock` on by `step` once this
    /// source sleeps on it.
    func nextFrame(timeout: Duration, advancing clock: TestClock, by step: Duration) async throws -> Frame {
        let mover = Task {
            let asleep = await clock.waitForSleepers(1)
            clock.advance(by: step)
            return asleep
        }
        defer { mover.cancel() }
        let frame: Frame
        do {
            frame = try await nextFrame(timeout: timeout)
        } catch {
            #expect(await mover.value, "the source never slept on the clock")
            throw error
        }
        #expect(await mover.value, "the source never slept on the clock")
        return frame
    }
}
