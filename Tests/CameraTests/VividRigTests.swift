import Camera
import Glibc
import Imaging
import KioskTestKit
import Logging
import Testing

/// Whether these tests run inside the rig VM (hardware/rig), where vivid is loaded.
enum Rig {
    static var isActive: Bool { getenv("IDKIOSK_RIG") != nil }
    static var modules: String { getenv("IDKIOSK_RIG_MODULES").map { String(cString: $0) } ?? "/lib/modules/rig" }
    /// vivid's stable position; the node number may change when it comes back.
    static let vividName = "bus:platform:vivid-000"
    /// TCG emulation is slow: vivid may take a while for a large first frame.
    static let frameTimeout = Duration.seconds(5)
}

/// Camera tests against the kernel's vivid driver, in the rig VM (`make rig-test`).
@Suite("vivid in the rig VM", .enabled(if: Rig.isActive, "needs the vivid driver in the rig VM: run `make rig-test`"), .serialized)
struct VividRigTests {
    let logger = Logger(label: "VividRigTests")

    @Test func discoversVividAsACaptureDevice() throws {
        let devices = CameraDiscovery.captureDevices()
        let vivid = try #require(devices.first { $0.driver == "vivid" })
        #expect(vivid.isCapture)
        #expect(vivid.busInfo == "platform:vivid-000")
        #expect(vivid.capabilities.contains("streaming"))
        #expect(try CameraDiscovery.resolve(Rig.vividName) == vivid.path)
    }

    @Test func listsManyRawFormatsAndNegotiates() throws {
        let camera = try V4L2Camera(name: Rig.vividName, logger: logger)
        let modes = try camera.modes()
        let formats = Set(modes.map(\.format))
        #expect(formats.count >= 20, "vivid lists \(formats.count) formats")
        #expect(formats.isSuperset(of: [.yuyv, .nv12, .grey, .uyvy, .i420, .rgb24]))
        #expect(modes.contains { $0.width == 1280 && $0.height == 720 })
        for purpose in CapturePurpose.allCases {
            let chosen = try #require(negotiateMode(modes, for: purpose))
            #expect(modes.contains(chosen))
        }
    }

    /// Captures frames in `format` at a size and checks vivid's 75% colour bars.
    func captureColourBars(_ format: PixelFormat, width: Int, height: Int) throws {
        let camera = try V4L2Camera(name: Rig.vividName, logger: logger)
        let mode = try #require(
            camera.modes().filter { $0.format == format && $0.width == width && $0.height == height }
                .max { $0.framesPerSecond < $1.framesPerSecond })
        let actual = try camera.configure(mode)
        #expect(actual.format == format && actual.width == width && actual.height == height)
        try camera.startStreaming()
        defer { camera.stop() }
        var frames: [Frame] = []
        for _ in 0..<4 { frames.append(try camera.readFrame(timeout: Rig.frameTimeout)) }
        // Timestamps go forward (a buffer read twice would repeat one); sequence numbers
        // never go back. Under TCG load vivid was seen to number the first two frames of
        // a stream 0 and 0 (its counter restarts when its thread catches up), so equal
        // sequence numbers are allowed.
        for (a, b) in zip(frames, frames.dropFirst()) {
            #expect(b.sequence >= a.sequence)
            #expect(b.timestamp > a.timestamp)
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let monotonic = Duration.seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
        // vivid stamps the end of the frame's ideal period, which may be a little ahead of now.
        let age = monotonic - frames.last!.timestamp
        #expect(age > .seconds(-2) && age < .seconds(10), "frame timestamp \(age) from now")
        #expect(camera.statistics.framesDelivered == 4)

        let frame = frames.last!
        var luma = LumaImage(), rgb = RGBImage()
        try PixelConversion.luma(of: frame, into: &luma)
        try PixelConversion.rgb(of: frame, into: &rgb)
        // Below the on-screen text: the centres of the eight bars.
        let y = height * 3 / 4
        let centres = (0..<8).map { (2 * $0 + 1) * width / 16 }
        let lumas = centres.map { Int(luma[$0, y]) }
        // White, yellow, cyan, green, magenta, red, blue, black: luma falls bar by bar.
        #expect(zip(lumas, lumas.dropFirst()).allSatisfy { $0 > $1 }, "bar luma \(lumas)")
        #expect(abs(lumas[0] - 180) <= 8 && abs(lumas[7] - 16) <= 8, "bar luma \(lumas)")
        let yellow = rgb[centres[1], y], red = rgb[centres[5], y], blue = rgb[centres[6], y]
        #expect(yellow.r > 150 && yellow.g > 150 && yellow.b < 60, "yellow \(yellow)")
        #expect(red.r > 150 && red.g < 60 && red.b < 60, "red \(red)")
        #expect(blue.b > 150 && blue.r < 60 && blue.g < 60, "blue \(blue)")
    }

    @Test func capturesYUYVAt640x360() throws {
        try captureColourBars(.yuyv, width: 640, height: 360)
    }

    @Test func capturesNV12At1280x720() throws {
        try captureColourBars(.nv12, width: 1280, height: 720)
    }

    @Test func capturesGREYAt320x180() throws {
        let camera = try V4L2Camera(name: Rig.vividName, logger: logger)
        let mode = try #require(camera.modes().first { $0.format == .grey && $0.width == 320 && $0.height == 180 })
        try camera.configure(mode)
        try camera.startStreaming()
        defer { camera.stop() }
        let frame = try camera.readFrame(timeout: Rig.frameTimeout)
        #expect(frame.bytes.count >= 320 * 180)
        var luma = LumaImage()
        try PixelConversion.luma(of: frame, into: &luma)
        #expect(luma[10, 170] > luma[310, 170])
    }

    @Test func controlsByStationName() throws {
        let camera = try V4L2Camera(name: Rig.vividName, logger: logger)
        let map = ControlMapping.resolveAll(try camera.controls())
        #expect(map[.brightness] != nil)
        #expect(map[.contrast] != nil)
        let written = try camera.set(.brightness, to: 100)
        #expect(try camera.value(of: .brightness) == written)
        #expect(try camera.set(.brightness, to: 10_000) == map[.brightness]!.maximum)
        try camera.set(.brightness, to: map[.brightness]!.defaultValue)
        do {
            try camera.set(.focus, to: 1)
            Issue.record("vivid has no focus control")
        } catch {
            #expect(error.kind == .controlNotSupported)
        }
    }

    /// The liveness challenge holds the automatic controls still: vivid's automatic gain is
    /// switched to manual and back, and a control already manual is left alone.
    @Test func automaticControlsAreHeldAndRestored() throws {
        let camera = try V4L2Camera(name: Rig.vividName, logger: logger)
        let map = ControlMapping.resolveAll(try camera.controls())
        try #require(map[.autoGain] != nil, "vivid offers Gain, Automatic")
        try camera.set(.autoGain, to: 1)
        let hold = camera.holdExposure()
        #expect(hold.restore[.autoGain] == 1)
        #expect(try camera.value(of: .autoGain) == 0)
        camera.release(hold)
        #expect(try camera.value(of: .autoGain) == 1)
        try camera.set(.autoGain, to: 0)
        let none = camera.holdExposure()
        #expect(none.restore[.autoGain] == nil)
        #expect(try camera.value(of: .autoGain) == 0)
        camera.release(none)
        try camera.set(.autoGain, to: map[.autoGain]!.defaultValue)
    }

    /// Unplug (vivid's Disconnect button) is reported within a second; after the
    /// driver comes back (rmmod + insmod), the camera reopens by its stable name.
    @Test func unplugIsDetectedAndTheCameraReopensByName() throws {
        let camera = try V4L2Camera(name: Rig.vividName, logger: logger)
        let mode = try #require(camera.modes().first { $0.format == .yuyv && $0.width == 320 && $0.height == 180 })
        try camera.configure(mode)
        try camera.startStreaming()
        _ = try camera.readFrame(timeout: Rig.frameTimeout)
        let disconnect = try #require(try camera.controls().first { $0.name == "Disconnect" })
        try camera.setRaw(controlID: disconnect.id, to: 1)

        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let before = Duration.seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
        var unplugged: CameraError?
        for _ in 0..<50 {
            do {
                _ = try camera.readFrame(timeout: .seconds(1))
            } catch {
                unplugged = error
                break
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &now)
        let after = Duration.seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
        #expect(unplugged?.kind == .unplugged, "got \(String(describing: unplugged))")
        #expect(after - before < .seconds(3))

        // The camera closed its node when it went away, so the driver can be unloaded;
        // while it is gone, reopening fails as "not found"; when it is back, it works.
        #expect(runToCompletion("/bin/rmmod", ["vivid"]) == 0)
        do {
            try camera.reopen()
            Issue.record("reopened a camera whose driver is unloaded")
        } catch {
            #expect(error.kind == .notFound)
        }
        #expect(runToCompletion("/bin/insmod", ["\(Rig.modules)/vivid.ko", "n_devs=1", "node_types=0x1"]) == 0)
        try camera.reopen()
        #expect(camera.statistics.reopens == 1)
        #expect(camera.mode?.format == .yuyv && camera.mode?.width == 320)
        let frame = try camera.readFrame(timeout: Rig.frameTimeout)
        #expect(frame.width == 320)
        camera.stop()
    }
}

/// The diagnostics, capture and record paths against vivid, in the rig VM.
@Suite("Camera commands against vivid in the rig VM", .enabled(if: Rig.isActive, "needs the vivid driver in the rig VM: run `make rig-test`"), .serialized)
struct VividCommandRigTests {
    let logger = Logger(label: "VividCommandRigTests")

    @Test func diagnosticsReportWithStreamCheck() throws {
        let report = CameraDiagnostics.report(streamCheckFrames: 3, timeout: Rig.frameTimeout, logger: logger)
        let vivid = try #require(report.devices.first { $0.info.driver == "vivid" })
        #expect(vivid.error == nil)
        #expect(vivid.negotiated.keys.sorted() == ["document", "face", "preview"])
        #expect(vivid.controls.contains { $0.station == .brightness && $0.current != nil })
        let check = try #require(vivid.streamCheck)
        #expect(check.framesDelivered == 3)
        #expect(check.error == nil)
        #expect((check.meanLuma ?? 0) > 20)
    }

    @Test func captureStillGivesAJPEG() throws {
        let camera = try V4L2Camera(name: Rig.vividName, logger: logger)
        let (jpeg, report) = try CameraDiagnostics.captureStill(camera, purpose: .preview, quality: 80, warmupFrames: 1, timeout: Rig.frameTimeout)
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        #expect(report.jpegBytes == jpeg.count)
        let size = try JPEGCodec().size(of: jpeg)
        #expect(size.width == report.mode.width && size.height == report.mode.height)
    }

    /// A recording replays through FileCamera with exactly the captured pixels.
    @Test func recordingReplaysTheSameFrames() async throws {
        let camera = try V4L2Camera(name: Rig.vividName, logger: logger)
        let mode = try #require(camera.modes().first { $0.format == .yuyv && $0.width == 320 && $0.height == 180 })
        let path = "/tmp/rig-record.y4m"
        let report = try CameraDiagnostics.record(camera, to: path, frames: 3, mode: mode, timeout: Rig.frameTimeout)
        #expect(report.framesWritten == 3)

        // Capture the same mode again for reference pixels: vivid's bars do not move.
        try camera.configure(mode)
        try camera.startStreaming()
        let live = try camera.readFrame(timeout: Rig.frameTimeout)
        camera.stop()

        let replay = try FileCamera(path: path, interval: FrameInterval(fps: 100), loops: false, clock: ContinuousClock())
        #expect(replay.mode?.format == .yuyv)
        try await replay.start()
        let frame = try await replay.nextFrame(timeout: .seconds(1))
        var a = LumaImage(), b = LumaImage()
        try PixelConversion.luma(of: frame, into: &a)
        try PixelConversion.luma(of: live, into: &b)
        // Compare below the on-screen text, which shows a changing frame counter.
        let rows = (90..<180).flatMap { y in (0..<320).map { x in a[x, y] == b[x, y] } }
        #expect(rows.allSatisfy { $0 })
    }
}
