import Imaging
import Testing
import Vision

/// Brightness and sharpness on pictures whose values are known by hand.
@Suite("Luma statistics")
struct LumaStatisticsTests {
    @Test func flatImageHasNoSharpnessAndItsOwnMean() {
        let flat = LumaStatistics(LumaImage(width: 10, height: 10, pixels: [UInt8](repeating: 77, count: 100)))
        #expect(flat.meanLuma == 77)
        #expect(flat.laplacianVariance == 0)
        #expect(LumaStatistics(LumaImage(width: 2, height: 2, pixels: [0, 0, 0, 0])).laplacianVariance == 0)
    }
}
