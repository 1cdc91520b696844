import Foundation
import Testing
import Vision

/// The guidance order of FaceGuidance on observations made to the numbers.
@Suite("Face guidance")
struct FaceGuidanceTests {
    /// A frontal face of `width` (part of a 640x480 frame) centred at (cx, cy), turned by
    /// `roll` in the image, its nose `noseShift` eye distances to the image's right.
    static func face(
        width: Double = 0.3, cx: Double = 320, cy: Double = 240, roll: Double = 0, noseShift: Double = 0, noseDrop: Double = 0.75,
        brightness: Double = 120, surround: Double = 110, sharpness: Double = 80
    ) -> FaceObservation.Face {
        let w = width * 640, eye = w * 0.4
        let r = roll * .pi / 180
        func at(_ dx: Double, _ dy: Double) -> Point { Point(x: cx + dx * cos(r) - dy * sin(r), y: cy + dx * sin(r) + dy * cos(r)) }
        let landmarks = FaceLandmarks(
            leftEyeOuter: at(-eye * 0.75, 0), leftEyeInner: at(-eye * 0.25, 0), rightEyeInner: at(eye * 0.25, 0),
            rightEyeOuter: at(eye * 0.75, 0), noseBase: at(noseShift * eye, noseDrop * eye))
        let box = FaceBox(left: cx - w / 2, top: cy - w * 0.5, right: cx + w / 2, bottom: cy + w * 0.7)
        let whole = box.left >= 0 && box.top >= 0 && box.right <= 640 && box.bottom <= 480
        return FaceObservation.Face(
            box: box, confidence: 1, landmarks: landmarks,
            quality: FaceQuality(brightness: brightness, surround: surround, sharpness: sharpness, whole: whole))
    }

    static func observation(_ faces: FaceObservation.Face...) -> FaceObservation {
        FaceObservation(width: 640, height: 480, faces: faces)
    }

    /// The state after the same observation three times (the still frames).
    static func state(_ observation: FaceObservation) -> FaceGuidance.State {
        var guidance = FaceGuidance()
        _ = guidance.observe(observation)
        _ = guidance.observe(observation)
        return guidance.observe(observation)
    }

    @Test("each condition alone gives its state, and a good face is ready")
    func eachState() {
        #expect(Self.state(Self.observation()) == .centerFace)
        #expect(Self.state(Self.observation(Self.face())) == .ready)
        #expect(Self.state(Self.observation(Self.face(), Self.face(width: 0.25, cx: 500))) == .oneFace)
        #expect(Self.state(Self.observation(Self.face(), Self.face(width: 0.1, cx: 560, cy: 80))) == .ready)
        #expect(Self.state(Self.observation(Self.face(width: 0.15))) == .moveCloser)
        #expect(Self.state(Self.observation(Self.face(width: 0.55))) == .tooClose)
        #expect(Self.state(Self.observation(Self.face(width: 0.35, cx: 600))) == .tooClose)
        #expect(Self.state(Self.observation(Self.face(width: 0.15, cx: 620))) == .centerFace)
        #expect(Self.state(Self.observation(Self.face(cx: 450))) == .centerFace)
        #expect(Self.state(Self.observation(Self.face(cy: 330))) == .centerFace)
        #expect(Self.state(Self.observation(Self.face(brightness: 40, surround: 45))) == .tooDark)
        #expect(Self.state(Self.observation(Self.face(brightness: 90, surround: 220))) == .backlit)
        #expect(Self.state(Self.observation(Self.face(roll: 18))) == .levelEyes)
        #expect(Self.state(Self.observation(Self.face(noseShift: 0.2))) == .turn(.right))
        #expect(Self.state(Self.observation(Self.face(noseShift: -0.2))) == .turn(.left))
        #expect(Self.state(Self.observation(Self.face(noseDrop: 0.35))) == .turn(.down))
        #expect(Self.state(Self.observation(Self.face(noseDrop: 1.2))) == .turn(.up))
        #expect(Self.state(Self.observation(Self.face(sharpness: 5))) == .holdStill)
    }

    @Test("the first that applies wins: size before centre before light before roll before turn")
    func order() {
        #expect(Self.state(Self.observation(Self.face(width: 0.15, cx: 420, roll: 20))) == .moveCloser)
        #expect(Self.state(Self.observation(Self.face(cx: 450, brightness: 30, surround: 30))) == .centerFace)
        #expect(Self.state(Self.observation(Self.face(roll: 20, brightness: 30, surround: 30))) == .tooDark)
        #expect(Self.state(Self.observation(Self.face(roll: 20, noseShift: 0.3))) == .levelEyes)
    }

    @Test("moving landmarks say holdStill until they have been still for the frames asked")
    func holdStill() {
        var guidance = FaceGuidance()
        #expect(guidance.observe(Self.observation(Self.face(cx: 300))) == .holdStill)
        #expect(guidance.observe(Self.observation(Self.face(cx: 320))) == .holdStill)
        #expect(guidance.observe(Self.observation(Self.face(cx: 340))) == .holdStill)
        #expect(guidance.observe(Self.observation(Self.face(cx: 340))) == .holdStill)
        #expect(guidance.observe(Self.observation(Self.face(cx: 341))) == .ready)
        #expect(guidance.observe(Self.observation()) == .centerFace)
        #expect(guidance.observe(Self.observation(Self.face(cx: 341))) == .holdStill)
    }

    @Test("a close face that vanishes says tooClose for a while, a far one centerFace")
    func lostClose() {
        var guidance = FaceGuidance()
        #expect(guidance.observe(Self.observation(Self.face(width: 0.48))) == .holdStill)
        #expect(guidance.observe(Self.observation()) == .tooClose)
        for _ in 0..<14 { _ = guidance.observe(Self.observation()) }
        #expect(guidance.observe(Self.observation()) == .centerFace)
        #expect(guidance.observe(Self.observation(Self.face(width: 0.3))) == .holdStill)
        #expect(guidance.observe(Self.observation()) == .centerFace)
    }

    @Test("the yaw follows the nose's offset: 0 frontal, the sign of the side, about 25 degrees at 0.18")
    func yaw() {
        let frontal = Self.face().landmarks!
        #expect(abs(frontal.yaw) < 0.01)
        #expect(Self.face(noseShift: 0.1).landmarks!.yaw > 10)
        #expect(Self.face(noseShift: -0.1).landmarks!.yaw < -10)
        #expect(abs(Self.face(noseShift: 0.18).landmarks!.yaw - 25.3) < 1.5)
        #expect(abs(Self.face(roll: 30).landmarks!.roll - 30) < 0.01)
        #expect(abs(Self.face(roll: 30, noseShift: 0.1).landmarks!.noseOffset - 0.1) < 0.01)
    }
}

/// The light challenge's random sequences keep their promises.
@Suite struct LightChallengeTests {
    @Test("a thousand challenges: dark first, a third lit and a third dark at least, never three equal slots in a row")
    func promises() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let challenge = LightChallenge.random(slots: 10, framesPerSlot: 3, using: &generator)
            #expect(challenge.slots.count == 10 && challenge.slots.first == false)
            let lit = challenge.slots.filter { $0 }.count
            #expect(lit >= 3 && 10 - lit >= 3)
            for i in 2..<10 { #expect(!(challenge.slots[i] == challenge.slots[i - 1] && challenge.slots[i] == challenge.slots[i - 2])) }
            #expect(challenge.state(atFrame: 29) != nil && challenge.state(atFrame: 30) == nil)
        }
    }
}
