@testable import Capture
import Imaging
import KioskTestKit
import MRTD
import ScanFlow
import Testing
import Vision

/// The MRZ found first on the field scenes' train split (scripts/vision-data/field: passports
/// open in their booklets, TD2 and TD1 cards, loose pages, on plain, wood, stone, fabric,
/// printed and photographed surfaces, under stations with lens distortion): each still's key
/// taken as the capture takes one (``MRZConsensus/oneFrame``: every check digit, the confidence
/// floors). No wrong key on any still, the bad input included: a visa on the facing page, two
/// documents, a page of text, an MRZ cut by the frame, a thumb or glare, an empty platen,
/// things that are not documents. The split is the one tuned on; heldout and sealed are
/// measured by `make bench`.
@Suite("Field scenes")
struct FieldScenesTests {
    static let enabled = VisionCrops.hasModel && FieldScenes.has("train")
    static let reason: Comment = "needs the MRZ model and the field scenes: `make vision-models field-data`"

    @Test(.enabled(if: enabled, reason))
    func theLocatorReadsMostKeysOfTheTrainScenesAndNeverAWrongOne() throws {
        let locator = MRZLocator(reader: MRZReader(model: try #require(VisionCrops.model)))
        var readable = 0, right = 0, wrong: [String] = []
        for still in try FieldScenes.stills(in: FieldScenes.folder("train")) {
            let truth = still.truth
            var consensus = MRZConsensus.oneFrame
            consensus.add(try locator.locate(in: still.luma())?.reading)
            let expected = truth.mrz.flatMap { ChipAccessKey(mrzLines: $0) }
            if truth.mrz_readable, expected != nil { readable += 1 }
            guard let key = consensus.keys.first else { continue }
            if key == expected {
                if truth.mrz_readable { right += 1 }
            } else {
                wrong.append(still.name)  // another document's zone, or a misread passing every check
            }
        }
        // 147 of 212 when this test was written, 163 after the reader walked slanted lines
        // (2026-11-29). Then the scenes' TD2 and TD3 zones moved to ICAO's place (Doc 9303 Part
        // 4 Figure 3: lines 6.35 mm apart, 9.40 and 15.75 mm above the bottom edge, not 4.23
        // mm apart and lower, as the generator and the locator had both assumed): 128 of 216,
        // 156 once the locator took such lines for a zone (2026-12-07). The target is 98 %.
        #expect(readable >= 200 && Double(right) >= 0.70 * Double(readable), "\(right) of \(readable) keys right")
        #expect(wrong.isEmpty, "wrong keys on \(wrong)")
    }

    /// An ID document blurred by motion along one direction is not sharp enough to take,
    /// though its sharpness across the motion stays (`holdStill`, not `ready`): the quality
    /// of its region at the true corners, blurred by 0.8 mm or more against not at all.
    @Test(.enabled(if: FieldScenes.has("train"), "needs the field scenes: `make field-data`"))
    func aDocumentBlurredAlongOneDirectionIsNotSharp() throws {
        let settings = DocumentGuidance.Settings()
        var blurred = 0, blurredSharp: [String] = [], still = 0, stillNotSharp: [String] = []
        for scene in try FieldScenes.stills(in: FieldScenes.folder("train")) {
            let truth = scene.truth
            guard truth.case == "normal", let corners = truth.corners, let documentClass = truth.class.flatMap(DocumentClass.init(rawValue:)),
                let motion = truth.motion_blur_mm, truth.defocus_mm == 0
            else { continue }
            let page = Quadrilateral(corners.map { Point(x: $0[0], y: $0[1]) })
            guard page.isInside(width: truth.width, height: truth.height, margin: 0), motion == 0 || motion >= 0.8 else { continue }
            let quality = try DocumentFinder.quality(of: scene.luma(), page, documentClass)
            let sharp = DocumentGuidance.isSharp(quality, page: false, settings: settings)
            if motion == 0 {
                still += 1
                if !sharp { stillNotSharp.append(scene.name) }
            } else {
                blurred += 1
                if sharp { blurredSharp.append(scene.name) }
            }
        }
        #expect(blurred >= 15 && still >= 100, "\(blurred) blurred, \(still) still")
        // 2 of 18 blurred stills measured as sharp when this was written, none of 159 still ones
        // as blurred.
        #expect(Double(blurredSharp.count) <= 0.15 * Double(blurred), "blurred but taken as sharp: \(blurredSharp)")
        #expect(Double(stillNotSharp.count) <= 0.05 * Double(still), "still but taken as blurred: \(stillNotSharp)")
    }
}
