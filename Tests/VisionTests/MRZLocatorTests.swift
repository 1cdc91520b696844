import Foundation
import Imaging
import KioskTestKit
import Testing
@testable import Vision

/// The MRZ found first: generated page crops laid into a frame at a scale and an angle the
/// test chooses (so the page's corners are known exactly), beside a facing page of other
/// print, and read without the page's outline; the class from the zone's content.
@Suite("MRZ locator")
struct MRZLocatorTests {
    // MARK: groups of lines

    static func line(_ x: Double, _ y: Double, length: Double = 400, thickness: Double = 10, degrees: Double = 0) -> MRZLocator.TextLine {
        let r = degrees * .pi / 180
        return MRZLocator.TextLine(centre: Point(x: x, y: y), direction: Point(x: cos(r), y: sin(r)), length: length, thickness: thickness)
    }

    @Test func twoLinesSpacedAsAnMRZAreAGroupAndTopComesFirst() throws {
        let groups = MRZLocator.groups([Self.line(640, 400), Self.line(640, 417.5)])
        let group = try #require(groups.first)
        #expect(group.count == 2)
        #expect(group[0].centre.y < group[1].centre.y)
    }

    @Test func linesTooFarApartUnlikeOrCrossingAreNoGroup() {
        #expect(MRZLocator.groups([Self.line(640, 400), Self.line(640, 440)]).isEmpty)  // 4 thicknesses apart
        #expect(MRZLocator.groups([Self.line(640, 400), Self.line(640, 417, length: 300)]).isEmpty)  // shorter, neither end together
        #expect(MRZLocator.groups([Self.line(640, 400), Self.line(640, 417, degrees: 10)]).isEmpty)  // not parallel
        #expect(MRZLocator.groups([Self.line(640, 400), Self.line(900, 417)]).isEmpty)  // shifted along the line
        #expect(MRZLocator.groups([Self.line(640, 400), Self.line(640, 405)]).isEmpty)  // one line split, not two
    }

    @Test func threeEvenlySpacedLinesComeBeforeTheirPairs() throws {
        let lines = [Self.line(640, 400, degrees: 30), Self.line(640 - 17.5 * sin(.pi / 6), 400 + 17.5 * cos(.pi / 6), degrees: 30),
                     Self.line(640 - 35 * sin(.pi / 6), 400 + 35 * cos(.pi / 6), degrees: 30)]
        let group = try #require(MRZLocator.groups(lines).first)
        #expect(group.count == 3)
    }

    // MARK: generated pages laid into frames

    static let enabled = VisionCrops.hasModel && VisionCrops.hasCrops("dev")
    static let reason: Comment = "needs the MRZ model and the generated crops: `make vision-models vision-data`"

    /// A page crop (10 px/mm) laid into a 1280x720 frame of `background` at `scale` frame
    /// pixels per crop pixel, turned by `degrees` about its centre at `centre`; returns the
    /// frame and the page's corners there (top-left, top-right, bottom-right, bottom-left).
    static func lay(
        _ crop: LumaImage, into frame: inout LumaImage, scale: Double, degrees: Double, centre: Point
    ) -> Quadrilateral {
        let r = degrees * .pi / 180, (c, s) = (cos(r), sin(r))
        let (hw, hh) = (Double(crop.width) / 2, Double(crop.height) / 2)
        func toFrame(_ x: Double, _ y: Double) -> Point {
            let (dx, dy) = ((x - hw) * scale, (y - hh) * scale)
            return Point(x: centre.x + dx * c - dy * s, y: centre.y + dx * s + dy * c)
        }
        let corners = [toFrame(0, 0), toFrame(Double(crop.width), 0), toFrame(Double(crop.width), Double(crop.height)), toFrame(0, Double(crop.height))]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = max(0, Int(xs.min()!)), x1 = min(frame.width - 1, Int(xs.max()!) + 1)
        let y0 = max(0, Int(ys.min()!)), y1 = min(frame.height - 1, Int(ys.max()!) + 1)
        guard x0 <= x1, y0 <= y1 else { return Quadrilateral(corners) }
        for y in y0...y1 {
            for x in x0...x1 {
                // Back to the crop: the inverse turn and scale, nearest pixel.
                let (dx, dy) = (Double(x) + 0.5 - centre.x, Double(y) + 0.5 - centre.y)
                let u = (dx * c + dy * s) / scale + hw, v = (-dx * s + dy * c) / scale + hh
                let (iu, iv) = (Int(u), Int(v))
                guard u >= 0, v >= 0, iu < crop.width, iv < crop.height else { continue }
                frame.pixels[y * frame.width + x] = crop.pixels[iv * crop.width + iu]
            }
        }
        return Quadrilateral(corners)
    }

    /// A platen of mottled grey: deterministic, and not a page.
    static func platen(seed: UInt32) -> LumaImage {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: 1280 * 720)
        for i in pixels.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            let (x, y) = (Double(i % 1280), Double(i / 1280))
            pixels[i] = UInt8(90 + 20 * sin(x / 97) * sin(y / 61) + Double(state >> 28))
        }
        return LumaImage(width: 1280, height: 720, pixels: pixels)
    }

    /// The dev crops with an MRZ, a few of each class.
    static func pages() throws -> [VisionCrops.Crop] {
        let crops = try VisionCrops.crops("dev").filter { $0.mrz != nil }
        return ["TD1", "TD2", "TD3"].flatMap { cls in crops.filter { $0.documentClass == cls }.prefix(4) }
    }

    @Test(.enabled(if: enabled, reason))
    func aPageAtAnyAngleIsReadItsClassFromItsContentAndItsPagePredicted() throws {
        let locator = MRZLocator(reader: MRZReader(model: try #require(VisionCrops.model)))
        let angles: [Double] = [0, 8, -23, 90, 180, 147]
        var read = 0, tried = 0
        for (index, page) in try Self.pages().enumerated() {
            let degrees = angles[index % angles.count]
            // A TD3 page about 560 pixels wide, a card about 380: a station's usual range.
            let scale = 0.45
            var frame = Self.platen(seed: UInt32(index + 1))
            let placed = Self.lay(page.image, into: &frame, scale: scale, degrees: degrees, centre: Point(x: 640, y: 360))
            tried += 1
            guard let found = try locator.locate(in: frame) else {
                Issue.record("\(page.name) (\(page.documentClass)) at \(degrees) degrees: no MRZ")
                continue
            }
            #expect(found.reading.allCheckDigitsHold, "\(page.name) at \(degrees) degrees")
            #expect(found.reading.text == page.mrz, "\(page.name) at \(degrees) degrees")
            #expect(found.documentClass.rawValue == page.documentClass, "\(page.name): read as \(found.documentClass)")
            #expect(found.reading.upsideDown == (abs(degrees) > 90), "\(page.name) at \(degrees) degrees")
            let jaccard = found.page.jaccardIndex(with: placed)
            #expect(jaccard >= 0.85, "\(page.name) at \(degrees) degrees: the predicted page's Jaccard index \(jaccard)")
            if found.reading.text == page.mrz { read += 1 }
        }
        #expect(tried >= 9 && read == tried)
    }

    @Test(.enabled(if: enabled, reason))
    func aDataPageInAnOpenBookletIsReadBesideAFacingPageOfPrint() throws {
        let locator = MRZLocator(reader: MRZReader(model: try #require(VisionCrops.model)))
        let crops = try VisionCrops.crops("dev")
        let facing = try #require(crops.first { $0.documentClass == "TD1" && $0.mrz == nil })  // print, no MRZ
        for page in try Self.pages().filter({ $0.documentClass == "TD3" }).prefix(3) {
            var frame = Self.platen(seed: 7)
            // The facing page above the data page, a little larger than the frame's top.
            _ = Self.lay(facing.image, into: &frame, scale: 0.75, degrees: 0, centre: Point(x: 640, y: 100))
            let placed = Self.lay(page.image, into: &frame, scale: 0.45, degrees: 0, centre: Point(x: 640, y: 470))
            guard let found = try locator.locate(in: frame) else {
                Issue.record("\(page.name): no MRZ beside the facing page")
                continue
            }
            // The key's fields and every check digit; a letter of a name has no check digit.
            #expect(found.reading.allCheckDigitsHold && Self.keyFields(found.reading.text) == Self.keyFields(page.mrz), "\(page.name)")
            #expect(found.page.jaccardIndex(with: placed) >= 0.85, "\(page.name)")
        }
    }

    /// The homography taking the crop's corners (0,0), (w,0), (w,h), (0,h) to `quad`, as a
    /// row-major 3x3 with the last entry 1 (the eight unknowns by Gaussian elimination).
    static func homography(width w: Double, height h: Double, to quad: [Point]) -> [Double] {
        let from = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        var a = [[Double]]()
        for (i, (x, y)) in from.enumerated() {
            let (u, v) = (quad[i].x, quad[i].y)
            a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, u])
            a.append([0, 0, 0, x, y, 1, -v * x, -v * y, v])
        }
        for column in 0..<8 {
            let pivot = (column..<8).max { abs(a[$0][column]) < abs(a[$1][column]) }!
            a.swapAt(column, pivot)
            for row in 0..<8 where row != column {
                let factor = a[row][column] / a[column][column]
                for k in column...8 { a[row][k] -= factor * a[column][k] }
            }
        }
        return (0..<8).map { a[$0][8] / a[$0][$0] } + [1]
    }

    /// A page crop drawn into `frame` onto the quadrilateral `quad` (a page seen at a slant):
    /// each frame pixel inside is taken back to the crop through the inverse homography.
    static func layOnto(_ crop: LumaImage, _ quad: [Point], into frame: inout LumaImage) {
        let m = homography(width: Double(crop.width), height: Double(crop.height), to: quad)
        // The inverse of the 3x3 by its adjugate.
        let inv = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let xs = quad.map(\.x), ys = quad.map(\.y)
        for y in max(0, Int(ys.min()!))...min(frame.height - 1, Int(ys.max()!)) {
            for x in max(0, Int(xs.min()!))...min(frame.width - 1, Int(xs.max()!)) {
                let (fx, fy) = (Double(x) + 0.5, Double(y) + 0.5)
                let z = inv[6] * fx + inv[7] * fy + inv[8]
                let u = (inv[0] * fx + inv[1] * fy + inv[2]) / z, v = (inv[3] * fx + inv[4] * fy + inv[5]) / z
                guard u >= 0, v >= 0, Int(u) < crop.width, Int(v) < crop.height else { continue }
                frame.pixels[y * frame.width + x] = crop.pixels[Int(v) * crop.width + Int(u)]
            }
        }
    }

    @Test(.enabled(if: enabled, reason))
    func aPageSeenAtASlantIsReadAlongItsConvergingLines() throws {
        let locator = MRZLocator(reader: MRZReader(model: try #require(VisionCrops.model)))
        // The page's far (top) edge 72 % as wide as its near edge: about 25 degrees of tilt.
        let quad = [Point(x: 440, y: 190), Point(x: 840, y: 190), Point(x: 920, y: 560), Point(x: 360, y: 560)]
        // Passport pages and TD2 cards: the rectangular cut keeps the slant's perspective (the
        // pitch changes along a line), and the characters are placed on a curve through the
        // glyphs seen.
        var read = 0, tried = 0, exact = 0
        for page in try Self.pages().filter({ $0.documentClass != "TD1" }) {
            tried += 1
            var frame = Self.platen(seed: 5)
            Self.layOnto(page.image, quad, into: &frame)
            guard let found = try locator.locate(in: frame) else {
                Issue.record("\(page.name) (\(page.documentClass)): no MRZ at a slant")
                continue
            }
            // The key's line (the second, with the number and the dates) and every check digit;
            // a letter of the first line (a name, the document code) has no check digit and may
            // be misread at this slant.
            #expect(found.reading.allCheckDigitsHold && found.reading.text.last == page.mrz?.last, "\(page.name) at a slant: \(found.reading.text) for \(page.mrz ?? [])")
            #expect(found.page.jaccardIndex(with: Quadrilateral(quad)) >= 0.75, "\(page.name): \(found.page.jaccardIndex(with: Quadrilateral(quad)))")
            if found.reading.allCheckDigitsHold, found.reading.text.last == page.mrz?.last { read += 1 }
            if found.reading.text == page.mrz { exact += 1 }
        }
        #expect(tried == 8 && read == tried)
        #expect(exact >= 7, "\(exact) of \(tried) read exactly")
    }

    /// The fields of the chip key with their check digits (ICAO 9303: the document number,
    /// the dates of birth and expiry): a TD1's on its first two lines, a TD2's or TD3's on its
    /// second.
    static func keyFields(_ lines: [String]?) -> [Substring] {
        guard let lines, lines.count >= 2 else { return [] }
        func cut(_ line: String, _ range: Range<Int>) -> Substring {
            let characters = Array(line.utf8)
            guard range.upperBound <= characters.count else { return "" }
            return Substring(decoding: characters[range], as: UTF8.self)
        }
        if lines.count == 3 { return [cut(lines[0], 5..<15), cut(lines[1], 0..<7), cut(lines[1], 8..<15)] }
        return [cut(lines[1], 0..<10), cut(lines[1], 13..<20), cut(lines[1], 21..<28)]
    }

    @Test(.enabled(if: enabled, reason))
    func aPageSeenSteeplySlantedAndTurnedIsReadItsCharactersLeaningAndTheirPitchChanging() throws {
        // The page's far (top) edge three quarters as wide as its near edge, and turned: about
        // 30 degrees of tilt. Its zone, cut out as a rectangle, keeps the perspective: the
        // characters lean (a shear) and their pitch shrinks along the line.
        let locator = MRZLocator(reader: MRZReader(model: try #require(VisionCrops.model)))
        let quad = [Point(x: 450, y: 210), Point(x: 840, y: 200), Point(x: 900, y: 530), Point(x: 390, y: 540)]
        var read = 0, tried = 0
        for page in try Self.pages() {
            tried += 1
            var frame = Self.platen(seed: 9)
            Self.layOnto(page.image, quad, into: &frame)
            let found = try locator.locate(in: frame)
            // Never a wrong key; a name (no check digit) may be misread at this slant.
            let holds = found?.reading.allCheckDigitsHold == true
            #expect(!holds || Self.keyFields(found?.reading.text) == Self.keyFields(page.mrz), "\(page.name): a wrong key \(found?.reading.text ?? []) for \(page.mrz ?? []), confidence \(found?.reading.meanConfidence ?? 0) key \(found?.reading.keyConfidence ?? 0)")
            if holds, Self.keyFields(found?.reading.text) == Self.keyFields(page.mrz) { read += 1 }
        }
        // 10 or more until 2026-12-07; 9 since the locator also takes lines 6.35 mm apart (a
        // TD2's and TD3's, ICAO's place) for a zone: two TD1 cards of the twelve, whose lines
        // the slant thins, are no longer read at this slant (docs/vision.md).
        #expect(tried == 12 && read >= 9, "\(read) of \(tried) keys read at a steep slant")
    }

    /// A platen of one flat grey.
    static func flat(_ level: UInt8) -> LumaImage {
        LumaImage(width: 1280, height: 720, pixels: [UInt8](repeating: level, count: 1280 * 720))
    }

    @Test(.enabled(if: enabled, reason))
    func aCardOnABlackPlatenIsReadThoughItsZoneReachesThePagesEdge() throws {
        // A card's bottom line lies a few millimetres from its edge: the zone's cut reaches the
        // black platen beyond, whose dark side of the edge is no text line.
        let locator = MRZLocator(reader: MRZReader(model: try #require(VisionCrops.model)))
        var read = 0, tried = 0
        for (index, page) in try Self.pages().enumerated() {
            for level: UInt8 in [12, 40] {
                var frame = Self.flat(level)
                _ = Self.lay(page.image, into: &frame, scale: 0.45, degrees: [0, 7, -12][index % 3], centre: Point(x: 640, y: 360))
                tried += 1
                let found = try locator.locate(in: frame)
                #expect(found?.reading.text == page.mrz, "\(page.name) (\(page.documentClass)) on a platen of \(level)")
                if found?.reading.text == page.mrz { read += 1 }
            }
        }
        #expect(tried == 24 && read == tried)
    }

    @Test(.enabled(if: VisionCrops.hasModel, "needs the MRZ model: `make vision-models`"))
    func aPlatenWithoutAnMRZGivesNoReadingWhoseDigitsHold() throws {
        let locator = MRZLocator(reader: MRZReader(model: try #require(VisionCrops.model)))
        for seed in [UInt32(1), 2, 3] {
            let found = try locator.locate(in: Self.platen(seed: seed))
            #expect(found.map { !$0.reading.allCheckDigitsHold } ?? true)
        }
        #expect(try locator.locate(in: LumaImage(width: 1, height: 1, pixels: [0])) == nil)
    }
}
