import Imaging
import Testing
@testable import Vision

/// Pages of print (A4, US Letter) on frames drawn with known corners: found only when the
/// caller looks for pages, classed by shape, level portrait or landscape, cropped upright.
@Suite("Page finder")
struct PageFinderTests {
    let scene = SyntheticScene()

    func finder() throws -> DocumentFinder {
        let finder = try DocumentFinder()
        for seed in 0..<4 { try finder.learnBackground(scene.platen(seed: 200 + UInt64(seed)), weight: seed == 0 ? 1 : 0.3) }
        return finder
    }

    @Test("an A4 page lying portrait is an A4 page among pages, and a passport page among ID documents")
    func a4Portrait() throws {
        let truth = scene.corners(.init(size: (210, 297), distance: 560))
        let frame = scene.frame(seed: 1, pages: [truth])
        let finder = try finder()
        let page = try #require(try finder.observe(frame, classes: DocumentClass.pages).document)
        #expect(page.documentClass == .a4)
        #expect(page.whole)
        #expect(page.quadrilateral.jaccardIndex(with: truth) > 0.97)
        // The same outline is an ID-3 shape: the journey's part decides what is looked for.
        #expect(try finder.observe(frame).document?.documentClass == .td3)
        // Portrait is level for a page (its long side runs down the frame). (The drawn page's
        // bars are sharp one way only, unlike print: its directional sharpness is not judged.)
        var settings = DocumentGuidance.Settings()
        settings.minimumPageSharpnessBalance = 0
        var guidance = DocumentGuidance(settings: settings)
        for _ in 0..<3 { _ = guidance.observe(try finder.observe(frame, classes: DocumentClass.pages)) }
        #expect(guidance.observe(try finder.observe(frame, classes: DocumentClass.pages)) == .ready)
    }

    @Test("a Letter page lying landscape is a Letter page, and no ID document at all")
    func letterLandscape() throws {
        let truth = scene.corners(.init(size: (279.4, 215.9), distance: 520))
        let frame = scene.frame(seed: 2, pages: [truth])
        let finder = try finder()
        #expect(try finder.observe(frame, classes: DocumentClass.pages).document?.documentClass == .letter)
        #expect(try finder.observe(frame).document == nil)
    }

    @Test("a card is no page")
    func cardIsNoPage() throws {
        let truth = scene.corners(.init(size: DocumentClass.td1.size))
        #expect(try finder().observe(scene.frame(seed: 3, pages: [truth]), classes: DocumentClass.pages).document == nil)
    }

    @Test("a page's crop is upright as it lay: portrait pages portrait, at 7 px/mm")
    func uprightCrop() throws {
        let portrait = scene.corners(.init(size: (210, 297), distance: 560))
        let frame = scene.frame(seed: 4, pages: [portrait])
        let found = try #require(try finder().observe(frame, classes: DocumentClass.pages).document)
        let crop = try DocumentFinder.crop(frame, found.quadrilateral, as: .a4)
        #expect(crop.width == 1470 && crop.height == 2079)
        let landscape = scene.corners(.init(size: (297, 210), distance: 560))
        let lying = try #require(try finder().observe(scene.frame(seed: 5, pages: [landscape]), classes: DocumentClass.pages).document)
        let wide = try DocumentFinder.crop(scene.frame(seed: 5, pages: [landscape]), lying.quadrilateral, as: .a4)
        #expect(wide.width == 2079 && wide.height == 1470)
        // An ID document keeps its crop: long side across, 10 px/mm.
        #expect(DocumentClass.td3.cropSize() == (1250, 880))
    }

    @Test("the upright corners start at the upper short side, whichever way the finder listed them")
    func uprightCorners() {
        // Clockwise, first side long and running down the frame (x 100..300, y 100..383).
        let down = Quadrilateral([Point(x: 300, y: 100), Point(x: 300, y: 383), Point(x: 100, y: 383), Point(x: 100, y: 100)])
        let (turned, width, height) = DocumentFinder.upright(down, .a4, pixelsPerMillimetre: 1)
        #expect((width, height) == (210, 297))
        #expect(turned.corners[0] == Point(x: 100, y: 100))
        #expect(turned.corners[1] == Point(x: 300, y: 100))
        let up = Quadrilateral([Point(x: 100, y: 383), Point(x: 100, y: 100), Point(x: 300, y: 100), Point(x: 300, y: 383)])
        #expect(DocumentFinder.upright(up, .a4, pixelsPerMillimetre: 1).0.corners[0] == Point(x: 100, y: 100))
        // An ID document's corners are kept as found.
        #expect(DocumentFinder.upright(down, .td3, pixelsPerMillimetre: 1).0 == down)
    }

    @Test("pages carry no MRZ")
    func noMRZ() {
        #expect(DocumentClass.a4.mrzShape == nil)
        #expect(!DocumentClass.letter.hasMRZ)
        #expect(DocumentClass.td1.hasMRZ)
        #expect(DocumentClass.a4.mrzZone.width == 0)
    }
}

/// Sharpness by direction: print is sharp every way; a blur along one direction shows as a
/// low balance, a defocus as a low least.
@Suite("Directional sharpness")
struct DirectionalSharpnessTests {
    /// A grid of small dark squares on white, like characters: sharp in every direction.
    static func print(width: Int = 200, height: Int = 200) -> LumaImage {
        var pixels = [UInt8](repeating: 235, count: width * height)
        for y in 0..<height where y % 8 < 3 {
            for x in 0..<width where x % 7 < 3 { pixels[y * width + x] = 30 }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    /// The image averaged over `length` pixels along x (motion), or in both directions (defocus).
    static func blurred(_ image: LumaImage, length: Int, both: Bool) -> LumaImage {
        func pass(_ source: LumaImage, horizontal: Bool) -> LumaImage {
            var out = source.pixels
            for y in 0..<source.height {
                for x in 0..<source.width {
                    var sum = 0, n = 0
                    for k in -(length / 2)...(length / 2) {
                        let (sx, sy) = horizontal ? (x + k, y) : (x, y + k)
                        guard sx >= 0, sy >= 0, sx < source.width, sy < source.height else { continue }
                        sum += Int(source.pixels[sy * source.width + sx])
                        n += 1
                    }
                    out[y * source.width + x] = UInt8(sum / n)
                }
            }
            return LumaImage(width: source.width, height: source.height, pixels: out)
        }
        let once = pass(image, horizontal: true)
        return both ? pass(once, horizontal: false) : once
    }

    @Test("print is sharp every way; motion lowers the balance, defocus the least")
    func directions() {
        let sharp = DirectionalSharpness(Self.print())
        let moved = DirectionalSharpness(Self.blurred(Self.print(), length: 7, both: false))
        let defocused = DirectionalSharpness(Self.blurred(Self.print(), length: 7, both: true))
        let settings = DocumentGuidance.Settings()
        #expect(sharp.balance >= settings.minimumPageSharpnessBalance, "\(sharp)")
        #expect(sharp.least >= settings.minimumPageSharpness, "\(sharp)")
        #expect(moved.balance < settings.minimumPageSharpnessBalance, "\(moved)")
        #expect(defocused.least < sharp.least / 4, "\(defocused) against \(sharp)")
        #expect(DirectionalSharpness(LumaImage(width: 2, height: 2, pixels: [0, 0, 0, 0])) == DirectionalSharpness(least: 0, balance: 0))
    }
}
