import Imaging
import Testing
@testable import Vision

/// The zone's binarisation against its definition, and the turned image's ink against the
/// ink turned (the reader binarises a zone once for both orientations).
@Suite("MRZ band")
struct MRZBandTests {
    /// A deterministic image: a light gradient, dark strokes (some across the borders, where
    /// the squares are cut), a dark slab at one side and noise (a linear congruential
    /// generator, Numerical Recipes' constants).
    static func image(width: Int, height: Int, seed: UInt32) -> LumaImage {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 28) - 8
                var value = 150 + x * 60 / width + noise
                if (x / 3) % 5 == 0, (y / 9) % 3 == 1 { value -= 110 }  // strokes
                if x < 6 || y >= height - 4 { value -= 60 }  // a dark edge at two borders
                if x > width - width / 6, y < height / 3 { value = 25 + noise }  // a slab
                pixels[y * width + x] = UInt8(clamping: value)
            }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    /// The binarisation as its documentation says it, pixel by pixel from the squares' own
    /// sums (no integral image): the 3x3 mean darker than the mean of the square of
    /// `MRZBand.radius` by `inkOffset` or `inkShare` of that mean's distance to the darkest
    /// ink, whichever is more, and darker than the closing by `inkOffset`; squares cut at the
    /// borders. Compared as fractions cross-multiplied, so no rounding differs.
    static func reference(_ image: LumaImage, fromRow y0: Int, stroke: Int) -> [Bool] {
        let w = image.width, rows = image.height - y0
        var histogram = [Int](repeating: 0, count: 256)
        for y in y0..<image.height { for x in 0..<w { histogram[Int(image[x, y])] += 1 } }
        let inkLevel = MRZCell.percentile(histogram, total: w * rows, fraction: MRZBand.darkest)
        let closed = MRZBand.closing(image, fromRow: y0, size: stroke)
        func square(_ x: Int, _ y: Int, _ r: Int) -> (sum: Int, area: Int) {
            var sum = 0, area = 0
            for yy in max(0, y - r)...min(rows - 1, y + r) {
                for xx in max(0, x - r)...min(w - 1, x + r) {
                    sum += Int(image[xx, yy + y0])
                    area += 1
                }
            }
            return (sum, area)
        }
        let (n, d) = MRZBand.inkShare
        var ink = [Bool](repeating: false, count: w * rows)
        for y in 0..<rows {
            for x in 0..<w {
                let (sum, area) = square(x, y, MRZBand.radius), (sum3, area3) = square(x, y, 1)
                // sum3/area3 + inkOffset < sum/area
                let darker = (sum3 + MRZBand.inkOffset * area3) * area < sum * area3
                // sum3/area3 + n/d (sum/area - inkLevel) < sum/area
                let deepEnough = d * sum3 * area + n * (sum - inkLevel * area) * area3 < d * sum * area3
                // sum3/area3 < closed - inkOffset
                let belowClosing = sum3 < (Int(closed[y * w + x]) - MRZBand.inkOffset) * area3
                ink[y * w + x] = darker && deepEnough && belowClosing
            }
        }
        return ink
    }

    @Test("the binarisation is its definition, at the borders and inside, from the top and from a row below it")
    func binarisationMatchesItsDefinition() {
        for (width, height, seed) in [(120, 70, UInt32(3)), (64, 40, UInt32(5)), (97, 33, UInt32(8))] {
            let image = Self.image(width: width, height: height, seed: seed)
            for y0 in [0, height / 3] {
                let ink = MRZBand.binarise(image, fromRow: y0, stroke: 11)
                let expected = Self.reference(image, fromRow: y0, stroke: 11)
                #expect(ink.filter { $0 }.count > width, "\(width)x\(height): some ink, so the comparison says something")
                let differing = zip(ink, expected).filter { $0 != $1 }.count
                #expect(ink.count == expected.count && differing == 0, "\(width)x\(height) from row \(y0): \(differing) pixels differ")
            }
        }
    }

    @Test("the turned image's ink is the ink turned; a search from below the top binarises again")
    func turnedInkIsTheInkTurned() throws {
        for (width, height, seed) in [(160, 90, UInt32(21)), (131, 47, UInt32(22))] {
            let image = Self.image(width: width, height: height, seed: seed)
            let pitch: Float = 25.4
            let ink = try #require(MRZBand.Ink(image, pitch: pitch, from: 0))
            let turned = try #require(MRZBand.Ink(image.turned, pitch: pitch, from: 0))
            #expect(ink.pixels.contains(true))
            let turnedAgain = try #require(ink.turned)
            #expect(zip(turnedAgain.pixels, turned.pixels).allSatisfy { $0 == $1 } && turnedAgain.pixels.count == turned.pixels.count, "\(width)x\(height)")
            #expect(try #require(MRZBand.Ink(image, pitch: pitch, from: 0.25)).turned == nil)
        }
    }
}
