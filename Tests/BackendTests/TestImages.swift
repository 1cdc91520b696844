import Foundation
import Imaging

/// Generated pictures for the image checks: a document-like page of dark strokes on a
/// light background, and the same page darkened or blurred. Deterministic.
enum TestImages {
    static func page(width: Int, height: Int) -> LumaImage {
        var pixels = [UInt8](repeating: 200, count: width * height)
        var state: UInt64 = 0x5EED
        pixels.withUnsafeMutableBufferPointer { p in
            for cy in stride(from: 0, to: max(0, height - 24), by: 24) {
                for cx in stride(from: 0, to: max(0, width - 16), by: 16) {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    if (state >> 33) % 3 == 0 { continue }
                    // A glyph-like ring: an 8×14 block with a 4×10 hole.
                    for dy in 0..<14 {
                        let row = (cy + 5 + dy) * width + cx + 4
                        let solid = dy < 2 || dy >= 12
                        for dx in 0..<8 where solid || dx < 2 || dx >= 6 { p[row + dx] = 30 }
                    }
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    static func darkened(_ image: LumaImage, percent: Int) -> LumaImage {
        LumaImage(width: image.width, height: image.height, pixels: image.pixels.map { UInt8(Int($0) * percent / 100) })
    }

    /// Box blur of `radius`, `passes` times in each direction (close to a Gaussian), with
    /// running sums so it stays cheap in debug builds.
    static func blurred(_ image: LumaImage, radius: Int, passes: Int) -> LumaImage {
        let width = image.width, height = image.height
        var current = image.pixels.map(Int.init)
        func line(_ count: Int, _ index: (Int) -> Int) {
            var window = 0
            for d in -radius...radius { window += current[index(min(max(d, 0), count - 1))] }
            var out = [Int](repeating: 0, count: count)
            for i in 0..<count {
                out[i] = window / (2 * radius + 1)
                window += current[index(min(i + radius + 1, count - 1))] - current[index(max(i - radius, 0))]
            }
            for i in 0..<count { current[index(i)] = out[i] }
        }
        for _ in 0..<passes {
            for y in 0..<height { line(width) { y * width + $0 } }
            for x in 0..<width { line(height) { $0 * width + x } }
        }
        return LumaImage(width: width, height: height, pixels: current.map { UInt8(clamping: $0) })
    }

    static func jpeg(_ image: LumaImage, quality: Int = 90) -> Data {
        // Encoding a valid in-memory image cannot fail but for a broken libturbojpeg.
        Data(try! JPEGCodec().encode(image, quality: quality))
    }
}
