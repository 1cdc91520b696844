import Imaging

/// One character cell as the classifier reads it: the mirror of `cell_features` in
/// `scripts/vision-models/train-mrz.py` (change both together, with the model version).
///
/// The box is centred on the character, `boxWidth` pitches wide, and spans the line's
/// text height plus `marginY` of it above and below; it is sampled to the model's cell
/// (2x2 bilinear samples per output, averaged). Ink and paper levels are percentiles of
/// the pixels `levelWidth` pitches around the character, so uneven light across a line
/// does not matter; the feature is 1 for ink, 0 for paper.
struct MRZCell {
    static let boxWidth: Float = 1.2
    static let marginY: Float = 0.15
    static let levelWidth: Float = 3.0
    static let inkPercentile = 0.02
    static let paperPercentile = 0.90
    static let minimumContrast: Float = 24

    /// Writes the features of the character centred at `centreX` of a line whose text
    /// spans rows `top`...`bottom` into `features` (`width * height` values).
    static func features(
        of image: LumaImage, centreX cx: Float, top: Float, bottom: Float, pitch: Float, shear: Float = 0,
        width cellWidth: Int, height cellHeight: Int, into features: inout [Float]
    ) {
        let w = image.width, h = image.height
        let textHeight = bottom - top
        let y0 = top - marginY * textHeight, y1 = bottom + marginY * textHeight
        let x0 = cx - boxWidth * pitch / 2, x1 = cx + boxWidth * pitch / 2
        let middle = (top + bottom) / 2
        let lx0 = max(0, Int((cx - levelWidth * pitch / 2).rounded(.down)))
        let lx1 = min(w, Int((cx + levelWidth * pitch / 2).rounded(.up)))
        let ly0 = max(0, Int(y0.rounded(.down))), ly1 = min(h, Int(y1.rounded(.up)))
        guard lx1 > lx0, ly1 > ly0 else {
            for i in features.indices { features[i] = 0 }
            return
        }
        image.pixels.withUnsafeBufferPointer { p in
            var histogram = [Int](repeating: 0, count: 256)
            for y in ly0..<ly1 {
                let row = y * w
                for x in lx0..<lx1 { histogram[Int(p[row + x])] += 1 }
            }
            let total = (lx1 - lx0) * (ly1 - ly0)
            let ink = Float(percentile(histogram, total: total, fraction: inkPercentile))
            let paper = Float(percentile(histogram, total: total, fraction: paperPercentile))
            let contrast = max(paper - ink, minimumContrast)
            let sx = (x1 - x0) / Float(cellWidth), sy = (y1 - y0) / Float(cellHeight)
            let offsets: [Float] = [0.25, 0.75]
            for r in 0..<cellHeight {
                for c in 0..<cellWidth {
                    var sum: Float = 0
                    for oy in offsets {
                        let y = y0 + (Float(r) + oy) * sy - 0.5
                        // A leaning glyph is sampled along its lean (the band's shear).
                        let lean = shear * (y + 0.5 - middle)
                        for ox in offsets {
                            sum += bilinear(p, width: w, height: h, x: x0 + (Float(c) + ox) * sx - 0.5 + lean, y: y)
                        }
                    }
                    let value = (paper - sum / 4) / contrast
                    features[r * cellWidth + c] = min(max(value, 0), 1)
                }
            }
        }
    }

    /// The smallest value whose cumulative count reaches `fraction` of `total`.
    static func percentile(_ histogram: [Int], total: Int, fraction: Double) -> Int {
        let target = max(1, Int((fraction * Double(total)).rounded(.up)))
        var cumulative = 0
        for (value, count) in histogram.enumerated() {
            cumulative += count
            if cumulative >= target { return value }
        }
        return 255
    }

    /// The image at pixel-centre coordinates, clamped to the image.
    static func bilinear(_ p: UnsafeBufferPointer<UInt8>, width w: Int, height h: Int, x: Float, y: Float) -> Float {
        let x = min(max(x, 0), Float(w - 1)), y = min(max(y, 0), Float(h - 1))
        let xa = Int(x), ya = Int(y)
        let xb = min(xa + 1, w - 1), yb = min(ya + 1, h - 1)
        let fx = x - Float(xa), fy = y - Float(ya)
        let top = Float(p[ya * w + xa]) * (1 - fx) + Float(p[ya * w + xb]) * fx
        let bottom = Float(p[yb * w + xa]) * (1 - fx) + Float(p[yb * w + xb]) * fx
        return top * (1 - fy) + bottom * fy
    }
}
