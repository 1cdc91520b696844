import Foundation
import Imaging

/// Finds the MRZ's text lines near the bottom of a document crop: adaptive
/// binarisation, the skew that makes the horizontal projection sharpest, runs of rows
/// in that projection, and the group of two or three long lines of the same start and
/// length nearest the bottom.
struct MRZBand {
    /// One line of text, in image coordinates: row `top + slope * (x - centreX)` is the
    /// top of the text at column x.
    struct Line {
        var top: Float
        var bottom: Float
        var left: Float
        var right: Float
        /// The column profile of ink in the band, per image column.
        var columns: [Int]
    }

    var lines: [Line]
    var slope: Float
    var centreX: Float
    /// How far a glyph's vertical axis leans: column x + shear * (y - the line's middle) at
    /// row y. A zone seen at a slant and cut out as a rectangle keeps its perspective's shear
    /// (the characters lean like italics); 0 for an upright crop.
    var shear: Float = 0

    /// Where the search starts, as a fraction of the crop's height from the top: the MRZ
    /// is in the bottom third of every ICAO layout.
    static let searchFrom: Float = 0.4
    /// Binarisation: a pixel (after a 3x3 mean) is ink when it is `inkOffset` darker
    /// than the mean of the square of radius `radius` around it.
    static let radius = 12
    static let inkOffset = 12
    /// Skews tried, in degrees: the crop is corrected to within a few degrees.
    static let maximumSkew: Float = 3
    static let skewStep: Float = 0.25

    /// The ink of an image's searched rows, as ``find(in:pitch:loose:)`` looks for lines in
    /// it: binarised, rows' long runs cleared.
    struct Ink {
        var pixels: [Bool]
        var width: Int
        /// The image row of the first row of `pixels`.
        var fromRow: Int

        /// Nil when the searched rows are too few or too narrow to hold a zone.
        /// - Parameters:
        ///   - pitch: the nominal character pitch in pixels.
        ///   - from: where the search starts, as a fraction of the height (a crop of the zone
        ///     alone is searched whole).
        init?(_ image: LumaImage, pitch: Float, from: Float) {
            let y0 = Int(Float(image.height) * from)
            guard image.width >= 64, image.height - y0 >= 32 else { return nil }
            pixels = binarise(image, fromRow: y0, stroke: Int(pitch * closingSize) | 1)
            clearLongRuns(&pixels, width: image.width, longerThan: Int(pitch * longestRun))
            width = image.width
            fromRow = y0
        }

        /// The ink of the image turned by 180 degrees (its pixels reversed), when the whole
        /// image was searched: every step of the binarisation (the squares' means cut at the
        /// borders, the darkest-ink percentile, the closing's centred square, the rows' runs)
        /// is symmetric under the turn, so the turned image's ink is this ink reversed, without
        /// binarising it again.
        var turned: Ink? {
            guard fromRow == 0 else { return nil }
            var turned = self
            turned.pixels.reverse()
            return turned
        }
    }

    /// The lines found in `ink`, or nil when no group of two or three MRZ-like lines is there.
    /// - Parameters:
    ///   - pitch: the nominal character pitch in pixels (the one `ink` was made with).
    ///   - loose: the crop's scale is a guess (a zone found first): lines of 0.3 to 2.2
    ///     nominal pitches high and at least 15 long, not 0.45 to 1.8 and 25.
    static func find(in ink: Ink, pitch: Float, loose: Bool) -> MRZBand? {
        let w = ink.width, y0 = ink.fromRow
        let rows = ink.pixels.count / w
        let ink = ink.pixels
        let centreX = Float(w) / 2

        // Skew: the angle whose sheared row projection has the largest sum of squares.
        var points: [(Int32, Int32)] = []
        for y in 0..<rows {
            let row = y * w
            for x in stride(from: 0, to: w, by: 4) where ink[row + x] { points.append((Int32(x), Int32(y))) }
        }
        guard points.count > 100 else { return nil }
        let margin = Int((Float(w) * tanf(maximumSkew * .pi / 180)).rounded(.up)) + 2
        func score(_ degrees: Float) -> Double {
            let t = tanf(degrees * .pi / 180)
            var projection = [Int](repeating: 0, count: rows + 2 * margin)
            let offset = Float(margin) + 0.5
            projection.withUnsafeMutableBufferPointer { bins in
                for (x, y) in points {
                    // Positive, so truncation rounds to the nearest row.
                    let sheared: Float = Float(y) - (Float(x) - centreX) * t + offset
                    bins[Int(sheared)] += 1
                }
            }
            return projection.reduce(0.0) { $0 + Double($1 * $1) }
        }
        var best: Float = 0, bestScore = -1.0
        for degrees in stride(from: -maximumSkew, through: maximumSkew, by: skewStep) {
            let s = score(degrees)
            if s > bestScore { (best, bestScore) = (degrees, s) }
        }
        for degrees in stride(from: best - skewStep / 2, through: best + skewStep / 2, by: skewStep / 4) {
            let s = score(degrees)
            if s > bestScore { (best, bestScore) = (degrees, s) }
        }
        let slope = tanf(best * .pi / 180)

        // The full projection at that skew.
        var projection = [Float](repeating: 0, count: rows + 2 * margin)
        projection.withUnsafeMutableBufferPointer { bins in
            ink.withUnsafeBufferPointer { ink in
                let offset = Float(margin) + 0.5
                for y in 0..<rows {
                    let row = y * w
                    for x in 0..<w where ink[row + x] {
                        let sheared: Float = Float(y) - (Float(x) - centreX) * slope + offset
                        bins[Int(sheared)] += 1
                    }
                }
            }
        }
        var smooth = projection
        for i in 1..<(projection.count - 1) { smooth[i] = (projection[i - 1] + projection[i] + projection[i + 1]) / 3 }
        guard let peak = smooth.max(), peak > 0 else { return nil }

        // Runs of rows above a third of the peak, their edges at a fifth of their own peak.
        var runs: [(top: Int, bottom: Int)] = []
        var i = 0
        while i < smooth.count {
            guard smooth[i] >= peak * 0.3 else { i += 1; continue }
            var j = i
            while j + 1 < smooth.count, smooth[j + 1] >= peak * 0.3 { j += 1 }
            let runPeak = smooth[i...j].max() ?? 0
            var top = i, bottom = j
            while top > 0, smooth[top - 1] >= runPeak * 0.2 { top -= 1 }
            while bottom + 1 < smooth.count, smooth[bottom + 1] >= runPeak * 0.2 { bottom += 1 }
            if let last = runs.last, top <= last.bottom {
                runs[runs.count - 1].bottom = max(last.bottom, bottom)
            } else {
                runs.append((top, bottom))
            }
            i = j + 1
        }

        let nominalHeight = pitch
        var candidates: [Line] = []
        for run in runs {
            let height = Float(run.bottom - run.top + 1)
            guard height >= nominalHeight * (loose ? 0.3 : 0.45), height <= nominalHeight * (loose ? 2.2 : 1.8) else { continue }
            // Back to image rows (top at the centre column), and the band's column profile.
            var line = Line(
                top: Float(run.top - margin + y0), bottom: Float(run.bottom - margin + y0 + 1), left: 0, right: Float(w), columns: [])
            line.columns = columns(of: line, ink: ink, width: w, fromRow: y0, slope: slope, centreX: centreX, shear: 0)
            guard let (clusterLeft, clusterRight) = longestCluster(line.columns, gap: Int(pitch * 1.5)) else { continue }
            let (left, right) = trimmed(line.columns, clusterLeft, clusterRight, pitch: pitch)
            guard Float(right - left) >= pitch * (loose ? 15 : 25) else { continue }
            (line.left, line.right) = (Float(left), Float(right + 1))
            candidates.append(line)
        }

        // From the bottom, the first group of 2 or 3 lines alike in start, length and spacing.
        for start in stride(from: candidates.count - 1, through: 0, by: -1) {
            var group = [candidates[start]]
            var k = start - 1
            while k >= 0, group.count < 3 {
                let upper = candidates[k], lower = group[0]
                let height = lower.bottom - lower.top
                let spacing = lower.top - upper.top
                guard spacing >= height * 1.15, spacing <= height * 3,
                      abs(upper.left - lower.left) <= pitch * 1.5,
                      abs((upper.right - upper.left) - (lower.right - lower.left)) <= pitch * 2
                else { break }
                group.insert(upper, at: 0)
                k -= 1
            }
            if group.count >= 2 {
                let shear = Self.shear(of: group, ink: ink, width: w, fromRow: y0, slope: slope, centreX: centreX)
                if shear != 0 {
                    for index in group.indices {
                        group[index].columns = Self.columns(
                            of: group[index], ink: ink, width: w, fromRow: y0, slope: slope, centreX: centreX, shear: shear)
                    }
                }
                return MRZBand(lines: group, slope: slope, centreX: centreX, shear: shear)
            }
        }
        return nil
    }

    /// Shears tried: up to 0.4 (about 22 degrees of lean) either way.
    static let maximumShear: Float = 0.4
    static let shearStep: Float = 0.04

    /// The shear whose column projection of the lines' ink is sharpest (the largest sum of
    /// squares, as the skew is found for the rows); 0 unless one is clearly sharper.
    static func shear(of lines: [Line], ink: [Bool], width w: Int, fromRow y0: Int, slope: Float, centreX: Float) -> Float {
        var points: [(Float, Float)] = []
        for line in lines {
            let middle = (line.top + line.bottom) / 2
            let left = max(0, Int(line.left)), right = min(w, Int(line.right.rounded(.up)))
            guard left < right else { continue }
            for x in stride(from: left, to: right, by: 1) {
                let shift = (Float(x) - centreX) * slope
                let a = max(y0, Int((line.top + shift).rounded())), b = min(y0 + ink.count / w, Int((line.bottom + shift).rounded()))
                guard a < b else { continue }
                for y in a..<b where ink[(y - y0) * w + x] { points.append((Float(x), Float(y) - middle - shift)) }
            }
        }
        guard points.count > 100 else { return 0 }
        func score(_ shear: Float) -> Double {
            var bins = [Int](repeating: 0, count: w + 2 * w / 4 + 2)
            let offset = Float(w / 4) + 0.5
            for (x, dy) in points {
                let column = Int(max(0, x - shear * dy + offset))
                if column < bins.count { bins[column] += 1 }
            }
            return bins.reduce(0.0) { $0 + Double($1 * $1) }
        }
        let upright = score(0)
        var best: Float = 0, bestScore = upright
        for shear in stride(from: -maximumShear, through: maximumShear, by: shearStep) where shear != 0 {
            let s = score(shear)
            if s > bestScore { (best, bestScore) = (shear, s) }
        }
        // Upright unless a shear sharpens the columns by 2 % or more: an upright zone's
        // score is flat near 0, and noise should not tilt its cells.
        return bestScore >= upright * 1.02 ? best : 0
    }

    /// The line's column profile of ink (every column of the image), counted between its top
    /// and bottom along the skew, and along the shear's leaning columns.
    static func columns(
        of line: Line, ink: [Bool], width w: Int, fromRow y0: Int, slope: Float, centreX: Float, shear: Float
    ) -> [Int] {
        let rows = ink.count / w
        let middle = (line.top + line.bottom) / 2
        var columns = [Int](repeating: 0, count: w)
        for x in 0..<w {
            let shift = (Float(x) - centreX) * slope
            let a = max(y0, Int((line.top + shift).rounded())), b = min(y0 + rows, Int((line.bottom + shift).rounded()))
            guard a < b else { continue }
            var count = 0
            for y in a..<b {
                let sx = Int((Float(x) + shear * (Float(y) - middle - shift)).rounded())
                if sx >= 0, sx < w, ink[(y - y0) * w + sx] { count += 1 }
            }
            columns[x] = count
        }
        return columns
    }

    /// The cluster without a sliver at either end that stands apart from the characters: under
    /// 0.6 pitches wide, at least 0.9 pitches from the next ink (between two characters of the
    /// zone there is at most about 0.7). A document's edge (the dark side of it that the
    /// binarisation marks) or a rule beside the zone is such a sliver.
    static func trimmed(_ columns: [Int], _ left: Int, _ right: Int, pitch: Float) -> (Int, Int) {
        let sliver = Int(pitch * 0.6), apart = Int(pitch * 0.9)
        var (left, right) = (left, right)
        func runs() -> [(Int, Int)] {
            var runs: [(Int, Int)] = []
            var start = -1
            for x in left...right {
                if columns[x] >= 2 {
                    if start < 0 { start = x }
                } else if start >= 0 {
                    runs.append((start, x - 1))
                    start = -1
                }
            }
            if start >= 0 { runs.append((start, right)) }
            return runs
        }
        var pieces = runs()
        if pieces.count >= 3, pieces[0].1 - pieces[0].0 < sliver, pieces[1].0 - pieces[0].1 > apart {
            left = pieces[1].0
            pieces.removeFirst()
        }
        if pieces.count >= 3, let last = pieces.last, last.1 - last.0 < sliver, last.0 - pieces[pieces.count - 2].1 > apart {
            right = pieces[pieces.count - 2].1
        }
        return (left, right)
    }

    /// The longest run of columns with ink (two pixels or more) whose gaps are under `gap`.
    static func longestCluster(_ columns: [Int], gap: Int) -> (Int, Int)? {
        var best: (Int, Int)?
        var start = -1, last = -1
        for (x, count) in columns.enumerated() where count >= 2 {
            if start < 0 || x - last > gap {
                if start >= 0, best.map({ $0.1 - $0.0 < last - start }) ?? true { best = (start, last) }
                start = x
            }
            last = x
        }
        if start >= 0, best.map({ $0.1 - $0.0 < last - start }) ?? true { best = (start, last) }
        return best
    }

    /// The closing's square, in pitches (odd in pixels): wider than any stroke of OCR-B (about
    /// 0.15 pitches, blurred or bold under 0.35), narrower than the space a character leaves.
    static let closingSize: Float = 0.45

    /// The image's rows `fromRow`... closed (a grey-level closing of `size`, OpenCV's): dark
    /// things narrower than `size` are filled with the paper around them, larger dark regions
    /// (a dark surface beyond the page's edge, a shadow) stay. A pixel is ink only where it is
    /// darker than the closing (a black-hat, as the usual MRZ localisers take): the dark side of
    /// an edge is not. Should OpenCV fail, every pixel counts as darker (the test is skipped).
    static func closing(_ image: LumaImage, fromRow y0: Int, size: Int) -> [UInt8] {
        (try? OpenCV.closing(image, fromRow: y0, size: min(99, max(3, size))).get())
            ?? [UInt8](repeating: 255, count: image.width * (image.height - y0))
    }

    /// A row's run of ink longer than this many pitches is not text (a character's widest stroke
    /// is under one, two blurred together under two) but an edge: the dark side of the page's
    /// edge against a dark surface, a rule, a shadow. Such runs are cleared before the lines are
    /// looked for, so an edge's row does not outweigh the zone's lines.
    static let longestRun: Float = 3

    /// Clears every horizontal run of ink longer than `limit` pixels.
    static func clearLongRuns(_ ink: inout [Bool], width w: Int, longerThan limit: Int) {
        let rows = ink.count / w
        ink.withUnsafeMutableBufferPointer { ink in
            for y in 0..<rows {
                let row = y * w
                var x = 0
                while x < w {
                    guard ink[row + x] else { x += 1; continue }
                    var end = x
                    while end < w, ink[row + end] { end += 1 }
                    if end - x > limit {
                        for i in x..<end { ink[row + i] = false }
                    }
                    x = end
                }
            }
        }
    }

    /// How much darker than its surroundings a pixel must be to count as ink, as a share of
    /// the way from the surroundings' mean down to the darkest ink of the searched rows
    /// (``darkest``): the MRZ is printed in the darkest ink of the page, and the security
    /// print many documents have under it, lighter, is not taken for text.
    static let inkShare = (numerator: 2, denominator: 5)
    /// The darkest ink: this share of the searched pixels is at or below it.
    static let darkest = 0.01

    /// Ink pixels of rows `fromRow`... : the mean of the 3x3 square around a pixel is darker
    /// than the mean of the square of `radius` around it by `inkOffset` or `inkShare` of
    /// that mean's distance to the darkest ink, whichever is more (both means from one
    /// integral image; squares are cut at the borders).
    static func binarise(_ image: LumaImage, fromRow y0: Int, stroke: Int) -> [Bool] {
        let w = image.width, rows = image.height - y0
        let stride = w + 1
        var integral = [Int](repeating: 0, count: stride * (rows + 1))
        var ink = [Bool](repeating: false, count: w * rows)
        var histogram = [Int](repeating: 0, count: 256)
        image.pixels.withUnsafeBufferPointer { p in
            integral.withUnsafeMutableBufferPointer { s in
                histogram.withUnsafeMutableBufferPointer { histogram in
                    for y in 0..<rows {
                        var rowSum = 0
                        let source = (y + y0) * w, above = y * stride + 1, here = (y + 1) * stride + 1
                        for x in 0..<w {
                            let v = Int(p[source &+ x])
                            histogram[v] &+= 1
                            rowSum &+= v
                            s[here &+ x] = s[above &+ x] &+ rowSum
                        }
                    }
                }
            }
        }
        let inkLevel = MRZCell.percentile(histogram, total: w * rows, fraction: darkest)
        let (n, d) = inkShare
        let r = radius
        let closed = closing(image, fromRow: y0, size: stroke)
        integral.withUnsafeBufferPointer { s in
            ink.withUnsafeMutableBufferPointer { ink in
                closed.withUnsafeBufferPointer { closed in
                    for y in 0..<rows {
                        let ya = max(0, y - r) * stride, yb = min(rows, y + r + 1) * stride
                        let ya3 = max(0, y - 1) * stride, yb3 = min(rows, y + 2) * stride
                        let height = (yb - ya) / stride, height3 = (yb3 - ya3) / stride
                        let row = y * w
                        // mean3 + offset < mean, without division: offset is the larger of
                        // inkOffset and inkShare of (mean - inkLevel); and mean3 under the
                        // closing by inkOffset.
                        // (Wrapping arithmetic: no value here comes near Int's range.)
                        @inline(__always) func isInk(_ x: Int, _ xa: Int, _ xb: Int, _ xa3: Int, _ xb3: Int) -> Bool {
                            let area = height &* (xb &- xa), area3 = height3 &* (xb3 &- xa3)
                            let sum = s[yb &+ xb] &- s[ya &+ xb] &- s[yb &+ xa] &+ s[ya &+ xa]
                            let sum3 = s[yb3 &+ xb3] &- s[ya3 &+ xb3] &- s[yb3 &+ xa3] &+ s[ya3 &+ xa3]
                            let lhs = sum3 &* area, rhs = sum &* area3
                            let shared = d &* lhs &+ n &* (sum &- inkLevel &* area) &* area3
                            // Each test evaluated (no branch between them): `&` of the three.
                            let darker = lhs &+ inkOffset &* area3 &* area < rhs
                            let deepEnough = shared < d &* rhs
                            let belowClosing = (Int(closed[row &+ x]) &- inkOffset) &* area3 > sum3
                            return (darker ? 1 : 0) & (deepEnough ? 1 : 0) & (belowClosing ? 1 : 0) == 1
                        }
                        // The squares are cut at the borders only in the first and last `r`
                        // columns; between them, whole.
                        let inner = min(r, w)..<max(min(r, w), w - r)
                        for x in 0..<inner.lowerBound {
                            ink[row + x] = isInk(x, max(0, x - r), min(w, x + r + 1), max(0, x - 1), min(w, x + 2))
                        }
                        for x in inner {
                            ink[row &+ x] = isInk(x, x &- r, x &+ r &+ 1, x &- 1, x &+ 2)
                        }
                        for x in inner.upperBound..<w {
                            ink[row + x] = isInk(x, max(0, x - r), min(w, x + r + 1), max(0, x - 1), min(w, x + 2))
                        }
                    }
                }
            }
        }
        return ink
    }
}
