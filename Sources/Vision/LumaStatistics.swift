public import Imaging

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

    /// Measures `image`.
    /// - Parameter maximumRows: large images are measured on evenly spaced rows, at most
    ///   this many: both statistics are means over pixels, so a row sample estimates them
    ///   without bias and bounds the work per image (a server measures many).
    public init(_ image: LumaImage, maximumRows: Int = 256) {
        let width = image.width, height = image.height
        guard width > 0, height > 0 else {
            self.init(meanLuma: 0, laplacianVariance: 0)
            return
        }
        let stride = max(1, (height + maximumRows - 1) / max(1, maximumRows))
        let (sum, pixels, laplacianSum, laplacianSquares, count) = image.pixels.withUnsafeBufferPointer { p in
            var sum = 0, pixels = 0
            for y in Swift.stride(from: 0, to: height, by: stride) {
                for x in 0..<width { sum += Int(p[y * width + x]) }
                pixels += width
            }
            guard width >= 3, height >= 3 else { return (sum, pixels, 0, 0, 0) }
            var lsum = 0, lsquares = 0, count = 0
            for y in Swift.stride(from: 1, to: height - 1, by: stride) {
                let row = y * width
                for x in 1..<(width - 1) {
                    let i = row + x
                    let l = Int(p[i - 1]) + Int(p[i + 1]) + Int(p[i - width]) + Int(p[i + width]) - 4 * Int(p[i])
                    lsum += l
                    lsquares += l * l
                }
                count += width - 2
            }
            return (sum, pixels, lsum, lsquares, count)
        }
        let mean = Double(sum) / Double(pixels)
        guard count > 0 else {
            self.init(meanLuma: mean, laplacianVariance: 0)
            return
        }
        let laplacianMean = Double(laplacianSum) / Double(count)
        self.init(meanLuma: mean, laplacianVariance: Double(laplacianSquares) / Double(count) - laplacianMean * laplacianMean)
    }
}
