import Foundation
import KioskTestKit
import Testing

/// `idkiosk-fuzz` in a normal build replays inputs (what `make fuzz` finds is kept as a
/// regression input this way): every target takes hostile bytes without a crash.
@Suite struct FuzzReplayTests {
    static let binary = URL(fileURLWithPath: IDKioskBinary.path).deletingLastPathComponent().appendingPathComponent("idkiosk-fuzz").path

    @Test(arguments: ["png", "jpeg", "mjpeg", "y4m", "mrz-text", "finder", "mrz-reader", "tlv", "lds", "sod", "sm", "atr"])
    func everyTargetTakesHostileBytes(target: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-fuzz-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<70_000).map { _ -> UInt8 in
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: random >> 56)
        }
        let inputs: [[UInt8]] = [
            [], [0xFF], noise,
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(noise.prefix(100)),  // a PNG signature, then garbage
            [0xFF, 0xD8, 0xFF, 0xE0] + Array(noise.prefix(300)) + [0xFF, 0xD9],  // a JPEG frame of garbage
            Array("YUV4MPEG2 W99999999 H-1 F0:0\n".utf8),
            Array("P<UTO<<<<".utf8), [255, 255] + Array(noise.prefix(65_536)),
        ]
        var paths: [String] = []
        for (index, bytes) in inputs.enumerated() {
            let path = "\(folder)/\(index)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let run = runCapturing(Self.binary, [target] + paths, extraEnvironment: ["IDKIOSK_MODELS": VisionCrops.models])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\(target): \(inputs.count) input(s) ran"))
    }

    @Test func anUnknownTargetIsAUsageError() {
        #expect(runCapturing(Self.binary, ["gif"]).status == 64)
    }
}
