@testable import Capture
import ScanFlow
import Testing

/// The per-frame decisions of the document and face captures, fed frames and measures
/// with the time, tested by the actions they return.
@Suite struct DocumentCaptureTests {
    static let gate = QualityGate.Settings(brightness: 50...220, minimumSharpness: 100, stableFrames: 3)
    static let sharp = FrameMeasure(meanLuma: 128, sharpness: 900)
    static let blurred = FrameMeasure(meanLuma: 128, sharpness: 20)
    static let dark = FrameMeasure(meanLuma: 10, sharpness: 900)
    static let mrz = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    static let period = Duration.milliseconds(100)

    func document(_ mode: Scan.Mode = .docFinder, part: Credential.Part = .multipart, useFlash: Bool = true) -> DocumentCapture {
        DocumentCapture(
            request: CaptureRequest(mode: mode, part: part, trigger: CaptureTrigger(), useFlash: useFlash), gate: Self.gate,
            sidePause: .milliseconds(1500), mrz: Self.mrz)
    }

    /// Feeds frames `period` apart from `start`, each measured as `measure`, until one is
    /// taken; returns the shot and when, or nil after `limit` frames.
    func firstShot(
        _ capture: inout some FrameDecisions, from start: Duration, measure: FrameMeasure = sharp, limit: Int = 100
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
        let front = try #require(firstShot(&capture, from: .zero))
        #expect(front.shot.side == .front)
        #expect(front.shot.chipAccessKey == .mrz(documentNumber: "L898902C3", dateOfBirth: "740812", dateOfExpiry: "120415"))
        #expect(front.shot.mrz == Self.mrz)
        #expect(front.shot.flashPair)
        #expect(!front.shot.byShutter)
        // Three good frames in a row: the gate said "hold still" once, then took the third.
        #expect(front.actions == [.report(.extractionState(.holdStill)), .ignore, front.actions[2]])
        capture.taken(at: front.at)
        let back = try #require(firstShot(&capture, from: front.at + Self.period))
        #expect(back.shot == Shot(side: .back))
    }

    /// The pause between the sides is a deadline: frames before it are ignored (not even
    /// measured), the first at or after it is looked at again.
    @Test func betweenTheSidesFramesAreIgnoredUntilThePauseIsOver() throws {
        var capture = document()
        let front = try #require(firstShot(&capture, from: .zero))
        let takenAt = front.at + .milliseconds(250)  // encoding and the flash pair took a while
        capture.taken(at: takenAt)
        for offset in stride(from: 0, to: 1500, by: 100) {
            #expect(capture.frame(at: takenAt + .milliseconds(offset), shutter: false, detectionPaused: false) == .ignore)
        }
        // A shutter press during the pause waits too.
        #expect(capture.frame(at: takenAt + .milliseconds(1499), shutter: true, detectionPaused: false) == .ignore)
        #expect(capture.frame(at: takenAt + .milliseconds(1500), shutter: false, detectionPaused: false) == .measure)
        // The gate starts again: three good frames for the back.
        let back = try #require(firstShot(&capture, from: takenAt + .milliseconds(1600)))
        #expect(back.at == takenAt + .milliseconds(1500) + Self.period * 3)
    }

    @Test func aBlurredOrDarkPageIsGuidedNotTaken() {
        var capture = document()
        #expect(firstShot(&capture, from: .zero, measure: Self.blurred, limit: 20) == nil)
        #expect(capture.frame(at: .seconds(3), shutter: false, detectionPaused: false) == .measure)
        #expect(capture.measured(Self.dark) == .report(.extractionState(.centerId)))
        #expect(capture.frame(at: .seconds(4), shutter: false, detectionPaused: false) == .measure)
        #expect(capture.measured(Self.dark) == .ignore)  // said once, not at every frame
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
        let front = try #require(firstShot(&capture, from: .zero))
        capture.notTaken()
        // No pause, and the gate still counts the good frames: the next good frame is taken.
        #expect(capture.frame(at: front.at + Self.period, shutter: false, detectionPaused: false) == .measure)
        guard case .take(let again) = capture.measured(Self.sharp) else {
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
        let shot = try #require(firstShot(&face, from: Self.period))
        #expect(shot.shot == Shot(side: .face))
        face.taken(at: shot.at)
        #expect(face.frame(at: shot.at + .milliseconds(1400), shutter: false, detectionPaused: false) == .ignore)
        #expect(face.frame(at: shot.at + .milliseconds(1500), shutter: false, detectionPaused: false) == .measure)
    }
}
