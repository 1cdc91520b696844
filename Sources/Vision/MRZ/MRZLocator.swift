import Foundation
public import Imaging

/// Finds an MRZ anywhere in a frame and reads it, before and without the page's outline.
///
/// An open passport's data page lies beside its facing page, its cover shows around it and
/// it bends toward the spine: its outline is often not one clean quadrilateral, but its MRZ
/// is two or three long, evenly spaced lines of OCR-B that look like nothing else on a
/// document. The locator finds lines of dark text in any direction (OpenCV's black-hat and a
/// closing, ``MRZLocator/Settings``), groups those that are parallel, alike in thickness,
/// one to two and a half thicknesses apart and starting or ending together (or a block a
/// closing made of them), cuts the zone out upright at the reader's scale and reads it with
/// ``MRZReader``, whose check digits and field rules say whether it is one; a zone misread
/// is cut again along its lines' ends (a slanted page's zone converges). From the reader's
/// lines it predicts where the page is (ICAO fixes where the MRZ sits on each layout), so a
/// caller can guide and crop while the outline is hidden.
///
/// The class comes from the content: three lines are TD1, two lines TD2 or TD3 by their
/// length counted in their own character pitch, never by the page's aspect ratio (ID-2 and
/// ID-3 share one).
public struct MRZLocator: Sendable {
    /// How lines of text are looked for.
    public struct Settings: Sendable, Hashable {
        /// (black-hat square, closing square, the frame's size divided by) for each pass: a
        /// pass finds lines whose characters are 7 to 14 of its pixels apart (a closing of
        /// about half the pitch joins a line's characters and not its lines), so the passes
        /// at full and half size find pitches of 7 to 28 frame pixels.
        public var passes: [Pass] = [Pass(stroke: 9, gap: 5, reduction: 1), Pass(stroke: 9, gap: 5, reduction: 2)]
        /// A piece of a line shorter than this part of the working width is not looked at
        /// (pieces of one line are joined before lines are grouped).
        public var minimumLength: Double = 0.025
        /// Zones read at most per frame (groups of lines first, the most alike first; then blocks).
        public var maximumReads: Int = 6
        /// The least character pitch, in frame pixels, of a zone read (about 2.4 px/mm). Smaller,
        /// OCR-B's letters and digits blur into one another, and two misread characters of the
        /// document number can cancel in its check digit: on generated scenes at 4 and 5 pixels a
        /// character such reads passed every check (G6 read as 4Z, D read as S twice). Such a
        /// document is too small in the frame to read (the guidance asks to move closer).
        public var minimumPitch: Double = 6

        public struct Pass: Sendable, Hashable {
            public var stroke: Int
            public var gap: Int
            /// 1 (the frame as it is) or 2 (halved).
            public var reduction: Int
            public init(stroke: Int, gap: Int, reduction: Int) {
                self.stroke = stroke
                self.gap = gap
                self.reduction = reduction
            }
        }

        public init() {}
    }

    /// An MRZ found and read.
    public struct Found: Sendable, Hashable {
        /// What the reader read (check digits included).
        public var reading: MRZReading
        /// The lines' ink in frame pixels, in printed order: where each starts and ends.
        public var lines: [Segment]
        /// The page the MRZ is printed on, predicted from ICAO 9303's layout of its class:
        /// top-left, top-right, bottom-right, bottom-left of the page as it lies.
        public var page: Quadrilateral
        /// The class the reading says (TD1, TD2, TD3).
        public var documentClass: DocumentClass
    }

    /// A line of text from its start to its end, in frame pixels.
    public struct Segment: Sendable, Hashable {
        public var start: Point
        public var end: Point
    }

    public let reader: MRZReader
    public var settings: Settings

    public init(reader: MRZReader, settings: Settings = Settings()) {
        self.reader = reader
        self.settings = settings
    }

    /// Finds and reads the MRZ of `image`.
    /// - Returns: the zone whose reading has every check digit holding, else the zone read
    ///   with the most confidence, else nil (no MRZ-like group of lines, or none read).
    /// - Throws: ``VisionError`` when OpenCV fails.
    public func locate(in image: LumaImage) throws(VisionError) -> Found? {
        var best: Found?
        for group in try candidateGroups(in: image).prefix(settings.maximumReads) {
            // A visa's zone (document code V, ICAO 9303 Part 7: a sticker on a passport's
            // facing page) is not the document's: the search goes on past it.
            guard let found = try readEitherSpacing(group, in: image), found.reading.text.first?.first != "V" else { continue }
            if found.reading.allCheckDigitsHold { return found }
            if best.map({ found.reading.meanConfidence > $0.reading.meanConfidence }) ?? true { best = found }
        }
        return best
    }

    /// The groups of lines that could be an MRZ, in the order they are read, each line from
    /// its start to its end in frame pixels (for diagnostics: what the locator considered).
    public func candidates(in image: LumaImage) throws(VisionError) -> [[Segment]] {
        try candidateGroups(in: image).map { group in
            group.map { line in
                let half = Point(x: line.direction.x * line.length / 2, y: line.direction.y * line.length / 2)
                return Segment(start: line.centre - half, end: line.centre + half)
            }
        }
    }

    func candidateGroups(in image: LumaImage) throws(VisionError) -> [[TextLine]] {
        var halved: LumaImage?
        var lines: [TextLine] = []
        for pass in settings.passes {
            let working: LumaImage
            if pass.reduction == 2 {
                if halved == nil { halved = Self.halved(image) }
                working = halved!
            } else {
                working = image
            }
            guard working.width >= 32, working.height >= 16 else { continue }
            let found = try OpenCV.textLines(
                working, stroke: pass.stroke, gap: pass.gap, minimumLength: Float(settings.minimumLength * Double(working.width))
            ).get()
            lines += found.map { TextLine($0, scale: Double(pass.reduction)) }
        }
        return Self.groups(lines) + Self.blocks(lines)
    }

    // MARK: - Lines and groups

    /// A line of text as a rotated rectangle, in frame pixels; `direction` points along it
    /// (rightward, or downward when vertical).
    struct TextLine {
        var centre: Point
        var direction: Point
        var length: Double
        var thickness: Double

        init(centre: Point, direction: Point, length: Double, thickness: Double) {
            self.centre = centre
            self.direction = direction
            self.length = length
            self.thickness = thickness
        }

        init(_ line: OpenCV.TextLineRectangle, scale: Double) {
            let radians = Double(line.angle) * .pi / 180
            var direction = Point(x: cos(radians), y: sin(radians))
            if direction.x < -1e-9 || (direction.x.magnitude <= 1e-9 && direction.y < 0) {
                direction = Point(x: -direction.x, y: -direction.y)
            }
            self.init(
                centre: Point(x: Double(line.cx) * scale, y: Double(line.cy) * scale), direction: direction,
                length: Double(line.length) * scale, thickness: Double(line.thickness) * scale)
        }

        /// Points "up" from the line: the direction turned a quarter against the clock in the
        /// image (y down), where the page is when the text reads along `direction`.
        var up: Point { Point(x: direction.y, y: -direction.x) }
    }

    /// Groups of two or three lines that could be an MRZ, the most alike first: parallel
    /// within 3 degrees, thickness within 45 %, spaced 1.3 to 3.4 thicknesses apart (evenly,
    /// for three; a line is about as thick as its characters are high, 2.4 mm: a TD1's lines
    /// are 4.23 mm apart, a TD2's or TD3's 6.35), and starting or ending together. Their
    /// lengths may differ: a line of the zone ends in `<` fillers, which are thin, and may be
    /// found shorter than it is.
    static func groups(_ lines: [TextLine]) -> [[TextLine]] {
        let lines = joined(deduplicated(lines)).filter { $0.length >= 12 * $0.thickness }
        var pairs: [(Int, Int, Double)] = []
        for i in lines.indices {
            for j in lines.indices where j > i {
                if let cost = pairCost(lines[i], lines[j]) { pairs.append((i, j, cost)) }
            }
        }
        var groups: [([TextLine], Double)] = []
        // Triples (TD1) first where three lines chain with even spacing.
        for (i, j, cost) in pairs {
            for (k, l, other) in pairs where k == j || l == j || k == i || l == i {
                let members = Set([i, j, k, l])
                guard members.count == 3 else { continue }
                let triple = ordered(members.map { lines[$0] })
                let gaps = zip(triple.dropFirst(), triple).map { lower, upper in
                    (upper.centre - lower.centre).dot(triple[0].up)
                }
                guard gaps.count == 2, gaps.allSatisfy({ $0 > 0 }), abs(gaps[0] - gaps[1]) <= 0.2 * max(gaps[0], gaps[1]) else {
                    continue
                }
                // Three lines are a TD1's: 4.23 mm apart, closer than `wideSpacing`.
                let thickness = triple.map(\.thickness).reduce(0, +) / 3
                guard max(gaps[0], gaps[1]) < wideSpacing * thickness else { continue }
                groups.append((triple, (cost + other) / 2 - 0.5))
            }
        }
        for (i, j, cost) in pairs { groups.append((ordered([lines[i], lines[j]]), cost)) }
        var seen = Set<[Int]>()
        return groups.sorted { $0.1 < $1.1 }.map(\.0).filter { group in
            let key = group.map { Int($0.centre.x.rounded()) * 10_000 + Int($0.centre.y.rounded()) }.sorted()
            return seen.insert(key).inserted
        }
    }

    /// Two lines of the same MRZ: nil when they cannot be, else how unlike they are (0 best).
    static func pairCost(_ a: TextLine, _ b: TextLine) -> Double? {
        let cosine = abs(a.direction.dot(b.direction))
        guard cosine >= cos(3 * Double.pi / 180) else { return nil }
        let (longer, shorter) = a.length >= b.length ? (a, b) : (b, a)
        let thickness = (a.thickness + b.thickness) / 2
        let thicknessDifference = abs(a.thickness - b.thickness) / max(a.thickness, b.thickness)
        guard thicknessDifference <= 0.45, longer.length >= 20 * thickness, shorter.length >= 0.35 * longer.length else { return nil }
        let offset = b.centre - a.centre
        let spacing = abs(offset.dot(a.up)) / thickness
        guard spacing >= 1.3, spacing <= 3.4 else { return nil }
        let u = a.direction
        let (startA, startB) = (a.centre.dot(u) - a.length / 2, b.centre.dot(u) - b.length / 2)
        let (endA, endB) = (a.centre.dot(u) + a.length / 2, b.centre.dot(u) + b.length / 2)
        let aligned = min(abs(startA - startB), abs(endA - endB)) / thickness
        guard aligned <= 1.5 else { return nil }
        // Nearest to a TD1's spacing (1.75 thicknesses) or a TD2's and TD3's (2.6); as long as
        // a zone's lines (30 to 44 characters: 32 to 46 thicknesses), not a paragraph's.
        let spacingCost = min(abs(spacing - 1.75), abs(spacing - 2.6)) / 4
        let shortness = max(0, 30 - longer.length / thickness) / 20
        return (1 - shorter.length / longer.length) / 2 + thicknessDifference / 2 + spacingCost + shortness + aligned / 10
            + (1 - cosine) * 50
    }

    /// A closing that joins a zone's lines as well as their characters leaves one block:
    /// about 13 times as long as thick for TD3, 10 for TD2 (two lines, 8.8 mm) and 7 for TD1
    /// (three lines, 10.9 mm). Each block found is taken for the lines it would hold.
    static func blocks(_ lines: [TextLine]) -> [[TextLine]] {
        let candidates = deduplicated(lines).flatMap { block -> [(([TextLine], Double), Double)] in
            let aspect = block.length / block.thickness
            guard aspect >= 5, aspect <= 24 else { return [] }
            // Between TD1's and TD2's (a TD2 zone's block, thickened by the closing, can look
            // as squat as 8) both readings of the block are tried.
            let counts = aspect < 8.5 ? [3] : aspect > 12.5 ? [2] : [3, 2]
            return counts.map { count in (members(of: block, count: count, aspect: aspect), block.length) }
        }
        // The longest first: a zone is the longest print of its page, and a word or a short
        // field can have a zone's aspect; of one block, three lines first (a TD1's lines are
        // the ones a closing merges).
        return candidates.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.0.count > $1.0.0.count }.map(\.0.0)
    }

    /// The `count` lines a block would hold, and how unlike that zone's aspect it is.
    static func members(of block: TextLine, count: Int, aspect: Double) -> ([TextLine], Double) {
        let nominal = count == 3 ? 7.0 : 11.5
        // The zone's height: the lines' pitch times (count - 1), and one line's height.
        let pitch = Double(count == 3 ? MRZReader.linePitchMillimetres : MRZReader.widePitchMillimetres)
        let millimetres = pitch * Double(count - 1) + 2.42
        let spacing = block.thickness * pitch / millimetres, height = block.thickness * 2.42 / millimetres
        let members = (0..<count).map { i -> TextLine in
            let offset = (Double(count - 1) / 2 - Double(i)) * spacing
            return TextLine(
                centre: Point(x: block.centre.x + offset * block.up.x, y: block.centre.y + offset * block.up.y),
                direction: block.direction, length: block.length, thickness: height)
        }
        return (members, abs(aspect / nominal - 1))
    }

    /// Pieces of one line joined: a closing that keeps two lines of the zone apart can leave
    /// gaps in a line (Otsu's level thins the characters). Pieces join when they run along one
    /// axis (3 degrees, half a thickness across) with at most three thicknesses (about three
    /// characters) between them.
    static func joined(_ pieces: [TextLine]) -> [TextLine] {
        var lines: [TextLine] = []
        for piece in pieces.sorted(by: { $0.length > $1.length }) {
            var merged = false
            for index in lines.indices {
                let line = lines[index]
                guard abs(line.direction.dot(piece.direction)) >= cos(3 * Double.pi / 180),
                      abs(piece.thickness - line.thickness) <= 0.4 * max(piece.thickness, line.thickness),
                      abs((piece.centre - line.centre).dot(line.up)) <= 0.5 * line.thickness
                else { continue }
                let c = line.centre.dot(line.direction), p = piece.centre.dot(line.direction)
                let (lineStart, lineEnd) = (c - line.length / 2, c + line.length / 2)
                let (pieceStart, pieceEnd) = (p - piece.length / 2, p + piece.length / 2)
                let gap = max(pieceStart - lineEnd, lineStart - pieceEnd)
                guard gap <= 3 * line.thickness else { continue }
                let (start, end) = (min(lineStart, pieceStart), max(lineEnd, pieceEnd))
                let across = line.centre.dot(line.up)
                let middle = (start + end) / 2
                lines[index] = TextLine(
                    centre: Point(
                        x: middle * line.direction.x + across * line.up.x, y: middle * line.direction.y + across * line.up.y),
                    direction: line.direction, length: end - start,
                    thickness: (line.thickness * line.length + piece.thickness * piece.length) / (line.length + piece.length))
                merged = true
                break
            }
            if !merged { lines.append(piece) }
        }
        // A join can bring two pieces that were apart within reach of each other: once more.
        return lines.count < pieces.count ? joined(lines) : lines
    }

    /// Lines found by more than one pass, once: the longer kept.
    static func deduplicated(_ lines: [TextLine]) -> [TextLine] {
        var kept: [TextLine] = []
        for line in lines.sorted(by: { $0.length > $1.length }) {
            // The same line: parallel, alike in thickness (not two lines a closing merged), on
            // one axis and overlapping along it.
            let duplicate = kept.contains { other in
                abs(other.direction.dot(line.direction)) > 0.995
                    && abs(other.thickness - line.thickness) <= 0.4 * max(other.thickness, line.thickness)
                    && abs((line.centre - other.centre).dot(other.up)) < 0.5 * max(other.thickness, line.thickness)
                    && abs((line.centre - other.centre).dot(other.direction)) < (other.length + line.length) / 2
            }
            if !duplicate { kept.append(line) }
        }
        return kept
    }

    /// Lines top first for a reader along the first line's direction.
    static func ordered(_ lines: [TextLine]) -> [TextLine] {
        let up = lines[0].up
        return lines.sorted { $0.centre.dot(up) > $1.centre.dot(up) }
    }

    // MARK: - Reading and the page

    /// Lines this many of their thicknesses apart or more are a TD2's or TD3's (6.35 mm, about
    /// 2.6 thicknesses), nearer a TD1's (4.23 mm, about 1.75).
    static let wideSpacing = 2.15

    /// The zone of `group` read at the scale its lines' spacing gives. Three lines are a TD1's
    /// (4.23 mm apart). Two lines about 1.75 of their thicknesses apart are two of a TD1's, about
    /// 2.6 a TD2's or TD3's (6.35 mm); between 1.95 and 2.9 (a slant thins the lines) the other
    /// spacing is tried when the nearer gives no reading whose check digits hold.
    func readEitherSpacing(_ group: [TextLine], in image: LumaImage) throws(VisionError) -> Found? {
        guard group.count == 2 else { return try read(group, in: image, wide: false) }
        let n = group[0].up
        let spacing = abs(group[0].centre.dot(n) - group[1].centre.dot(n))
        let ratio = spacing / ((group[0].thickness + group[1].thickness) / 2)
        let wide = ratio >= Self.wideSpacing
        let first = try read(group, in: image, wide: wide)
        guard first?.reading.allCheckDigitsHold != true, (1.95...2.9).contains(ratio) else { return first }
        guard let second = try read(group, in: image, wide: !wide) else { return first }
        if second.reading.allCheckDigitsHold { return second }
        return first.map { $0.reading.meanConfidence >= second.reading.meanConfidence ? $0 : second } ?? second
    }

    /// The zone of `group` cut out upright at the reader's scale and read; the page predicted.
    /// - Parameter wide: whether its lines are a TD2's or TD3's (6.35 mm apart), not a TD1's (4.23 mm).
    func read(_ group: [TextLine], in image: LumaImage, wide: Bool) throws(VisionError) -> Found? {
        let u = group[0].direction, n = group[0].up
        let across = group.map { $0.centre.dot(n) }
        let spacing = (across.first! - across.last!) / Double(group.count - 1)
        guard spacing > 0 else { return nil }
        let lineSpacing = Double(wide ? MRZReader.widePitchMillimetres : MRZReader.linePitchMillimetres)
        let pixelsPerMillimetre = spacing / lineSpacing
        let starts = group.map { $0.centre.dot(u) - $0.length / 2 }, ends = group.map { $0.centre.dot(u) + $0.length / 2 }
        // The lines may be longer than found (thin `<` fillers at either end, as the zone may
        // lie either way up): the crop reaches as far as a line of the layout could (TD1 30
        // characters on three lines, TD2 and TD3 up to 44 on two).
        let pitch = pixelsPerMillimetre * Double(MRZReader.pitchMillimetres)
        let characters = group.count == 3 ? 31.0 : 45.0
        let unseen = max(0, characters * pitch - (ends.max()! - starts.min()!))
        let start = starts.min()! - unseen, end = ends.max()! + unseen
        let top = across.first!, bottom = across.last!
        // The crop: 4 mm beyond the ends, 5 mm beyond the outer lines' centres, at the reader's
        // scale. Two lines no longer than a TD1's may be two of its three (the third, of `<`
        // fillers and a name, found too short or not at all): one line pitch more across, either
        // side, and the reader says how many there are.
        let longest = zip(starts, ends).map { $1 - $0 }.max()!
        let mayBeTD1 = group.count == 2 && !wide && longest <= 34 * pitch
        let margin = 4 * pixelsPerMillimetre
        let marginAcross = (mayBeTD1 ? 5 + Double(MRZReader.linePitchMillimetres) : 5) * pixelsPerMillimetre
        let outputScale = Double(reader.pixelsPerMillimetre) / pixelsPerMillimetre
        let width = Int(((end - start + 2 * margin) * outputScale).rounded())
        let height = Int(((top - bottom + 2 * marginAcross) * outputScale).rounded())
        guard width >= 64, height >= 32, width <= 4000, height <= 1000 else { return nil }
        func point(_ a: Double, _ b: Double) -> Point { Point(x: a * u.x + b * n.x, y: a * u.y + b * n.y) }
        let corners = [
            point(start - margin, top + marginAcross), point(end + margin, top + marginAcross),
            point(end + margin, bottom - marginAcross), point(start - margin, bottom - marginAcross),
        ]
        var pixels = [UInt8](repeating: 0, count: width * height)
        try OpenCV.warp(
            image.pixels, width: image.width, height: image.height, channels: 1,
            corners: corners.flatMap { [Float($0.x), Float($0.y)] }, into: &pixels, targetWidth: width, targetHeight: height
        ).get()
        let crop = LumaImage(width: width, height: height, pixels: pixels)
        guard let (read, band) = reader.readZoneBanded(crop), read.format.lineCount == group.count || mayBeTD1 else { return nil }
        var reading = read
        let documentClass: DocumentClass = switch reading.format {
        case .td1: .td1
        case .td2: .td2
        case .td3: .td3
        }
        // The reader's own lines, in the crop as it read it (turned for an upside-down zone),
        // then in the frame: the crop is a rectangle of the frame, so the map is affine.
        func frame(_ p: Point) -> Point {
            let (x, y) = reading.upsideDown ? (Double(width) - p.x, Double(height) - p.y) : (p.x, p.y)
            let (fx, fy) = (x / Double(width), y / Double(height))
            return Point(
                x: corners[0].x + fx * (corners[1].x - corners[0].x) + fy * (corners[3].x - corners[0].x),
                y: corners[0].y + fx * (corners[1].y - corners[0].y) + fy * (corners[3].y - corners[0].y))
        }
        let segments = band.lines.map { line -> Segment in
            let middle = Double((line.top + line.bottom) / 2)
            let slope = Double(band.slope), centreX = Double(band.centreX)
            return Segment(
                start: frame(Point(x: Double(line.left), y: middle + slope * (Double(line.left) - centreX))),
                end: frame(Point(x: Double(line.right), y: middle + slope * (Double(line.right) - centreX))))
        }
        let page = Self.page(of: documentClass, format: reading.format, band: band).corners.map(frame)
        // A zone seen at a slant converges: the rectangle cut it unevenly. Once its lines' ends
        // are known, it is cut again along them (a perspective warp) and read again.
        if !reading.allCheckDigitsHold, let again = try rereadAlong(segments, format: reading.format, in: image),
           again.allCheckDigitsHold, again.format == reading.format
        {
            reading = MRZReading(format: again.format, lines: again.lines, upsideDown: reading.upsideDown)
        }
        let pitchSeen = segments.map { $0.start.distance(to: $0.end) }.max()! / Double(reading.format.lineLength)
        guard pitchSeen >= settings.minimumPitch else { return nil }
        return Found(reading: reading, lines: segments, page: Quadrilateral(page), documentClass: documentClass)
    }

    /// The zone cut along its lines' ends (first and last line, in printed order) with a
    /// perspective warp, at the reader's scale, and read.
    func rereadAlong(_ lines: [Segment], format: MRZReading.Format, in image: LumaImage) throws(VisionError) -> MRZReading? {
        guard lines.count >= 2, let first = lines.first, let last = lines.last else { return nil }
        let (a, c, b, d) = (first.start, first.end, last.start, last.end)
        let length = a.distance(to: c), across = a.distance(to: b)
        guard length > 0, across > 0 else { return nil }
        let characters = Double(format.lineLength) - 1 + Double(MRZReader.inkWidth)
        // 1.5 pitches beyond the ends, 0.9 line spacings beyond the outer lines.
        let m = 1.5 / characters, k = 0.9 / Double(lines.count - 1)
        func beyond(_ p: Point, _ from: Point, _ by: Double) -> Point { Point(x: (p.x - from.x) * by, y: (p.y - from.y) * by) }
        let corners = [
            a + beyond(a, b, k) + beyond(a, c, m), c + beyond(c, d, k) + beyond(c, a, m),
            d + beyond(d, c, k) + beyond(d, b, m), b + beyond(b, a, k) + beyond(b, d, m),
        ]
        let lineOut = characters * Double(MRZReader.pitchMillimetres * reader.pixelsPerMillimetre)
        let width = Int((lineOut * (1 + 2 * m)).rounded()), height = Int((across / length * lineOut * (1 + 2 * k)).rounded())
        guard width >= 64, height >= 32, width <= 4000, height <= 1000 else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height)
        try OpenCV.warp(
            image.pixels, width: image.width, height: image.height, channels: 1,
            corners: corners.flatMap { [Float($0.x), Float($0.y)] }, into: &pixels, targetWidth: width, targetHeight: height
        ).get()
        return reader.readZone(LumaImage(width: width, height: height, pixels: pixels))
    }

    /// ICAO 9303 (Parts 4-6): the reference centre lines of the MRZ's lines in millimetres
    /// from the page's bottom edge (top line first), and the first character's left edge from
    /// its left edge. Part 4 Figure 3 centres a TD3's lines in printing zones 7.25-11.55 and
    /// 13.6-17.9 mm above the bottom edge (9.40 and 15.75 mm, 6.35 mm apart); a TD2's zone
    /// conforms to it (Part 6). The first character: 6.0 (TD3), 5.0 (TD1), 4.0 (TD2) mm, each
    /// +-1.0 (Parts 4-6, 4.2.1.3). A TD1's lines are 4.23 mm apart, taken as centred in its
    /// 17.78 mm zone.
    static func zoneGeometry(_ format: MRZReading.Format) -> (centres: [Double], left: Double) {
        switch format {
        case .td1: ([13.12, 8.89, 4.66], 5.0)
        case .td2: ([15.75, 9.40], 4.0)
        case .td3: ([15.75, 9.40], 6.0)
        }
    }

    /// The page's corners in the upright zone crop, from the reader's lines: their start gives
    /// the left edge, their centres the bottom edge, the class's size the rest, at the scale of
    /// their length in characters (ICAO's 2.54 mm pitch).
    static func page(of documentClass: DocumentClass, format: MRZReading.Format, band: MRZBand) -> Quadrilateral {
        let geometry = zoneGeometry(format)
        let (widthMM, heightMM) = documentClass.size
        let characters = Double(format.lineLength) - 1 + Double(MRZReader.inkWidth)
        let lines = band.lines
        let along = lines.map { Double($0.right - $0.left) }.reduce(0, +) / Double(lines.count)
            / (characters * Double(MRZReader.pitchMillimetres))
        let centres = lines.map { Double($0.top + $0.bottom) / 2 }
        let start = lines.map { Double($0.left) }.reduce(0, +) / Double(lines.count)
        // The bottom edge from every line's centre and its distance from that edge (rows grow
        // downward). One scale both ways: the character pitch is ICAO's on every document, the
        // lines' spacing is not.
        let bottom = zip(centres, geometry.centres).map { $0 + $1 * along }.reduce(0, +) / Double(lines.count)
        let left = start - geometry.left * along, right = left + widthMM * along
        let top = bottom - heightMM * along
        // The band's slope: the page turns with its lines.
        let slope = Double(band.slope), cx = Double(band.centreX)
        func point(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y + slope * (x - cx)) }
        return Quadrilateral([point(left, top), point(right, top), point(right, bottom), point(left, bottom)])
    }

    /// The image at half size (2x2 means).
    static func halved(_ image: LumaImage) -> LumaImage {
        let w = image.width / 2, h = image.height / 2
        var pixels = [UInt8](repeating: 0, count: w * h)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<h {
                    let a = 2 * y * image.width, b = a + image.width
                    for x in 0..<w {
                        let sum = Int(source[a + 2 * x]) + Int(source[a + 2 * x + 1]) + Int(source[b + 2 * x]) + Int(source[b + 2 * x + 1])
                        target[y * w + x] = UInt8((sum + 2) / 4)
                    }
                }
            }
        }
        return LumaImage(width: w, height: h, pixels: pixels)
    }
}
