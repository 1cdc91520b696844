public import Imaging

/// Sharpness in four directions (across, down, and the two diagonals): the variance of the
/// second derivative of the luma along each. A page of print is sharp in every direction;
/// defocus flattens all four, motion blur the one it moves along, which the 4-neighbour
/// Laplacian, a sum over directions, hides when the others stay high.
///
/// Two figures, independent of the page's distance when measured on a crop at a fixed
/// resolution: ``least`` (the weakest direction; defocus) and ``balance`` (the weakest over
/// the strongest, 0...1; motion).
public struct DirectionalSharpness: Hashable, Sendable {
    /// The variance of the second derivative along the weakest direction.
    public var least: Double
    /// The weakest direction's variance over the strongest's, 0...1 (1: as sharp every way).
    public var balance: Double

    public init(least: Double, balance: Double) {
        self.least = least
        self.balance = balance
    }

    /// Measures `image` over its interior pixels, on at most `maximumRows` evenly spaced rows.
    public init(_ image: LumaImage, maximumRows: Int = 512) {
        let width = image.width, height = image.height
        guard width >= 3, height >= 3 else {
            self.init(least: 0, balance: 0)
            return
        }
        let stride = max(1, (height - 2 + maximumRows - 1) / max(1, maximumRows))
        // Sums and sums of squares of the second differences: across, down, and the two
        // diagonals (whose step is the square root of 2 pixels: halved, as a derivative per pixel).
        var sums = [Double](repeating: 0, count: 4), squares = [Double](repeating: 0, count: 4)
        var count = 0
        image.pixels.withUnsafeBufferPointer { p in
            for y in Swift.stride(from: 1, to: height - 1, by: stride) {
                let row = y * width, up = row - width, down = row + width
                for x in 1..<(width - 1) {
                    let centre = 2 * Int(p[row + x])
                    let values = [
                        Double(Int(p[row + x - 1]) + Int(p[row + x + 1]) - centre),
                        Double(Int(p[up + x]) + Int(p[down + x]) - centre),
                        Double(Int(p[up + x - 1]) + Int(p[down + x + 1]) - centre) / 2,
                        Double(Int(p[up + x + 1]) + Int(p[down + x - 1]) - centre) / 2,
                    ]
                    for k in 0..<4 {
                        sums[k] += values[k]
                        squares[k] += values[k] * values[k]
                    }
                }
                count += width - 2
            }
        }
        let n = Double(max(1, count))
        let variances = (0..<4).map { max(0, squares[$0] / n - (sums[$0] / n) * (sums[$0] / n)) }
        let strongest = variances.max() ?? 0
        let weakest = variances.min() ?? 0
        self.init(least: weakest, balance: strongest > 0 ? weakest / strongest : 0)
    }
}
