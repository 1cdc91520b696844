import Imaging
import Testing
import Vision

/// The document finder on frames drawn with known corners (Support/SyntheticScene.swift).
@Suite("Document finder")
struct DocumentFinderTests {
    let scene = SyntheticScene()

    func finder(learned: Bool = true) throws -> DocumentFinder {
        let finder = try DocumentFinder()
        if learned {
            for seed in 0..<4 { try finder.learnBackground(scene.platen(seed: 100 + UInt64(seed)), weight: seed == 0 ? 1 : 0.3) }
        }
        return finder
    }

    @Test("a card on the learned platen: its corners, class and pose")
    func card() throws {
        let truth = scene.corners(.init(size: DocumentClass.td1.size))
        let observation = try finder().observe(scene.frame(seed: 1, pages: [truth]))
        let document = try #require(observation.document)
        #expect(document.documentClass == .td1)
        #expect(document.whole)
        #expect(document.quadrilateral.jaccardIndex(with: truth) > 0.98)
        #expect(document.pose.tiltDegrees < 3)
        #expect(document.pose.rotationDegrees.magnitude < 1)
        #expect(observation.others == 0)
        #expect(document.quality != nil)
    }

    @Test("a passport page, rotated and tilted: class, tilt and rotation measured")
    func passportTiltedAndRotated() throws {
        let truth = scene.corners(.init(size: DocumentClass.td3.size, distance: 260, tiltDegrees: 25, rotationDegrees: 18))
        let document = try #require(try finder().observe(scene.frame(seed: 2, pages: [truth])).document)
        #expect(document.documentClass == .td3)
        #expect(document.quadrilateral.jaccardIndex(with: truth) > 0.97)
        #expect((document.pose.tiltDegrees - 25).magnitude < 4, "tilt \(document.pose.tiltDegrees)")
        #expect((document.pose.rotationDegrees - 18).magnitude < 3, "rotation \(document.pose.rotationDegrees)")
    }

    @Test(
        "a card's shadow merged with its blob: the sides come to the card's own edges",
        arguments: [(dx: 30.0, dy: 25.0), (dx: 12.0, dy: 70.0)])
    func shadowMergedWithTheCard(shift: (dx: Double, dy: Double)) throws {
        // The platen learned without the shadow: the card and its shadow are one blob. Shifted
        // by (30, 25) it still has a card's shape (found, its sides then brought in); by
        // (12, 70) it has none (its sides brought in before it is classed).
        let truth = scene.corners(.init(size: DocumentClass.td1.size, rotationDegrees: 4))
        let shadow = Quadrilateral(truth.corners.map { Point(x: $0.x + shift.dx, y: $0.y + shift.dy) })
        var frame = scene.platen(seed: 21)
        scene.fill(&frame, shadow, luma: 40)
        scene.fill(&frame, truth, luma: nil)
        let document = try #require(try finder().observe(frame).document)
        #expect(document.documentClass == .td1)
        #expect(document.quadrilateral.jaccardIndex(with: truth) > 0.95, "Jaccard \(document.quadrilateral.jaccardIndex(with: truth))")
        let union = Quadrilateral([truth.corners[0], shadow.corners[1], shadow.corners[2], shadow.corners[3]])
        #expect(union.jaccardIndex(with: truth) < 0.9, "the blob itself is not the card")
    }

    @Test("a card cut by the frame's edge is not whole")
    func cutByEdge() throws {
        let truth = scene.corners(.init(size: DocumentClass.td1.size, distance: 140, offset: (40, 0)))
        let document = try #require(try finder().observe(scene.frame(seed: 3, pages: [truth])).document)
        #expect(!document.whole)
        #expect(document.quality == nil)
    }

    @Test("a light page half out of the frame is cut off (tooClose), a dark slab half out is not")
    func cutOffPageAndSlab() throws {
        let half = scene.corners(.init(size: DocumentClass.td3.size, distance: 220, offset: (110, 0)))
        let page = try finder().observe(scene.frame(seed: 13, pages: [half]))
        #expect(page.document == nil)
        #expect(page.cutOff)
        var guidance = DocumentGuidance()
        #expect(guidance.observe(page) == .tooClose)
        let slab = try finder().observe(scene.frame(seed: 14, pages: [half], luma: 20))
        #expect(slab.document == nil)
        #expect(!slab.cutOff)
        #expect(guidance.observe(slab) == .centerId)
        #expect(try !finder().observe(scene.platen(seed: 15)).cutOff)
    }

    @Test("a card held by a hand whose finger crosses one side, the palm beyond it: the card's corners from its sides' lines")
    func cardHeldAcrossOneSide() throws {
        // The hand is one blob with the card: a palm to the right, a finger across the card's
        // right side (the side's outline comes in two runs on one line, above and below it).
        let card = scene.corners(.init(size: DocumentClass.td1.size, distance: 230, rotationDegrees: 3))
        let c = card.corners
        let right = Point(x: (c[1].x + c[2].x) / 2, y: (c[1].y + c[2].y) / 2)
        let finger = Quadrilateral([
            Point(x: right.x - 60, y: right.y - 22), Point(x: right.x + 120, y: right.y - 22),
            Point(x: right.x + 120, y: right.y + 22), Point(x: right.x - 60, y: right.y + 22),
        ])
        var frame = scene.frame(seed: 23, pages: [card])
        // The palm: a disc (a hand has no straight sides).
        let (cx, cy, radius) = (right.x + 230, right.y + 10, 160.0)
        for y in max(0, Int(cy - radius))..<min(scene.height, Int(cy + radius)) {
            for x in max(0, Int(cx - radius))..<min(scene.width, Int(cx + radius)) where (Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy) <= radius * radius {
                frame.pixels[y * scene.width + x] = 165
            }
        }
        scene.fill(&frame, finger, luma: 165)
        let document = try #require(try finder().observe(frame).document)
        #expect(document.documentClass == .td1)
        #expect(document.quadrilateral.jaccardIndex(with: card) > 0.95, "Jaccard \(document.quadrilateral.jaccardIndex(with: card))")
    }

    @Test("a plain page over most of the frame, cut by its edge, is cut off: lighter than the platen around it, though not than the frame's median")
    func largePageCutOff() throws {
        let large = scene.corners(.init(size: DocumentClass.td3.size, distance: 150, offset: (35, 0)))
        let frame = scene.frame(seed: 16, pages: [large], luma: 170)
        let visible = Double(frame.pixels.filter { $0 >= 150 }.count) / Double(frame.pixels.count)  // the page's pixels (the platen is about 80)
        #expect(visible > 0.55, "the page covers \(visible) of the frame")
        let observation = try finder().observe(frame)
        #expect(observation.document == nil)
        #expect(observation.cutOff)
    }

    @Test("a card six hundredths of the frame, cut by its edge, is cut off")
    func smallCardCutOff() throws {
        // A TD1 card 250 mm away, two fifths of it beyond the frame's right edge.
        let card = scene.corners(.init(size: DocumentClass.td1.size, distance: 250, offset: (135, 0)))
        let frame = scene.frame(seed: 17, pages: [card])
        let visible = Double(frame.pixels.filter { $0 >= 110 }.count) / Double(frame.pixels.count)  // the card's pixels (the platen is about 80)
        #expect((0.04...0.08).contains(visible), "the card covers \(visible) of the frame")
        let observation = try finder().observe(frame)
        #expect(observation.document == nil)
        #expect(observation.cutOff)
    }

    @Test("the empty platen, a phone-shaped slab and a blob are no document")
    func notDocuments() throws {
        let finder = try finder()
        #expect(try finder.observe(scene.platen(seed: 9)).document == nil)
        let phone = scene.corners(.init(size: (150, 71)))
        #expect(try finder.observe(scene.frame(seed: 4, pages: [phone], luma: 20)).document == nil)
        // A hand-like blob: a palm with four fingers (no straight sides, far from filling its outline).
        var hand = scene.platen(seed: 5)
        for (cx, cy, rx, ry) in [(640.0, 500.0, 110.0, 130.0), (560, 300, 22, 110), (620, 270, 22, 130), (680, 280, 22, 120), (740, 320, 22, 95)] {
            for y in 0..<scene.height {
                for x in 0..<scene.width where ((Double(x) - cx) / rx) * ((Double(x) - cx) / rx) + ((Double(y) - cy) / ry) * ((Double(y) - cy) / ry) <= 1 {
                    hand.pixels[y * scene.width + x] = 170
                }
            }
        }
        #expect(try finder.observe(hand).document == nil)
    }

    @Test("two documents: the larger is the document, the other is counted")
    func twoDocuments() throws {
        let large = scene.corners(.init(size: DocumentClass.td3.size, distance: 300, offset: (-60, 0)))
        let small = scene.corners(.init(size: DocumentClass.td1.size, distance: 300, offset: (85, 0)))
        let observation = try finder().observe(scene.frame(seed: 6, pages: [large, small]))
        #expect(observation.document?.documentClass == .td3)
        #expect(observation.others == 1)
    }

    @Test("without a learned background, a bright page is found by its edges")
    func edgesWithoutBackground() throws {
        let truth = scene.corners(.init(size: DocumentClass.td1.size))
        let finder = try finder(learned: false)
        #expect(finder.backgroundFrames == 0)
        let document = try #require(try finder.observe(scene.frame(seed: 7, pages: [truth])).document)
        #expect(document.quadrilateral.jaccardIndex(with: truth) > 0.95)
    }

    @Test("without a background: a page cut by the frame's edge is not whole, a cable from a whole page to the edge does not cut it")
    func edgesCutAndWhole() throws {
        let cut = scene.corners(.init(size: DocumentClass.td1.size, distance: 140, offset: (40, 0)))
        // (Cut, its outline may no longer have an ICAO size's shape: found or not, not whole.)
        #expect(try finder(learned: false).observe(scene.frame(seed: 11, pages: [cut])).document?.whole != true)
        // A dark cable lying from the page's right side to the frame's right border.
        let page = scene.corners(.init(size: DocumentClass.td1.size))
        var frame = scene.frame(seed: 12, pages: [page])
        let right = max(page.corners[1].x, page.corners[2].x) - 2
        let cable = Quadrilateral([
            Point(x: right, y: 350), Point(x: Double(scene.width), y: 330), Point(x: Double(scene.width), y: 342), Point(x: right, y: 362),
        ])
        scene.fill(&frame, cable, luma: 20)
        let document = try #require(try finder(learned: false).observe(frame).document)
        #expect(document.whole)
        #expect(document.quadrilateral.jaccardIndex(with: page) > 0.95)
    }

    @Test("a frame of another size than the background is analysed by edges, not refused")
    func otherSize() throws {
        let finder = try finder()
        var small = SyntheticScene()
        small.width = 640
        small.height = 360
        let truth = small.corners(.init(size: DocumentClass.td1.size))
        #expect(try finder.observe(small.frame(seed: 8, pages: [truth])).document != nil)
    }

    @Test("learning: still empty frames start the background, a document never joins it, a still object left behind does")
    func learning() throws {
        var settings = DocumentFinder.Settings()
        settings.relearnFrames = 5
        let finder = try DocumentFinder(settings: settings)
        for seed in 1...UInt64(settings.startFrames) {
            #expect(finder.backgroundFrames == 0)
            _ = try finder.observe(scene.platen(seed: seed), learning: true)
        }
        #expect(finder.backgroundFrames == 1)
        _ = try finder.observe(scene.platen(seed: 9), learning: true)
        #expect(finder.backgroundFrames == 2)
        // A document held still for many frames is found every time and taught nothing.
        let card = scene.frame(seed: 3, pages: [scene.corners(.init(size: DocumentClass.td1.size))])
        for _ in 0..<8 { #expect(try finder.observe(card, learning: true).document != nil) }
        #expect(finder.backgroundFrames == 2)
        // A phone-shaped slab left on the platen becomes the background once it has stayed still.
        let slab = scene.corners(.init(size: (150, 71), offset: (-80, 0)))
        let phone = scene.frame(seed: 4, pages: [slab], luma: 20)
        // (The first of these frames moved from the one before; the next five are still.)
        for _ in 0..<6 { #expect(try finder.observe(phone, learning: true).document == nil) }
        #expect(finder.backgroundFrames == 1)
        // A card placed beside it is then found against the new background.
        var withSlab = scene.frame(seed: 5, pages: [slab], luma: 20)
        scene.fill(&withSlab, scene.corners(.init(size: DocumentClass.td1.size, distance: 300, offset: (80, 0))), luma: nil)
        #expect(try finder.observe(withSlab).document?.documentClass == .td1)
    }

    @Test("learning: a page sliding in, cut by the frame's edge, never becomes the background")
    func slidingPageIsNotLearned() throws {
        let finder = try DocumentFinder()
        // The page comes in from the right, cut by the edge: no document is found, and every
        // frame moved from the one before.
        for (k, offset) in stride(from: 190.0, through: 100.0, by: -10).enumerated() {
            let page = scene.corners(.init(size: DocumentClass.td3.size, distance: 260, offset: (offset, 10)))
            let observation = try finder.observe(scene.frame(seed: 20 + UInt64(k), pages: [page]), learning: true)
            #expect(observation.document?.whole != true)
            #expect(finder.backgroundFrames == 0, "frame \(k)")
        }
        // Once the page is gone (that frame moved) and the platen stays still, it is learned,
        // and a page placed then is found against it.
        for seed in 40...(40 + UInt64(finder.settings.startFrames)) { _ = try finder.observe(scene.platen(seed: seed), learning: true) }
        #expect(finder.backgroundFrames == 1)
        let truth = scene.corners(.init(size: DocumentClass.td3.size, distance: 260))
        #expect(try finder.observe(scene.frame(seed: 50, pages: [truth])).document?.documentClass == .td3)
    }

    @Test("learning: a page the background holds is a ghost once taken away, never a document, and the platen is learned again soon")
    func ghost() throws {
        let finder = try DocumentFinder()
        let page = scene.corners(.init(size: DocumentClass.td1.size))
        try finder.learnBackground(scene.frame(seed: 60, pages: [page]), weight: 1)
        for seed in 61...(61 + UInt64(finder.settings.startFrames)) {
            #expect(try finder.observe(scene.platen(seed: seed), learning: true).document == nil)
        }
        // Learned again from the empty platen: a card placed where the page was is found.
        #expect(finder.backgroundFrames == 1)
        #expect(try finder.observe(scene.frame(seed: 70, pages: [page])).document?.documentClass == .td1)
    }

    @Test("learning: an odd frame of another size mid-stream leaves the background alone")
    func oddSizeFrameIsNotLearned() throws {
        let finder = try finder()
        var small = SyntheticScene()
        small.width = 640
        small.height = 360
        for seed: UInt64 in 80..<82 { _ = try finder.observe(small.platen(seed: seed), learning: true) }
        // The background is still the 1280x720 platen's: a card on it is found by difference.
        let truth = scene.corners(.init(size: DocumentClass.td1.size))
        let document = try #require(try finder.observe(scene.frame(seed: 83, pages: [truth]), learning: true).document)
        #expect(document.quadrilateral.jaccardIndex(with: truth) > 0.98)
        #expect(finder.backgroundFrames == 4)
    }

    @Test("an empty image and a bad weight are typed errors")
    func errors() throws {
        let finder = try finder(learned: false)
        #expect(throws: VisionError.self) { try finder.observe(LumaImage()) }
        #expect(throws: VisionError.self) { try finder.learnBackground(LumaImage()) }
        #expect(throws: VisionError.self) { try finder.learnBackground(scene.platen(seed: 1), weight: 0) }
        #expect(throws: VisionError.self) { try DocumentFinder(settings: { var s = DocumentFinder.Settings(); s.workingWidth = 10; return s }()) }
    }

    @Test("a black, a white and a noise frame give no document and no error")
    func degenerateFrames() throws {
        let finder = try finder()
        for value: UInt8 in [0, 255] {
            #expect(try finder.observe(LumaImage(width: 1280, height: 720, pixels: .init(repeating: value, count: 1280 * 720))).document == nil)
        }
        var random: UInt64 = 7
        let noise = LumaImage(width: 1280, height: 720, pixels: (0..<(1280 * 720)).map { _ in
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: random >> 56)
        })
        _ = try finder.observe(noise)
        _ = try finder.observe(LumaImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6]))
    }

    @Test("the crop has the class's size at 10 px/mm and shows the page, corner to corner")
    func crop() throws {
        let truth = scene.corners(.init(size: DocumentClass.td1.size, tiltDegrees: 10, rotationDegrees: 8))
        let frame = scene.frame(seed: 1, pages: [truth])
        let crop = try DocumentFinder.crop(frame, truth, as: .td1)
        #expect(crop.width == 856 && crop.height == 540)
        // The page is bright or its bars; the platen (80 +- 12) shows nowhere inside.
        let inside = (20..<520).flatMap { y in (20..<836).map { x in crop[x, y] } }
        #expect(inside.filter { $0 < 110 }.count == 0)
    }
}
