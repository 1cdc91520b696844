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
    static let page = Quadrilateral([Point(x: 300, y: 150), Point(x: 980, y: 150), Point(x: 980, y: 580), Point(x: 300, y: 580)])

    /// A passport page as `Vision` would report it: placed well unless told otherwise.
    static func seen(
        whole: Bool = true, tilt: Double = 3, sharpness: Double = 400, at quadrilateral: Quadrilateral = page
    ) -> DocumentObservation {
        var pose = DocumentPose(quadrilateral, width: 1280, height: 720, focalLength: 1100)!
        pose.tiltDegrees = tilt
        return DocumentObservation(
            width: 1280, height: 720,
            document: .init(
                quadrilateral: quadrilateral, documentClass: .td3, whole: whole, areaFraction: 0.32, centreOffset: 0.01, pose: pose,
                quality: DocumentQuality(sharpness: sharpness, glare: 0, glareOverMRZ: 0, glareOverPhoto: 0)))
    }

    static let ready = seen()
    static let blurred = seen(sharpness: 5)
    static let nothing = DocumentObservation(width: 1280, height: 720, document: nil)
    static let mrz = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    static let period = Duration.milliseconds(100)

    func document(_ mode: Scan.Mode = .docFinder, part: Credential.Part = .multipart, useFlash: Bool = true) -> DocumentCapture {
        DocumentCapture(
            request: CaptureRequest(mode: mode, part: part, trigger: CaptureTrigger(), useFlash: useFlash), gate: Self.documentGate,
            sidePause: .milliseconds(1500), mrz: Self.mrz)
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

    @Test func theFrontCarriesTheKeyTheMRZAndTheFlashPairTheBackNothing() throws {
        var capture = document()
        let front = try #require(firstShot(&capture, from: .zero, measure: Self.ready))
        #expect(front.shot.side == .front)
        #expect(front.shot.region == DocumentRegion(quadrilateral: Self.page, documentClass: .td3))
        #expect(front.shot.chipAccessKey == .mrz(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415"))
        #expect(front.shot.mrz == Self.mrz)
        #expect(front.shot.flashPair)
        #expect(!front.shot.byShutter)
        // Still over three frames (the guidance), then ready for three in a row (the gate):
        // "hold still" said once, and the fifth frame taken.
        #expect(front.actions == [.report(.extractionState(.holdStill)), .ignore, .ignore, .ignore, front.actions[4]])
        capture.taken(at: front.at)
        let back = try #require(firstShot(&capture, from: front.at + Self.period, measure: Self.ready))
        #expect(back.shot == Shot(side: .back, region: DocumentRegion(quadrilateral: Self.page, documentClass: .td3)))
    }

    /// The pause between the sides is a deadline: frames before it are ignored (not even
    /// measured), the first at or after it is looked at again.
    @Test func betweenTheSidesFramesAreIgnoredUntilThePauseIsOver() throws {
        var capture = document()
        let front = try #require(firstShot(&capture, from: .zero, measure: Self.ready))
        let takenAt = front.at + .milliseconds(250)  // encoding and the flash pair took a while
        capture.taken(at: takenAt)
        for offset in stride(from: 0, to: 1500, by: 100) {
            #expect(capture.frame(at: takenAt + .milliseconds(offset), shutter: false, detectionPaused: false) == .ignore)
        }
        // A shutter press during the pause waits too.
        #expect(capture.frame(at: takenAt + .milliseconds(1499), shutter: true, detectionPaused: false) == .ignore)
        #expect(capture.frame(at: takenAt + .milliseconds(1500), shutter: false, detectionPaused: false) == .measure)
        // The gate starts again: three ready frames for the back.
        let back = try #require(firstShot(&capture, from: takenAt + .milliseconds(1600), measure: Self.ready))
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
        #expect(capture.measured(Self.seen(whole: false)) == .report(.extractionState(.tooClose)))
        #expect(capture.frame(at: .seconds(6), shutter: false, detectionPaused: false) == .measure)
        #expect(capture.measured(Self.seen(tilt: 24)) == .report(.extractionState(.tilt(current: 24, target: 15))))
        // Ready frames must come in a row: two, then a moved page starts the count again (and
        // it must be still over three frames before it counts).
        let moved = Quadrilateral(Self.page.corners.map { Point(x: $0.x + 40, y: $0.y) })
        var actions: [FrameAction] = []
        for (n, observation) in [Self.ready, Self.ready, Self.seen(at: moved), Self.seen(at: moved), Self.seen(at: moved)].enumerated() {
            _ = capture.frame(at: .seconds(7) + Self.period * n, shutter: false, detectionPaused: false)
            actions.append(capture.measured(observation))
        }
        #expect(!actions.contains { if case .take = $0 { true } else { false } })
        _ = capture.frame(at: .seconds(8), shutter: false, detectionPaused: false)
        #expect(capture.measured(Self.seen(at: moved)) == .ignore)
        _ = capture.frame(at: .seconds(9), shutter: false, detectionPaused: false)
        guard case .take(let shot) = capture.measured(Self.seen(at: moved)) else {
            Issue.record("the third ready frame in a row is taken")
            return
        }
        #expect(shot.region?.quadrilateral == moved)
    }

    @Test func theManualModesWaitForTheShutterAndPausedDetectionStillTakesIt() {
        var capture = document(.manual, part: .front, useFlash: false)
        #expect(capture.frame(at: .zero, shutter: false, detectionPaused: false) == .ignore)
        #expect(capture.frame(at: Self.period, shutter: true, detectionPaused: false) == .take(Shot(side: .front, chipAccessKey: capture.chipAccessKey, mrz: Self.mrz, byShutter: true)))
        capture.taken(at: Self.period)
        var automatic = document(part: .front, useFlash: false)
        #expect(automatic.frame(at: .zero, shutter: false, detectionPaused: true) == .ignore)
        #expect(automatic.frame(at: Self.period, shutter: true, detectionPaused: true) == .take(Shot(side: .front, chipAccessKey: automatic.chipAccessKey, mrz: Self.mrz, byShutter: true)))
    }

    @Test func aFrameThatCouldNotBeTakenIsFollowedAtOnce() throws {
        var capture = document(part: .front)
        let front = try #require(firstShot(&capture, from: .zero, measure: Self.ready))
        capture.notTaken()
        // No pause, and the gate still counts the ready frames: the next ready frame is taken.
        #expect(capture.frame(at: front.at + Self.period, shutter: false, detectionPaused: false) == .measure)
        guard case .take(let again) = capture.measured(Self.ready) else {
            Issue.record("expected the next good frame to be taken")
            return
        }
        #expect(again.side == .front)
        #expect(again.mrz == Self.mrz)  // still the first front
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
