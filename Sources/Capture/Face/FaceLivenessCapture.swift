import Imaging
import ScanFlow
import Vision

/// The liveness capture loop of the faceLiveness mode, as a value the camera's frame loop
/// feeds with each frame's face observation and obeys (it switches the LED, keeps frames,
/// reports guidance; docs/faces.md, "The liveness capture loop"):
///
/// 1. **Guiding**: ``FaceGuidance`` in the seeds' words until the face is ready for
///    ``Settings/readyFrames`` frames in a row.
/// 2. **Light**: the LED follows this attempt's random ``LightChallenge`` while the person
///    holds still; every frame is kept, with the LED's state during it (the frame after a
///    switch may straddle it and is kept as switching).
/// 3. **Turn**: the LED off, the person is asked to turn their head a little towards a side
///    chosen at random, until the yaw changed by the analyzer's ``LivenessAnalyzer/Settings/minimumTurn``
///    (plus a margin) or ``Settings/turnTimeout``.
/// 4. The checks (``LivenessAnalyzer``) decide. `notPossible` (the face left, no turn seen)
///    starts a new attempt with a new challenge, at most ``Settings/attempts`` times.
///
/// A face lost for ``Settings/lostFrames`` frames during the light or the turn ends the attempt.
struct FaceLivenessCapture {
    struct Settings: Sendable {
        var guidance = FaceGuidance.Settings()
        var liveness = LivenessAnalyzer.Settings()
        var readyFrames = 3
        var slots = 10
        var framesPerSlot = 3
        var turnTimeout: Duration = .seconds(5)
        /// Degrees beyond the analyzer's least turn the loop waits for.
        var turnMargin = 3.0
        var lostFrames = 6
        var attempts = 3
    }

    enum Action: Equatable {
        case report(Scan.Update)
        /// Switch the LED.
        case light(on: Bool)
        /// Keep this frame as liveness evidence, with the LED's state during it (nil: switching).
        case keep(lit: Bool?)
        /// This frame is the best face so far (sharp, frontal, unlit): keep it as the face image.
        case best
        /// The checks are done.
        case finished(LivenessResult)
    }

    enum Phase: Equatable {
        case guiding(readyCount: Int)
        case light(frame: Int, lost: Int)
        case turning(since: Duration, lost: Int)
        case finished
    }

    let settings: Settings
    private(set) var phase = Phase.guiding(readyCount: 0)
    private(set) var challenge: LightChallenge
    private(set) var turn: FaceGuidance.Direction
    private(set) var attempt = 1
    private var guidance: FaceGuidance
    private var analyzer: LivenessAnalyzer
    private var lastState: Scan.ExtractionState?
    private var bestScore = -Double.infinity
    private var lit = false
    private var switching = false
    private var random: any RandomNumberGenerator

    init(settings: Settings, random: any RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.settings = settings
        self.random = random
        guidance = FaceGuidance(settings: settings.guidance)
        analyzer = LivenessAnalyzer(settings: settings.liveness)
        challenge = LightChallenge(slots: [], framesPerSlot: settings.framesPerSlot)
        turn = .left
        newChallenge()
    }

    private mutating func newChallenge() {
        var generator = random
        challenge = LightChallenge.random(slots: settings.slots, framesPerSlot: settings.framesPerSlot, using: &generator)
        turn = Bool.random(using: &generator) ? .left : .right
        random = generator
    }

    /// The next frame: what was seen in it, its luma (kept by the analyzer for the parallax
    /// check) and the capture's time.
    /// - Parameter ledIsOn: the LED's state as its driver reports it now, when known: a frame
    ///   taken while the LED was not as the challenge wanted (it failed to switch, or its
    ///   safety limit switched it off) counts as switching, not as lit or dark.
    mutating func frame(_ observation: FaceObservation, luma: LumaImage, at now: Duration, ledIsOn: Bool? = nil) -> [Action] {
        let face = observation.face
        let state = guidance.observe(observation)
        var actions: [Action] = []
        let wasSwitching = switching || (ledIsOn.map { $0 != lit } ?? false)
        switching = false
        switch phase {
        case .finished:
            return []
        case .guiding(let readyCount):
            actions += say(Self.extractionState(state))
            if let face, state == .ready, !lit { actions += considerBest(face) }
            let count = state == .ready ? readyCount + 1 : 0
            if count >= settings.readyFrames {
                phase = .light(frame: 0, lost: 0)
                actions += say(.holdStill)
                actions += setLight(challenge.state(atFrame: 0) ?? false)
            } else {
                phase = .guiding(readyCount: count)
            }
        case .light(let index, let lost):
            guard let face, face.landmarks != nil else {
                if lost + 1 >= settings.lostFrames { return actions + abandon() }
                phase = .light(frame: index, lost: lost + 1)
                return actions
            }
            let litDuring: Bool? = wasSwitching ? nil : lit
            analyzer.add(luma, face: face, lit: litDuring)
            actions.append(.keep(lit: litDuring))
            if litDuring == false, state == .ready { actions += considerBest(face) }
            let next = index + 1
            if let wanted = challenge.state(atFrame: next) {
                phase = .light(frame: next, lost: 0)
                actions += setLight(wanted)
            } else {
                actions += setLight(false)
                phase = .turning(since: now, lost: 0)
                actions += say(.tiltFace(Self.seedsDirection(turn)))
            }
        case .turning(let since, let lost):
            guard let face, face.landmarks != nil else {
                if lost + 1 >= settings.lostFrames { return actions + abandon() }
                phase = .turning(since: since, lost: lost + 1)
                return actions
            }
            let litDuring: Bool? = wasSwitching ? nil : false
            analyzer.add(luma, face: face, lit: litDuring)
            actions.append(.keep(lit: litDuring))
            let turned = analyzer.turnSeen
            if turned >= settings.liveness.minimumTurn + settings.turnMargin || now - since >= settings.turnTimeout {
                actions += decide()
            }
        }
        return actions
    }

    /// The checks on this attempt: finished, or a new attempt when nothing could be decided.
    private mutating func decide() -> [Action] {
        let result = analyzer.result()
        if result.decision == .notPossible, attempt < settings.attempts {
            return abandon()
        }
        phase = .finished
        return [.finished(result)]
    }

    /// Ends the attempt: the LED off, back to guiding with a new challenge (or the end).
    private mutating func abandon() -> [Action] {
        var actions = setLight(false)
        analyzer.wipe()
        guidance.reset()
        lastState = nil
        if attempt >= settings.attempts {
            phase = .finished
            var result = LivenessResult()
            result.reasons = [.tooFewFrames]
            return actions + [.finished(result)]
        }
        attempt += 1
        newChallenge()
        phase = .guiding(readyCount: 0)
        actions += say(.centerFace)
        return actions
    }

    /// Forgets the frames (a session's end).
    mutating func wipe() {
        analyzer.wipe()
    }

    private mutating func setLight(_ on: Bool) -> [Action] {
        guard on != lit else { return [] }
        lit = on
        switching = true
        return [.light(on: on), .report(.flash(on ? .on : .off))]
    }

    private mutating func say(_ state: Scan.ExtractionState) -> [Action] {
        guard state != lastState else { return [] }
        lastState = state
        return [.report(.extractionState(state))]
    }

    /// Sharp, frontal, bright enough: the higher the better.
    private mutating func considerBest(_ face: FaceObservation.Face) -> [Action] {
        let yaw = abs(face.landmarks?.yaw ?? 30), roll = abs(face.landmarks?.roll ?? 30)
        let score = min(face.quality.sharpness, 400) / 400 - yaw / 30 - roll / 30 - abs(face.quality.brightness - 130) / 260
        guard score > bestScore else { return [] }
        bestScore = score
        return [.best]
    }

    /// The seeds' extraction state for a guidance state (the station's words for light and
    /// for a second face are the seeds' `centerFace`, which their UI words as "move your face
    /// into the oval"; the Default UI says more from the same state when the light is wrong).
    static func extractionState(_ state: FaceGuidance.State) -> Scan.ExtractionState {
        switch state {
        case .centerFace, .oneFace, .tooDark, .backlit: .centerFace
        case .moveCloser: .moveCloser
        case .tooClose: .tooClose
        case .levelEyes: .levelEyesAndDevice
        case .turn(let direction): .tiltFace(seedsDirection(direction))
        case .holdStill, .ready: .holdStill
        }
    }

    static func seedsDirection(_ direction: FaceGuidance.Direction) -> Scan.Direction {
        switch direction {
        case .up: .up
        case .down: .down
        case .left: .left
        case .right: .right
        }
    }
}
