@testable import Capture
import ScanFlow
import Testing
import Vision
import Imaging

/// The per-frame decisions of the document and face captures, fed frames and what was
/// measured of them (a document observation, a face's luma) with the time, tested by the
/// actions they return.
@Suite struct DocumentCaptureTests {
    static let gate = QualityGate.Settings(brightness: 50...220, minimumSharpness: 100, stableFrames: 3)
    static let documentGate = DocumentGate.Settings(guidance: DocumentGuidance.Settings(), readyFrames: 3)
    static let sharp = FrameMeasure(meanLuma: 128, sharpness: 900)
    static let dark = FrameMeasure(meanLuma: 10, sharpness: 900)
    static let mrz = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    /// ICAO Doc 9303 Part 5's TD1 specimen.
    static let td1 = ["I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]
    static let period = Duration.milliseconds(100)
    static let page = Quadrilateral([Point(x: 300, y: 150), Point(x: 980, y: 150), Point(x: 980, y: 580), Point(x: 300, y: 580)])

    /// A passport page as `Vision` would report it: placed well unless told otherwise.
    static func seen(
        whole: Bool = true, tilt: Double = 3, sharpness: Double = 400, at quadrilateral: Quadrilateral = page,
        documentClass: DocumentClass = .td3
    ) -> DocumentObservation {
        var pose = DocumentPose(quadrilateral, width: 1280, height: 720, focalLength: 1100)!
        pose.tiltDegrees = tilt
        return DocumentObservation(
            width: 1280, height: 720,
            document: .init(
                quadrilateral: quadrilateral, documentClass: documentClass, whole: whole, areaFraction: 0.32, centreOffset: 0.01, pose: pose,
                quality: DocumentQuality(sharpness: sharpness, glare: 0, glareOverMRZ: 0, glareOverPhoto: 0)))
    }

    static let ready = frame(seen())
    static let blurred = frame(seen(sharpness: 5))
    static let nothing = DocumentFrame(observation: DocumentObservation(width: 1280, height: 720, document: nil))

    /// A frame measured as `observation`, with the MRZ read as `mrz` (looked for when given)
    /// and the document's thumbnail.
    static func frame(_ observation: DocumentObservation, mrz: [String]? = nil, thumbnail: UInt8 = 100) -> DocumentFrame {
        var frame = DocumentFrame(observation: observation)
        frame.thumbnail = observation.document == nil ? nil : [UInt8](repeating: thumbnail, count: 48 * 34)
        if let mrz {
            frame.mrzLookedFor = true
            frame.mrz = MRZConsensusTests.reading(mrz)
        }
        return frame
    }

    static let readingMRZ = frame(seen(), mrz: mrz)
    static let card = frame(seen(documentClass: .td1))
    static let cardBack = frame(seen(documentClass: .td1), mrz: td1)

    func document(_ mode: Scan.Mode = .docFinder, part: Credential.Part = .multipart, useFlash: Bool = true) -> DocumentCapture {
        DocumentCapture(
            request: CaptureRequest(mode: mode, part: part, trigger: CaptureTrigger(), useFlash: useFlash), gate: Self.documentGate,
            sidePause: .milliseconds(1500))
    }

    /// Feeds frames `period` apart from `start`, each measured as `measure`, until one is
    /// taken; returns the shot and when, or nil after `limit` frames.
    func firstShot<Decisions: FrameDecisions>(
        _ capture: inout Decisions, from start: Duration, measure: Decisions.Measure, limit: Int = 100
    ) -> (shot: Shot, at: Duration, actions: [FrameAction])? {
        var actions: [FrameAction] = []
        for n in 0..<limit {
            let now = start + Self.period * n
            var action = capture.frame(at: now, shutter: false, detectionPaused: false)
            if action == .measure { action = capture.measured(measure) }
            actions.append(action)
            if case .take(let shot) = action { return (shot, now, actions) }
        }
        return nil
    }

    /// A paper document: page after page, each without an MRZ to wait for, no flash pair,
    /// as pages (the finder is asked for pages, the shot does not end the side); the same page
    /// left lying is not taken again, the next one is once the first was lifted or another shows.
    @Test func aPaperDocumentsPagesAreTakenOneAfterTheOther() throws {
        var capture = document(part: .document)
        #expect(capture.classes == DocumentClass.pages)
        #expect(!capture.endsSide)
        let page1 = Self.frame(Self.seen(documentClass: .a4), thumbnail: 60)
        let first = try #require(firstShot(&capture, from: .zero, measure: page1))
        #expect(first.shot.side == .document)
        #expect(!first.shot.flashPair)
        #expect(first.shot.chipAccessKeys.isEmpty)
        #expect(first.shot.document?.expectsMRZ == false)
        #expect(first.shot.document?.classes == DocumentClass.pages)
        capture.taken(at: first.at)
        // The same page lies on: never taken again.
        #expect(firstShot(&capture, from: first.at + .seconds(2), measure: page1, limit: 60) == nil)
        // Another page shows (its picture differs): taken.
        let page2 = Self.frame(Self.seen(documentClass: .a4), thumbnail: 160)
        let second = try #require(firstShot(&capture, from: first.at + .seconds(9), measure: page2))
        capture.taken(at: second.at)
        // Page 2 is lifted (an empty platen), then laid again: a page after a lift is taken
        // even when it looks like the last (two pages of one bill may).
        #expect(firstShot(&capture, from: second.at + .seconds(2), measure: Self.nothing, limit: 5) == nil)
        #expect(firstShot(&capture, from: second.at + .seconds(3), measure: page2) != nil)
    }

    /// A passport page (TD3 shape) carries its MRZ: it is taken once two frames agreed on
    /// it, with the key and the lines, and with the flash pair of the front.
    @Test func aPassportPageIsTakenWithTheKeyTwoFramesAgreedOn() throws {
        var capture = document(part: .front)
        let front = try #require(firstShot(&capture, from: .zero, measure: Self.readingMRZ))
        #expect(front.shot.side == .front)
        #expect(front.shot.region == DocumentRegion(quadrilateral: Self.page, documentClass: .td3))
        #expect(front.shot.chipAccessKeys == [.mrz(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415")])
        #expect(front.shot.mrz == Self.mrz)
        #expect(front.shot.flashPair)
        #expect(!front.shot.byShutter)
        // Still over three frames (the guidance), then ready for three in a row (the gate):
        // "hold still" said once, and the fifth frame taken.
        #expect(front.actions == [.report(.extractionState(.holdStill)), .ignore, .ignore, .ignore, front.actions[4]])
    }

    /// Without an MRZ read, the page waits for one until the MRZ timeout (4 s after the
    /// first ready frame), then is taken without a key: the station asks the person next.
    @Test func aPassportPageWithoutAReadableMRZIsTakenWithoutAKeyAfterTheTimeout() throws {
        var capture = document(part: .front)
        let front = try #require(firstShot(&capture, from: .zero, measure: Self.ready))
        #expect(front.shot.chipAccessKeys.isEmpty)
        #expect(front.shot.mrz == nil)
        // The first ready frame was the third (t = 0.2 s): 4 s later.
        #expect(front.at == .milliseconds(4200))
        // One read alone is no agreement: the same.
        var once = document(part: .front)
        #expect(once.frame(at: .zero, shutter: false, detectionPaused: false) == .measure)
        _ = once.measured(Self.readingMRZ)
        let later = try #require(firstShot(&once, from: Self.period, measure: Self.ready))
        #expect(later.shot.chipAccessKeys.isEmpty)
    }

    /// A card: the front (ID-1, no MRZ) is taken when ready; the back only once the card
    /// was turned (here its MRZ is seen), with the key from the back's MRZ.
    @Test func aCardsFrontIsTakenWhenReadyAndItsBackOnceTurnedWithTheKey() throws {
        var capture = document()
        let card = Self.frame(Self.seen(documentClass: .td1))
        let front = try #require(firstShot(&capture, from: .zero, measure: card))
        #expect(front.shot.side == .front)
        #expect(front.shot.chipAccessKeys.isEmpty)
        #expect(front.at == Self.period * 4)
        capture.taken(at: front.at)
        // The front shown again after the pause: never taken as the back.
        let pauseOver = front.at + .milliseconds(1500)
        #expect(firstShot(&capture, from: pauseOver, measure: card, limit: 30) == nil)
        // Turned: the back shows its MRZ.
        let back = try #require(firstShot(&capture, from: pauseOver + .seconds(3), measure: Self.frame(Self.seen(documentClass: .td1), mrz: Self.td1)))
        #expect(back.shot.side == .back)
        #expect(back.shot.chipAccessKeys == [.mrz(documentNumber: "D23145890", dateOfBirth: "740812", dateOfExpiry: "120415")])
        #expect(back.shot.mrz == Self.td1)
        #expect(!back.shot.flashPair)
    }

    /// A card back without a readable MRZ counts as turned when it looks unlike the front.
    @Test func aCardBackThatLooksUnlikeTheFrontCountsAsTurned() throws {
        var capture = document(useFlash: false)
        let front = try #require(firstShot(&capture, from: .zero, measure: Self.frame(Self.seen(documentClass: .td1), thumbnail: 100)))
        capture.taken(at: front.at)
        let back = try #require(firstShot(&capture, from: front.at + .seconds(2), measure: Self.frame(Self.seen(documentClass: .td1), thumbnail: 180)))
        #expect(back.shot.side == .back)
        #expect(back.shot.chipAccessKeys.isEmpty)
    }

    @Test func betweenTheSidesFramesAreIgnoredUntilThePauseIsOver() throws {
        var capture = document()
        let front = try #require(firstShot(&capture, from: .zero, measure: Self.card))
        let takenAt = front.at + .milliseconds(250)  // encoding and the flash pair took a while
        capture.taken(at: takenAt)
        for offset in stride(from: 0, to: 1500, by: 100) {
            #expect(capture.frame(at: takenAt + .milliseconds(offset), shutter: false, detectionPaused: false) == .ignore)
        }
        // A shutter press during the pause waits too.
        #expect(capture.frame(at: takenAt + .milliseconds(1499), shutter: true, detectionPaused: false) == .ignore)
        #expect(capture.frame(at: takenAt + .milliseconds(1500), shutter: false, detectionPaused: false) == .measure)
        // The gate starts again: three ready frames for the back (and its MRZ, read from the first).
        let back = try #require(firstShot(&capture, from: takenAt + .milliseconds(1600), measure: Self.cardBack))
        #expect(back.at == takenAt + .milliseconds(1500) + Self.period * 5)
    }

    @Test func aBlurredCutOrTiltedPageIsGuidedNotTaken() {
        var capture = document()
        #expect(firstShot(&capture, from: .zero, measure: Self.blurred, limit: 20) == nil)
        #expect(capture.frame(at: .seconds(3), shutter: false, detectionPaused: false) == .measure)
        #expect(capture.measured(Self.nothing) == .report(.extractionState(.centerId)))
        #expect(capture.frame(at: .seconds(4), shutter: false, detectionPaused: false) == .measure)
        #expect(capture.measured(Self.nothing) == .ignore)  // said once, not at every frame
        #expect(capture.frame(at: .seconds(5), shutter: false, detectionPaused: false) == .measure)
        #expect(capture.measured(Self.frame(Self.seen(whole: false))) == .report(.extractionState(.tooClose)))
        #expect(capture.frame(at: .seconds(6), shutter: false, detectionPaused: false) == .measure)
        #expect(capture.measured(Self.frame(Self.seen(tilt: 24))) == .report(.extractionState(.tilt(current: 24, target: 15))))
        // Ready frames must come in a row: two, then a moved page starts the count again (and
        // it must be still over three frames before it counts).
        let moved = Quadrilateral(Self.page.corners.map { Point(x: $0.x + 40, y: $0.y) })
        var actions: [FrameAction] = []
        let movedPage = Self.frame(Self.seen(at: moved), mrz: Self.mrz)
        for (n, observation) in [Self.readingMRZ, Self.readingMRZ, movedPage, movedPage, movedPage].enumerated() {
            _ = capture.frame(at: .seconds(7) + Self.period * n, shutter: false, detectionPaused: false)
            actions.append(capture.measured(observation))
        }
        #expect(!actions.contains { if case .take = $0 { true } else { false } })
        _ = capture.frame(at: .seconds(8), shutter: false, detectionPaused: false)
        #expect(capture.measured(movedPage) == .ignore)
        _ = capture.frame(at: .seconds(9), shutter: false, detectionPaused: false)
        guard case .take(let shot) = capture.measured(movedPage) else {
            Issue.record("the third ready frame in a row is taken")
            return
        }
        #expect(shot.region?.quadrilateral == moved)
    }

    @Test func theManualModesWaitForTheShutterAndPausedDetectionStillTakesIt() {
        var capture = document(.manual, part: .front, useFlash: false)
        #expect(capture.frame(at: .zero, shutter: false, detectionPaused: false) == .ignore)
        #expect(capture.frame(at: Self.period, shutter: true, detectionPaused: false) == .take(Shot(side: .front, byShutter: true, document: DocumentShot(expectsMRZ: nil))))
        capture.taken(at: Self.period)
        var automatic = document(part: .front, useFlash: false)
        #expect(automatic.frame(at: .zero, shutter: false, detectionPaused: true) == .ignore)
        #expect(automatic.frame(at: Self.period, shutter: true, detectionPaused: true) == .take(Shot(side: .front, byShutter: true, document: DocumentShot(expectsMRZ: nil))))
    }

    @Test func aFrameThatCouldNotBeTakenIsFollowedAtOnce() throws {
        var capture = document(part: .front)
        let front = try #require(firstShot(&capture, from: .zero, measure: Self.readingMRZ))
        capture.notTaken()
        // No pause, and the gate still counts the ready frames: the next ready frame is taken.
        #expect(capture.frame(at: front.at + Self.period, shutter: false, detectionPaused: false) == .measure)
        guard case .take(let again) = capture.measured(Self.readingMRZ) else {
            Issue.record("expected the next good frame to be taken")
            return
        }
        #expect(again.side == .front)
        #expect(again.mrz == Self.mrz)  // the MRZ read before is still there
    }

    @Test func aFaceIsGuidedToTheCentreAndTakenWithoutKeyOrFlash() throws {
        var face = FaceCapture(
            request: CaptureRequest(mode: .faceLiveness, part: .face, trigger: CaptureTrigger(), useFlash: true), gate: Self.gate,
            pause: .milliseconds(1500))
        #expect(face.frame(at: .zero, shutter: false, detectionPaused: false) == .measure)
        #expect(face.measured(Self.dark) == .report(.extractionState(.centerFace)))
        let shot = try #require(firstShot(&face, from: Self.period, measure: Self.sharp))
        #expect(shot.shot == Shot(side: .face))
        face.taken(at: shot.at)
        #expect(face.frame(at: shot.at + .milliseconds(1400), shutter: false, detectionPaused: false) == .ignore)
        #expect(face.frame(at: shot.at + .milliseconds(1500), shutter: false, detectionPaused: false) == .measure)
    }

    /// The lit half of a flash pair is kept only if the document still lies where the
    /// no-flash image found it: not if it was lifted, not if it moved.
    @Test func theLitImageMustShowTheDocumentWhereItWas() throws {
        let (width, height) = (640, 360)
        func frame(pageAt x: Int?) -> Frame {
            var pixels = [UInt8](repeating: 40, count: width * height)
            if let x {
                // A TD3-shaped page, 300 x 211.
                for row in 70..<281 { for column in x..<(x + 300) { pixels[row * width + column] = 220 } }
            }
            return Frame(format: .grey, width: width, height: height, bytes: pixels)
        }
        let finder = try DocumentFinder()
        var processor = FrameProcessor(jpegQuality: 90, previewWidth: 320)
        _ = try processor.observeDocument(frame(pageAt: nil), finder: finder)  // learns the empty platen
        let seen = try #require(try processor.observeDocument(frame(pageAt: 170), finder: finder).document)
        let region = DocumentRegion(quadrilateral: seen.quadrilateral, documentClass: seen.documentClass)
        func stillThere(_ lit: Frame) -> Bool {
            CameraCapture.stillThere(region, in: lit, finder: finder, maximumCornerMotion: 0.015, processor: &processor)
        }
        #expect(stillThere(frame(pageAt: 170)))
        #expect(stillThere(frame(pageAt: 172)))
        #expect(!stillThere(frame(pageAt: 230)))
        #expect(!stillThere(frame(pageAt: nil)))
        // Without a region (a manual capture) there is nothing to compare.
        #expect(CameraCapture.stillThere(nil, in: frame(pageAt: nil), finder: finder, maximumCornerMotion: 0.015, processor: &processor))
    }
}

/// The preview shows where the station sees the document: its outline, green once placed
/// well, amber while guided; nothing when no document is found; never on the image taken.
@Suite struct PreviewOverlayTests {
    static func frame(pageAt x: Int?, width: Int = 640, pageWidth: Int = 300) -> Frame {
        let height = 360
        var pixels = [UInt8](repeating: 40, count: width * height)
        if let x {
            for row in 70..<(70 + pageWidth * 211 / 300) { for column in x..<(x + pageWidth) { pixels[row * width + column] = 220 } }
        }
        return Frame(format: .grey, width: width, height: height, bytes: pixels)
    }

    static func pixel(_ jpeg: [UInt8], _ x: Int, _ y: Int) throws -> (r: UInt8, g: UInt8, b: UInt8) {
        var image = RGBImage()
        try JPEGCodec().decodeRGB(jpeg, into: &image)
        return image[x, y]
    }

    @Test func theOutlineIsDrawnOnThePreviewOnly() throws {
        let finder = try DocumentFinder()
        var processor = FrameProcessor(jpegQuality: 90, previewWidth: 320)
        let analyzer = DocumentAnalyzer(finder: finder, reader: nil, guidance: DocumentGuidance.Settings())
        func measure(_ frame: Frame) throws { _ = try processor.measureDocument(frame, analyzer: analyzer) { _ in false } }
        try measure(Self.frame(pageAt: nil))  // learns the platen
        #expect(processor.overlay == nil)
        // A page placed well: green on its left edge (x 170 in the frame, 85 in the half-size preview).
        let placed = Self.frame(pageAt: 170)
        try measure(placed)
        let green = try Self.pixel(processor.previewJPEG(placed), 85, 140)
        #expect(green.g > 150 && green.r < 110, "\(green)")
        // Too small: amber.
        let small = Self.frame(pageAt: 170, pageWidth: 150)
        try measure(small)
        let amber = try Self.pixel(processor.previewJPEG(small), 85, 60)
        #expect(amber.r > 200 && amber.g > 120 && amber.b < 110, "\(amber)")
        // The image taken has no outline: the platen there is its own grey.
        let taken = try Self.pixel(processor.encode(placed), 170, 140)
        #expect(abs(Int(taken.r) - Int(taken.g)) < 12, "\(taken)")
        // Gone: no outline.
        try measure(Self.frame(pageAt: nil))
        #expect(processor.overlay == nil)
    }
}

/// The station's Instant Feedback on a document image, in the seeds' reject reasons.
@Suite struct DocumentUsabilityTests {
    static let page = Quadrilateral([Point(x: 300, y: 150), Point(x: 980, y: 150), Point(x: 980, y: 580), Point(x: 300, y: 580)])

    static func seen(whole: Bool) -> DocumentObservation {
        DocumentObservation(
            width: 1280, height: 720,
            document: .init(
                quadrilateral: page, documentClass: .td3, whole: whole, areaFraction: 0.3, centreOffset: 0,
                pose: DocumentPose(page, width: 1280, height: 720, focalLength: 1100)!, quality: nil))
    }

    static func quality(sharpness: Double = 400, mrz: Double = 0, photo: Double = 0) -> DocumentQuality {
        DocumentQuality(sharpness: sharpness, glare: max(mrz, photo), glareOverMRZ: mrz, glareOverPhoto: photo)
    }

    func reason(
        _ observation: DocumentObservation? = nil, _ quality: DocumentQuality? = quality(), expectsMRZ: Bool = true, mrzSeen: Bool = true
    ) -> RejectReason? {
        DocumentUsability.rejectReason(observation: observation, quality: quality, expectsMRZ: expectsMRZ, mrzSeen: mrzSeen, sharpness: .init())
    }

    /// A page of print is judged by its sharpness in every direction, not by its Laplacian:
    /// a sparse page in dim light is sharp with a low one; a page that moved is blurred
    /// along one direction only.
    @Test func aPageIsJudgedByItsSharpnessInEveryDirection() {
        func page(laplacian: Double, least: Double, balance: Double) -> RejectReason? {
            let quality = DocumentQuality(
                sharpness: laplacian, glare: 0, glareOverMRZ: 0, glareOverPhoto: 0, directional: DirectionalSharpness(least: least, balance: balance))
            return DocumentUsability.rejectReason(observation: nil, quality: quality, expectsMRZ: false, mrzSeen: false, sharpness: .init(), page: true)
        }
        #expect(page(laplacian: 35, least: 7, balance: 0.45) == nil)
        #expect(page(laplacian: 150, least: 12, balance: 0.15) == .blurry)
        #expect(page(laplacian: 4, least: 1, balance: 0.4) == .blurry)
    }

    @Test func eachProblemHasItsReasonAndAGoodImageNone() {
        #expect(reason() == nil)
        #expect(reason(DocumentObservation(width: 1280, height: 720, document: nil), nil) == .noDocument)
        #expect(reason(Self.seen(whole: false), nil) == .missingPartDocument)
        #expect(reason(Self.seen(whole: true)) == nil)
        #expect(reason(nil, Self.quality(sharpness: 20)) == .blurry)
        #expect(reason(nil, Self.quality(mrz: 0.3)) == .glare)
        #expect(reason(nil, Self.quality(photo: 0.15)) == .glare)
        #expect(reason(nil, Self.quality(photo: 0.05)) == nil)
        #expect(reason(mrzSeen: false) == .notReadable)
        #expect(reason(expectsMRZ: false, mrzSeen: false) == nil)
    }
}

/// The image of the front, from a flash pair: the half whose glare leaves the MRZ and photo clear.
@Suite struct FlashPairChoiceTests {
    static func quality(mrz: Double, photo: Double) -> DocumentQuality {
        DocumentQuality(sharpness: 500, glare: max(mrz, photo), glareOverMRZ: mrz, glareOverPhoto: photo)
    }

    @Test func theUnlitImageStaysUnlessGlareCoversItsMRZOrPhotoAndNotTheLitOnes() {
        let clear = Self.quality(mrz: 0, photo: 0.01)
        #expect(!FlashPairChoice.prefersLit(unlit: clear, lit: clear))
        #expect(!FlashPairChoice.prefersLit(unlit: clear, lit: Self.quality(mrz: 0.3, photo: 0)))
        #expect(FlashPairChoice.prefersLit(unlit: Self.quality(mrz: 0.2, photo: 0), lit: clear))
        #expect(FlashPairChoice.prefersLit(unlit: Self.quality(mrz: 0, photo: 0.1), lit: clear))
        // Both covered: the unlit one stays.
        #expect(!FlashPairChoice.prefersLit(unlit: Self.quality(mrz: 0.2, photo: 0), lit: Self.quality(mrz: 0, photo: 0.2)))
        // Nothing measured (a manual capture): the unlit one stays.
        #expect(!FlashPairChoice.prefersLit(unlit: nil, lit: clear))
    }
}

/// The analysis against the camera's pace: automatic capture is given up once, when the
/// median analysis time of the last frames is slower than the floor.
@Suite struct AnalysisPaceTests {
    @Test func aSlowAnalysisIsReportedOnceAfterAWindowOfFrames() {
        var pace = AnalysisPace(minimumFramesPerSecond: 4, window: 5)
        // 4 fps: 250 ms a frame at most. Ten fast frames, then slow ones: one or two slow
        // frames among the last five are not a slow analysis, the third is (the median of
        // five); it is said once.
        let milliseconds = Array(repeating: 120, count: 10) + [900, 300, 300, 300] + Array(repeating: 400, count: 10)
        let reported = milliseconds.map { pace.record(.milliseconds($0)) }
        #expect(reported.enumerated().filter(\.element).map(\.offset) == [12])
    }
}
