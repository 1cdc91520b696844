@testable import Capture
import Foundation
import Imaging
import ScanFlow
import Testing
import Vision

/// The liveness loop's phases on observations made to the numbers (no camera): guiding
/// until ready, the LED following the challenge with the frame after each switch kept as
/// switching, the turn asked, and new attempts when nothing could be decided.
@Suite struct FaceLivenessCaptureTests {
    /// A frontal, centred, sharp face of 30 % of a 640x480 frame.
    static func observation(noseShift: Double = 0, present: Bool = true) -> FaceObservation {
        guard present else { return FaceObservation(width: 640, height: 480, faces: []) }
        let eye = 0.3 * 640 * 0.4, cx = 320.0, cy = 240.0
        let landmarks = FaceLandmarks(
            leftEyeOuter: Point(x: cx - 0.75 * eye, y: cy), leftEyeInner: Point(x: cx - 0.25 * eye, y: cy),
            rightEyeInner: Point(x: cx + 0.25 * eye, y: cy), rightEyeOuter: Point(x: cx + 0.75 * eye, y: cy),
            noseBase: Point(x: cx + noseShift * eye, y: cy + 0.75 * eye))
        let w = 0.3 * 640
        return FaceObservation(width: 640, height: 480, faces: [
            FaceObservation.Face(
                box: FaceBox(left: cx - w / 2, top: cy - w / 2, right: cx + w / 2, bottom: cy + w * 0.7), confidence: 1, landmarks: landmarks,
                quality: FaceQuality(brightness: 120, surround: 110, sharpness: 80, whole: true)),
        ])
    }

    static let luma = LumaImage(width: 640, height: 480, pixels: [UInt8](repeating: 120, count: 640 * 480))

    /// A generator that always gives the same numbers: the challenge and the side are fixed.
    struct Fixed: RandomNumberGenerator {
        var state: UInt64 = 7
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return state
        }
    }

    @Test("ready for three frames starts the challenge; the LED follows it; the frame after a switch counts as switching")
    func challengeFollowsTheSequence() {
        var loop = FaceLivenessCapture(settings: .init(), random: Fixed())
        var time = Duration.zero
        func step(_ o: FaceObservation = Self.observation(), led: Bool? = nil) -> [FaceLivenessCapture.Action] {
            time += .milliseconds(66)
            return loop.frame(o, luma: Self.luma, at: time, ledIsOn: led)
        }
        // Guidance: holdStill until still for three frames, then ready three times.
        var frames = 0
        while frames < 10, case .guiding = loop.phase {
            _ = step()
            frames += 1
        }
        #expect(frames == 5, "ready after \(frames) frames")
        #expect(loop.phase == .light(frame: 0, lost: 0), "\(loop.phase)")
        let challenge = loop.challenge
        #expect(challenge.slots.first == false)
        // Each frame of the challenge: kept with the LED's state; a switch before it makes it nil.
        var kept: [Bool?] = []
        var lit = false
        for _ in 0..<challenge.frameCount {
            for action in step(led: lit) {
                if case .keep(let state) = action { kept.append(state) }
                if case .light(let on) = action { lit = on }
            }
        }
        #expect(kept.count == challenge.frameCount)
        // A frame is lit exactly when the challenge said so, except just after a switch.
        for (index, state) in kept.enumerated() {
            let wanted = challenge.state(atFrame: index)!
            let previous = index == 0 ? false : challenge.state(atFrame: index - 1)!
            if wanted != previous { #expect(state == nil, "frame \(index)") } else { #expect(state == wanted, "frame \(index)") }
        }
        guard case .turning = loop.phase else {
            Issue.record("not turning after the challenge: \(loop.phase)")
            return
        }
        #expect(!lit)
    }

    @Test("a driver that says the LED is not as the challenge wanted: the frame counts as switching")
    func ledStateMismatch() {
        var loop = FaceLivenessCapture(settings: .init(), random: Fixed())
        var time = Duration.zero
        for _ in 0..<10 {
            time += .milliseconds(66)
            _ = loop.frame(Self.observation(), luma: Self.luma, at: time)
            if case .light = loop.phase { break }
        }
        // The challenge starts dark; the driver says lit (its safety limit, a fault): switching.
        time += .milliseconds(66)
        let out = loop.frame(Self.observation(), luma: Self.luma, at: time, ledIsOn: true)
        #expect(out.contains(.keep(lit: nil)), "\(out)")
    }

    @Test("the face lost during the challenge: a new attempt from the guidance; after the last attempt, finished and not live")
    func lostFaceStartsANewAttempt() {
        var settings = FaceLivenessCapture.Settings()
        settings.attempts = 2
        var loop = FaceLivenessCapture(settings: settings, random: Fixed())
        var time = Duration.zero
        func run(until done: (FaceLivenessCapture) -> Bool, _ o: FaceObservation, limit: Int = 40) -> [FaceLivenessCapture.Action] {
            var all: [FaceLivenessCapture.Action] = []
            for _ in 0..<limit where !done(loop) {
                time += .milliseconds(66)
                all += loop.frame(o, luma: Self.luma, at: time)
            }
            return all
        }
        _ = run(until: { if case .light = $0.phase { true } else { false } }, Self.observation())
        let first = loop.challenge
        let lost = run(until: { $0.attempt == 2 }, Self.observation(present: false))
        #expect(loop.attempt == 2)
        #expect(lost.contains(.report(.extractionState(.centerFace))))
        _ = first
        _ = run(until: { if case .light = $0.phase { true } else { false } }, Self.observation())
        let end = run(until: { $0.phase == .finished }, Self.observation(present: false))
        guard case .finished(let result) = end.last else {
            Issue.record("not finished: \(end.suffix(3))")
            return
        }
        #expect(result.decision != .live)
        #expect(loop.phase == .finished)
    }
}
