import Camera
import Foundation

/// Generated pictures for the image checks: a document-like page of dark strokes on a
/// light background, and the same page darkened or blurred. Deterministic.
enum TestImages {
    static func page(width: Int, height: Int) -> LumaImage {
        var pixels = [UInt8](repeating: 200, count: width * height)
        var state: UInt64 = 0x5EED
        for cy in stride(from: 0, to: max(0, height - 24), by: 24) {
            for cx in stride(from: 0, to: max(0, width - 16), by: 16) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                if (state >> 33) % 3 == 0 { continue }
                // A glyph-like ring: an 8×14 block with a 4×10 hole.
                for y in (cy + 5)..<(cy + 19) {
                    for x in (cx + 4)..<(cx + 12) {
                        let inHole = (cy + 7..<cy + 17).contains(y) && (cx + 6..<cx + 10).contains(x)
                        pixels[y * width + x] = inHole ? 200 : 30
                    }
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    static func darkened(_ image: LumaImage, percent: Int) -> LumaImage {
        LumaImage(width: image.width, height: image.height, pixels: image.pixels.map { UInt8(Int($0) * percent / 100) })
    }

    /// Box blur of `radius`, `passes` times in each direction (close to a Gaussian).
    static func blurred(_ image: LumaImage, radius: Int, passes: Int) -> LumaImage {
        let width = image.width, height = image.height
        var current = image.pixels.map(Int.init)
        for _ in 0..<passes {
            for horizontal in [true, false] {
                var next = current
                for y in 0..<height {
                    for x in 0..<width {
                        var sum = 0
                        for d in -radius...radius {
                            let sx = horizontal ? min(max(x + d, 0), width - 1) : x
                            let sy = horizontal ? y : min(max(y + d, 0), height - 1)
                            sum += current[sy * width + sx]
                        }
                        next[y * width + x] = sum / (2 * radius + 1)
                    }
                }
                current = next
            }
        }
        return LumaImage(width: width, height: height, pixels: current.map { UInt8(clamping: $0) })
    }

    static func jpeg(_ image: LumaImage, quality: Int = 90) -> Data {
        // Encoding a valid in-memory image cannot fail but for a broken libturbojpeg.
        Data(try! JPEGCodec().encode(image, quality: quality))
    }
}
