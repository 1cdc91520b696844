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
        // Integer sums per row (a row's squares fit an Int many times over), Doubles across rows.
        var sums = (0.0, 0.0, 0.0, 0.0), squares = (0.0, 0.0, 0.0, 0.0)
        var count = 0
        image.pixels.withUnsafeBufferPointer { p in
            for y in Swift.stride(from: 1, to: height - 1, by: stride) {
                let row = y * width, up = row - width, down = row + width
                var s = (0, 0, 0, 0), q = (0, 0, 0, 0)
                for x in 1..<(width - 1) {
                    let centre = 2 * Int(p[row + x])
                    let across = Int(p[row + x - 1]) + Int(p[row + x + 1]) - centre
                    let along = Int(p[up + x]) + Int(p[down + x]) - centre
                    // The diagonals doubled: halved once summed.
                    let falling = Int(p[up + x - 1]) + Int(p[down + x + 1]) - centre
                    let rising = Int(p[up + x + 1]) + Int(p[down + x - 1]) - centre
                    s = (s.0 + across, s.1 + along, s.2 + falling, s.3 + rising)
                    q = (q.0 + across * across, q.1 + along * along, q.2 + falling * falling, q.3 + rising * rising)
                }
                sums = (sums.0 + Double(s.0), sums.1 + Double(s.1), sums.2 + Double(s.2) / 2, sums.3 + Double(s.3) / 2)
                squares = (
                    squares.0 + Double(q.0), squares.1 + Double(q.1), squares.2 + Double(q.2) / 4, squares.3 + Double(q.3) / 4
                )
                count += width - 2
            }
        }
        let sumList = [sums.0, sums.1, sums.2, sums.3], squareList = [squares.0, squares.1, squares.2, squares.3]
        let n = Double(max(1, count))
        let variances = (0..<4).map { max(0, squareList[$0] / n - (sumList[$0] / n) * (sumList[$0] / n)) }
        let strongest = variances.max() ?? 0
        let weakest = variances.min() ?? 0
        self.init(least: weakest, balance: strongest > 0 ? weakest / strongest : 0)
    }
}
