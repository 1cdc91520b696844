import Camera
import Foundation
import Imaging
import KioskTestKit
import Testing

/// MJPEG recordings for the file camera: a stream of JPEG images split at their markers,
/// and replayed from a file or a folder of JPEG files.
@Suite("MJPEG recordings")
struct MJPEGRecordingTests {
    /// A greyscale gradient; its size is all the splitting tests need to tell images apart.
    static func card(width: Int = 64, height: Int = 48) -> LumaImage {
        LumaImage(width: width, height: height, pixels: (0..<(width * height)).map { UInt8(truncatingIfNeeded: ($0 % width) * 4 + $0 / width) })
    }

    @Test func mjpegStreamsSplitIntoImages() throws {
        let codec = JPEGCodec()
        let a = try codec.encode(Self.card(), quality: 80)
        let b = try codec.encode(Self.card(width: 16, height: 8), quality: 80)
        // An APP1 segment whose payload contains FF D9 must not end the image.
        var withApp = Array(b.prefix(2)) + [0xFF, 0xE1, 0x00, 0x06, 0xFF, 0xD9, 0xFF, 0xD8]
        withApp += b.dropFirst(2)
        let images = MJPEG.split([0x00] + a + withApp + [0x00, 0x00])
        #expect(images.count == 2)
        #expect(images.first == a)
        #expect(images.last == withApp)
        #expect(try codec.size(of: images[1]) == (16, 8))
    }

    @Test func fileCameraReplaysMJPEGFilesAndFolders() async throws {
        let codec = JPEGCodec()
        let frames = try (0..<3).map { n in
            try codec.encode(LumaImage(width: 8, height: 8, pixels: [UInt8](repeating: UInt8(40 * n), count: 64)), quality: 90)
        }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let mjpeg = base.appendingPathComponent("clip.mjpeg")
        try Data(frames.joined()).write(to: mjpeg)
        let folder = base.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (n, f) in frames.enumerated() { try Data(f).write(to: folder.appendingPathComponent("frame\(n).jpg")) }

        for path in [mjpeg.path, folder.path] {
            let clock = TestClock()
            let camera = try FileCamera(path: path, interval: FrameInterval(fps: 5), clock: clock)
            #expect(camera.mode == CaptureMode(format: .mjpeg, width: 8, height: 8, interval: FrameInterval(fps: 5)))
            #expect(camera.framesInFile == 3)
            try await camera.start()
            let first = try await camera.nextFrame(timeout: .seconds(1))
            #expect(first.bytes == frames[0])
            let second = try await camera.nextFrame(timeout: .seconds(1), advancing: clock, by: .milliseconds(200))
            #expect(second.bytes == frames[1])
            var luma = LumaImage()
            try PixelConversion.luma(of: second, into: &luma, codec: codec)
            #expect(luma.pixels.allSatisfy { abs(Int($0) - 40) <= 1 })
        }
    }
}
