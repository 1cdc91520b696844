/// Brightness and sharpness of a luma image: the measures a station and a backend both
/// use to say whether a picture of a document or face is usable.
///
/// Sharpness is the variance of the 4-neighbour Laplacian (Pech-Pacheco et al., 2000):
/// edges give large second derivatives, blur flattens them. It depends on content and
/// resolution, so thresholds are configuration, not constants of this type.
public struct LumaStatistics: Sendable, Hashable {
    /// Mean 8-bit luma, 0…255.
    public var meanLuma: Double
    /// Variance of the Laplacian over the interior pixels; 0 for images under 3×3.
    public var laplacianVariance: Double

    public init(meanLuma: Double, laplacianVariance: Double) {
        self.meanLuma = meanLuma
        self.laplacianVariance = laplacianVariance
    }

    /// Measures `image` in one pass over its pixels.
    public init(_ image: LumaImage) {
        let width = image.width, height = image.height
        guard width > 0, height > 0 else {
            self.init(meanLuma: 0, laplacianVariance: 0)
            return
        }
        let (sum, laplacianSum, laplacianSquares, count) = image.pixels.withUnsafeBufferPointer { p in
            var sum = 0
            for value in p { sum += Int(value) }
            guard width >= 3, height >= 3 else { return (sum, 0, 0, 0) }
            var lsum = 0, lsquares = 0
            for y in 1..<(height - 1) {
                let row = y * width
                for x in 1..<(width - 1) {
                    let i = row + x
                    let l = Int(p[i - 1]) + Int(p[i + 1]) + Int(p[i - width]) + Int(p[i + width]) - 4 * Int(p[i])
                    lsum += l
                    lsquares += l * l
                }
            }
            return (sum, lsum, lsquares, (width - 2) * (height - 2))
        }
        let mean = Double(sum) / Double(width * height)
        guard count > 0 else {
            self.init(meanLuma: mean, laplacianVariance: 0)
            return
        }
        let laplacianMean = Double(laplacianSum) / Double(count)
        self.init(meanLuma: mean, laplacianVariance: Double(laplacianSquares) / Double(count) - laplacianMean * laplacianMean)
    }
}
