public import Imaging

/// Reads the machine readable zone of a perspective-corrected document crop.
///
/// The crop is the document at `pixelsPerMillimetre` (10 by default: TD1 856x540, TD2
/// 1050x740, TD3 1250x880). The reader finds two or three MRZ lines near the bottom,
/// tolerating a few pixels and degrees of residual misalignment, splits them into the
/// layout's fixed-pitch characters (ICAO's 2.54 mm), classifies every cell with the
/// OCR-B model and restricts each position to the characters its field allows. A crop
/// upside down is read turned by 180 degrees. It finds, it does not decide: whether the
/// check digits hold is in the reading; agreeing across frames is the caller's business.
public struct MRZReader: Sendable {
    public let model: MRZModel
    /// The crop's resolution.
    public var pixelsPerMillimetre: Float

    /// ICAO 9303's character pitch: ten characters per inch.
    static let pitchMillimetres: Float = 2.54
    /// OCR-B's mean ink width as a fraction of its advance (from the font), to place the
    /// first and last character from a line's ink extent.
    static let inkWidth: Float = 0.64

    public init(model: MRZModel, pixelsPerMillimetre: Float = 10) {
        self.model = model
        self.pixelsPerMillimetre = pixelsPerMillimetre
    }

    /// Reads the MRZ of `crop`.
    /// - Returns: the reading, or nil when no MRZ is on the crop (a card's front, a blank
    ///   or unreadable image): that is an answer, not an error.
    public func read(_ crop: LumaImage) -> MRZReading? {
        read(crop, searchFrom: MRZBand.searchFrom)
    }

    /// Reads the MRZ of a crop of the zone alone (``MRZLocator``'s): its lines are looked for
    /// over the whole height, in either orientation.
    public func readZone(_ crop: LumaImage) -> MRZReading? {
        readZoneBanded(crop)?.reading
    }

    func read(_ crop: LumaImage, searchFrom: Float, loose: Bool = false) -> MRZReading? {
        readBanded(crop, searchFrom: searchFrom, loose: loose)?.reading
    }

    /// What ``readZone(_:)`` reads, with the lines it read it from (in the crop as read:
    /// turned for an upside-down zone).
    func readZoneBanded(_ crop: LumaImage) -> (reading: MRZReading, band: MRZBand)? {
        readBanded(crop, searchFrom: 0, loose: true)
    }

    func readBanded(_ crop: LumaImage, searchFrom: Float, loose: Bool) -> (reading: MRZReading, band: MRZBand)? {
        let nominalPitch = Self.pitchMillimetres * pixelsPerMillimetre
        let ink = MRZBand.Ink(crop, pitch: nominalPitch, from: searchFrom)
        let upright = ink.flatMap { readOriented(crop, ink: $0, upsideDown: false, loose: loose) }
        if let upright, upright.reading.allCheckDigitsHold { return upright }
        let turnedCrop = crop.turned
        let turnedInk = ink?.turned ?? MRZBand.Ink(turnedCrop, pitch: nominalPitch, from: searchFrom)
        let turned = turnedInk.flatMap { readOriented(turnedCrop, ink: $0, upsideDown: true, loose: loose) }
        switch (upright, turned) {
        case (nil, let turned): return turned
        case (let upright, nil): return upright
        case (let upright?, let turned?):
            if turned.reading.allCheckDigitsHold { return turned }
            return turned.reading.meanConfidence > upright.reading.meanConfidence ? turned : upright
        }
    }

    /// The reading of `image` (upright as given) from the lines found in its `ink`.
    func readOriented(_ image: LumaImage, ink: MRZBand.Ink, upsideDown: Bool, loose: Bool) -> (reading: MRZReading, band: MRZBand)? {
        let nominalPitch = Self.pitchMillimetres * pixelsPerMillimetre
        guard let band = MRZBand.find(in: ink, pitch: nominalPitch, loose: loose) else { return nil }
        guard let format = Self.format(of: band, nominalPitch: nominalPitch) else { return nil }
        var features = [Float](repeating: 0, count: model.cellWidth * model.cellHeight)
        var probabilities = [Float](repeating: 0, count: model.alphabet.count)
        var scores: [[[Float]]] = []
        for line in band.lines {
            let centres = Self.centres(of: line, count: format.lineLength)
            let pitch = (line.right - line.left) / (Float(format.lineLength) - 1 + Self.inkWidth)
            var lineScores: [[Float]] = []
            for cx in centres {
                let shift = band.slope * (cx - band.centreX)
                MRZCell.features(
                    of: image, centreX: cx, top: line.top + shift, bottom: line.bottom + shift, pitch: pitch, shear: band.shear,
                    width: model.cellWidth, height: model.cellHeight, into: &features
                )
                features.withUnsafeBufferPointer { model.probabilities($0, into: &probabilities) }
                lineScores.append(probabilities)
            }
            scores.append(lineScores)
        }
        let lines = MRZLayout.decode(scores, format: format, alphabet: model.alphabet)
        return (MRZReading(format: format, lines: lines, upsideDown: upsideDown), band)
    }

    /// ICAO 9303's nominal distance between the MRZ's lines: a TD1's 4.23 mm (six lines to
    /// the inch, Part 5), a TD2's and TD3's 6.35 mm (two and a half character pitches: Part 4
    /// Figure 3's reference centre lines at 9.40 and 15.75 mm), for a scale first guessed.
    static let linePitchMillimetres: Float = 4.23
    static let widePitchMillimetres: Float = 6.35

    /// The layout whose line count fits the band and whose length in characters fits its lines.
    ///
    /// The length is counted in the line's own character pitch (the period of its column
    /// profile: OCR-B in the MRZ is monospaced), not in the crop's nominal scale: ID-2 and
    /// ID-3 share an aspect ratio, so a TD2 card may come cropped at an ID-3 page's scale (its
    /// 36 characters then span what 43 would at that scale), and a zone found first is cut at a
    /// scale only guessed. Where no period shows, the nominal pitch says.
    static func format(of band: MRZBand, nominalPitch: Float) -> MRZReading.Format? {
        let formats = MRZReading.Format.allCases.filter { $0.lineCount == band.lines.count }
        let periods = band.lines.map { period(of: $0, nominalPitch: nominalPitch) }
        func fit(_ pitches: [Float]) -> MRZReading.Format? {
            let characters = zip(band.lines, pitches).map { line, pitch in (line.right - line.left) / pitch + 1 - inkWidth }.max() ?? 0
            let scored = formats.map { ($0, abs(characters - Float($0.lineLength))) }
            guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 3 else { return nil }
            return best.0
        }
        // The period; else half of it (a line's profile can repeat more strongly every two
        // characters than every one: a security print under it, runs of fillers); else the
        // nominal pitch.
        return fit(periods.map { $0 ?? nominalPitch }) ?? fit(periods.map { ($0 ?? 2 * nominalPitch) / 2 })
            ?? fit(periods.map { _ in nominalPitch })
    }

    /// The character pitch of a line: the lag, from 0.4 to 2.5 nominal pitches, at which its
    /// column profile of ink best matches itself (the first lag within 85 % of the best, so a
    /// multiple of the pitch is not taken for it); nil when the line is too short to tell.
    static func period(of line: MRZBand.Line, nominalPitch: Float) -> Float? {
        let left = max(0, Int(line.left)), right = min(line.columns.count, Int(line.right))
        guard right - left >= 40 else { return nil }
        let profile = line.columns[left..<right].map { Float($0) }
        let mean = profile.reduce(0, +) / Float(profile.count)
        let centred = profile.map { $0 - mean }
        let shortest = max(3, Int(0.4 * nominalPitch)), longest = min(profile.count / 8, Int(2.5 * nominalPitch))
        guard shortest < longest else { return nil }
        var scores = [Float](repeating: 0, count: longest + 2)
        centred.withUnsafeBufferPointer { c in
            for lag in shortest...(longest + 1) where lag < c.count {
                var sum: Float = 0
                for x in 0..<(c.count - lag) { sum += c[x] * c[x + lag] }
                scores[lag] = sum / Float(c.count - lag)
            }
        }
        guard let best = scores[shortest...longest].max(), best > 0 else { return nil }
        // The first local maximum within 85 % of the best.
        for lag in shortest...longest where scores[lag] >= 0.85 * best
            && scores[lag] >= scores[lag - 1] && scores[lag] >= scores[lag + 1]
        {
            // A parabola through the peak and its neighbours places it between pixels.
            let (a, b, c) = (scores[lag - 1], scores[lag], scores[lag + 1])
            let denominator = a - 2 * b + c
            return Float(lag) + (denominator < 0 ? 0.5 * (a - c) / denominator : 0)
        }
        return nil
    }

    /// The centre of each character: spread evenly over the line's ink, then fitted to the
    /// characters' ink seen in the column profile.
    ///
    /// The glyphs are the runs of columns with ink (one run a character; runs wider than a
    /// character, blurred together, or narrower than a stroke are left out). Each character's
    /// estimate takes the glyph nearest it, and a parabola through those pairs gives the next
    /// estimates, with a tolerance that narrows from half a pitch: a zone seen at a slant and
    /// cut out as a rectangle keeps its perspective, its pitch changing along the line, and
    /// its middle characters may lie a third of a pitch from where an even spread puts them.
    static func centres(of line: MRZBand.Line, count: Int) -> [Float] {
        let pitch = (line.right - line.left) / (Float(count) - 1 + inkWidth)
        let first = line.left + inkWidth * pitch / 2
        let columns = line.columns
        var glyphs: [Float] = []
        var start = -1
        let from = max(0, Int(line.left) - 1), to = min(columns.count, Int(line.right.rounded(.up)) + 1)
        for x in from...to {
            if x < to, columns[x] >= 2 {
                if start < 0 { start = x }
            } else if start >= 0 {
                let width = Float(x - start)
                if width >= 0.12 * pitch, width <= 1.15 * pitch { glyphs.append(Float(start + x) / 2) }
                start = -1
            }
        }
        func nearest(_ c: Float) -> Float? {
            // Binary search in the sorted glyph centres.
            var low = 0, high = glyphs.count
            while low < high {
                let mid = (low + high) / 2
                if glyphs[mid] < c { low = mid + 1 } else { high = mid }
            }
            let candidates = [low - 1, low].filter { $0 >= 0 && $0 < glyphs.count }.map { glyphs[$0] }
            return candidates.min { abs($0 - c) < abs($1 - c) }
        }
        var estimates = (0..<count).map { first + Float($0) * pitch }
        for tolerance: Float in [0.5, 0.3, 0.2] {
            let pairs = estimates.enumerated().compactMap { i, estimate -> (Double, Double)? in
                guard let c = nearest(estimate), abs(c - estimate) <= tolerance * pitch else { return nil }
                return (Double(i), Double(c))
            }
            guard pairs.count >= count / 3, let fit = polynomial(pairs, degree: 2) else { break }
            estimates = (0..<count).map { i in
                let x = Double(i)
                return Float(fit.reduce((0.0, 1.0)) { ($0.0 + $1 * $0.1, $0.1 * x) }.0)
            }
        }
        func snapped(_ estimates: [Float]) -> (centres: [Float], seen: Int) {
            var seen = 0
            let centres = estimates.map { estimate in
                if let c = nearest(estimate), abs(c - estimate) <= 0.15 * pitch {
                    seen += 1
                    return c
                }
                return estimate
            }
            return (centres, seen)
        }
        // A steep slant changes the pitch along the line more than a parabola from an even
        // spread follows (a card tilted 30 degrees: a quarter from one end to the other). The
        // line walked from its first glyph, each step from the last glyph met at the pitch
        // seen so far, is the other guess; the one meeting more glyphs is taken.
        var walk: [Float] = [], position = first, step = pitch
        var previous: Float?
        for k in 0..<count {
            if k > 0 { position += step }
            if let c = nearest(position), abs(c - position) <= 0.35 * step {
                if let previous, k > 0 { step = min(max(0.7 * step + 0.3 * (c - previous), 0.7 * pitch), 1.3 * pitch) }
                position = c
                previous = c
            } else {
                previous = nil
            }
            walk.append(position)
        }
        let fitted = snapped(estimates), walked = snapped(walk)
        return walked.seen > fitted.seen ? walked.centres : fitted.centres
    }

    /// The least-squares polynomial of `degree` (1 or 2) through `points`, lowest
    /// coefficient first; nil when the points do not determine it.
    static func polynomial(_ points: [(Double, Double)], degree: Int) -> [Double]? {
        let n = degree + 1
        // Normal equations: A c = b with A[j][k] = Σ x^(j+k), b[j] = Σ y x^j.
        var a = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
        for (x, y) in points {
            var powers = [Double](repeating: 1, count: 2 * n - 1)
            for k in 1..<powers.count { powers[k] = powers[k - 1] * x }
            for j in 0..<n {
                for k in 0..<n { a[j][k] += powers[j + k] }
                a[j][n] += y * powers[j]
            }
        }
        // Gaussian elimination with partial pivoting.
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }), abs(a[pivot][column]) > 1e-9 else { return nil }
            a.swapAt(column, pivot)
            for row in 0..<n where row != column {
                let factor = a[row][column] / a[column][column]
                for k in column...n { a[row][k] -= factor * a[column][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }
}
