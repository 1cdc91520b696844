import Camera
import Glibc
import Imaging
import Logging
import Testing

/// The v4l2loopback device the rig VM loads (built out of tree), if it is there.
enum Loopback {
    static let path = "/dev/video10"
    static let name = "card:idkiosk-loopback"
    static var isActive: Bool { Rig.isActive && access(path, F_OK) == 0 }
}

/// Exact frames through v4l2loopback, in the rig VM (`make rig-test`).
@Suite("v4l2loopback in the rig VM", .enabled(if: Loopback.isActive, "needs v4l2loopback in the rig VM (built out of tree): run `make rig-test`"), .serialized)
struct LoopbackRigTests {
    let logger = Logger(label: "LoopbackRigTests")

    static func pattern(_ k: Int, width: Int, height: Int) -> Frame {
        Frame(format: .yuyv, width: width, height: height, bytes: (0..<(width * height * 2)).map { UInt8(truncatingIfNeeded: $0 * 7 + k * 31) })
    }

    @Test func capturesExactlyThePixelsWritten() throws {
        let mode = CaptureMode(format: .yuyv, width: 64, height: 48, interval: FrameInterval(fps: 30))
        let output = try V4L2Output(path: Loopback.path)
        let actual = try output.configure(mode)
        #expect(actual.format == .yuyv && actual.width == 64 && actual.height == 48)
        let frames = (0..<6).map { Self.pattern($0, width: 64, height: 48) }
        try output.write(frames[0])

        let camera = try V4L2Camera(name: Loopback.name, logger: logger)
        #expect(camera.path == Loopback.path)
        try camera.startStreaming()
        defer { camera.stop() }
        #expect(camera.mode?.format == .yuyv && camera.mode?.width == 64)
        var delivered: [Frame] = []
        for k in 1..<frames.count {
            try output.write(frames[k])
            delivered.append(try camera.readFrame(timeout: .seconds(5)))
        }
        // Every frame delivered is one that was written, byte for byte, in order. The
        // loopback may hand out the previous frame when a read races the next write.
        let indices = delivered.map { d in frames.firstIndex { $0.bytes == Array(d.bytes.prefix($0.bytes.count)) } }
        #expect(indices.allSatisfy { $0 != nil }, "delivered frames match written frames \(indices)")
        let known = indices.compactMap { $0 }
        #expect(known == known.sorted(), "in order: \(known)")
        #expect(Set(known).count >= 3, "distinct frames: \(known)")
        #expect((known.last ?? 0) >= frames.count - 2, "the last read is at most one frame behind: \(known)")

        // And the conversion of an exact frame is exact: YUYV luma is every other byte.
        let last = try #require(delivered.last), written = frames[try #require(known.last)]
        var luma = LumaImage()
        try PixelConversion.luma(of: last, into: &luma)
        let expected = stride(from: 0, to: written.bytes.count, by: 2).map { written.bytes[$0] }
        let firstDifference = zip(luma.pixels, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(luma.pixels.count == expected.count && firstDifference == nil, "luma differs at \(String(describing: firstDifference))")
    }

    /// A camera that stops delivering (the writer went quiet) is reported within the
    /// wait's limit, and the stream goes on when frames come again.
    @Test func aStalledCameraTimesOutWithinASecond() throws {
        let mode = CaptureMode(format: .yuyv, width: 64, height: 48, interval: FrameInterval(fps: 30))
        let output = try V4L2Output(path: Loopback.path)
        try output.configure(mode)
        try output.write(Self.pattern(0, width: 64, height: 48))
        let camera = try V4L2Camera(name: Loopback.name, logger: logger)
        try camera.startStreaming()
        defer { camera.stop() }
        try output.write(Self.pattern(1, width: 64, height: 48))
        _ = try camera.readFrame(timeout: .seconds(5))
        // Drain whatever is still queued, then nothing more is written.
        while (try? camera.readFrame(timeout: .milliseconds(200))) != nil {}
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try camera.readFrame(timeout: .seconds(1))
            Issue.record("a frame arrived with no writer")
        } catch {
            #expect(error.kind == .timeout)
            #expect(error.hint.contains("replug"))
        }
        let waited = clock.now - start
        #expect(waited >= .milliseconds(990) && waited < .seconds(2), "waited \(waited)")
        #expect(camera.statistics.timeouts >= 2)
        try output.write(Self.pattern(2, width: 64, height: 48))
        let again = try camera.readFrame(timeout: .seconds(5))
        #expect(again.bytes.prefix(64 * 48 * 2) == Self.pattern(2, width: 64, height: 48).bytes[...])
    }

    /// MJPEG in: each buffer holds exactly one JPEG image, which decodes to what was encoded.
    @Test func capturesMJPEGFramesAndDecodesThem() throws {
        let mode = CaptureMode(format: .mjpeg, width: 64, height: 48, interval: FrameInterval(fps: 30))
        let output = try V4L2Output(path: Loopback.path)
        let actual = try output.configure(mode)
        #expect(actual.format == .mjpeg)
        let codec = JPEGCodec()
        let jpegs = try (0..<4).map { k in
            try codec.encode(LumaImage(width: 64, height: 48, pixels: [UInt8](repeating: UInt8(40 + 50 * k), count: 64 * 48)), quality: 90)
        }
        try output.write(Frame(format: .mjpeg, width: 64, height: 48, bytes: jpegs[0]))
        let camera = try V4L2Camera(name: Loopback.name, logger: logger)
        try camera.startStreaming()
        defer { camera.stop() }
        #expect(camera.mode?.format == .mjpeg)
        var delivered: [Frame] = []
        for k in 1..<jpegs.count {
            try output.write(Frame(format: .mjpeg, width: 64, height: 48, bytes: jpegs[k]))
            delivered.append(try camera.readFrame(timeout: .seconds(5)))
        }
        // Each buffer starts with one whole JPEG image; the loopback may report the
        // buffer's full size (padding after the end marker, as some UVC cameras send).
        let matches = delivered.map { d in jpegs.firstIndex { d.bytes.starts(with: $0) } }
        #expect(matches.allSatisfy { $0 != nil }, "buffers start with written images: \(matches), sizes \(delivered.map(\.bytes.count)) vs \(jpegs.map(\.count))")
        var luma = LumaImage()
        let last = try #require(delivered.last)
        try PixelConversion.luma(of: last, into: &luma, codec: codec)
        let k = try #require(matches.last ?? nil)
        #expect(luma.width == 64 && luma.height == 48)
        #expect(luma.pixels.allSatisfy { abs(Int($0) - (40 + 50 * k)) <= 1 })
    }
}
