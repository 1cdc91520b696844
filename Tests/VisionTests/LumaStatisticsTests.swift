import Imaging
import Testing
import Vision

/// Brightness and sharpness on pictures whose values are known by hand.
@Suite("Luma statistics")
struct LumaStatisticsTests {
    /// Squares of `size` pixels, 0 and 255.
    static func checkerboard(width: Int, height: Int, size: Int = 1) -> LumaImage {
        LumaImage(width: width, height: height, pixels: (0..<(width * height)).map { i in
            (i % width / size + i / width / size) % 2 == 0 ? 0 : 255
        })
    }

    /// A 3×3 box blur, `passes` times; the border keeps its pixels.
    static func blurred(_ image: LumaImage, passes: Int) -> LumaImage {
        let w = image.width, h = image.height
        var pixels = image.pixels
        for _ in 0..<passes {
            var out = pixels
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    var sum = 0
                    for dy in -1...1 { for dx in -1...1 { sum += Int(pixels[(y + dy) * w + x + dx]) } }
                    out[y * w + x] = UInt8((sum + 4) / 9)
                }
            }
            pixels = out
        }
        return LumaImage(width: w, height: h, pixels: pixels)
    }

    @Test func flatImageHasNoSharpnessAndItsOwnMean() {
        let flat = LumaStatistics(LumaImage(width: 10, height: 10, pixels: [UInt8](repeating: 77, count: 100)))
        #expect(flat.meanLuma == 77)
        #expect(flat.laplacianVariance == 0)
        #expect(LumaStatistics(LumaImage(width: 2, height: 2, pixels: [0, 0, 0, 0])).laplacianVariance == 0)
    }

    @Test func finestCheckerboardHasTheLargestLaplacian() {
        // Every interior pixel differs from its four neighbours by 255: the Laplacian is
        // ±1020, as many of each sign, so its variance is 1020².
        let board = LumaStatistics(Self.checkerboard(width: 64, height: 64))
        #expect(board.meanLuma == 127.5)
        #expect(board.laplacianVariance == 1020 * 1020)
    }

    @Test func blurLowersSharpnessNotBrightness() {
        let fine = LumaStatistics(Self.checkerboard(width: 64, height: 64, size: 2))
        let soft = LumaStatistics(Self.blurred(Self.checkerboard(width: 64, height: 64, size: 2), passes: 3))
        #expect(fine.laplacianVariance > 100 * soft.laplacianVariance)
        #expect(soft.laplacianVariance > 0)
        #expect(abs(fine.meanLuma - soft.meanLuma) < 2)
    }

    @Test func tallImagesAreMeasuredOnSampledRows() {
        // 600 rows, at most 256 measured (every third): the board looks the same on every
        // row, so the sample must give what every row gives.
        let board = Self.checkerboard(width: 40, height: 600)
        let sampled = LumaStatistics(board)
        let full = LumaStatistics(board, maximumRows: 600)
        #expect(sampled == full)
        #expect(full.laplacianVariance == 1020 * 1020)
    }
}
