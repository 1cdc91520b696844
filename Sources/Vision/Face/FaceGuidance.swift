/// What to tell the person in front of the face camera, one thing at a time, from the
/// observations of successive frames.
///
/// The order is fixed, the first that applies wins (docs/faces.md explains each threshold):
/// 1. no face: `centerFace`, or `tooClose` when the last face seen, less than
///    ``Settings/lostFrames`` frames ago, was as wide as the target or cut by the edge (a
///    face too close for the detector to see whole); more than one face of similar size: `oneFace`
/// 2. cut by the frame's edge: `tooClose` when it is as wide as the target, else `centerFace`
/// 3. narrower than the target band: `moveCloser`; wider: `tooClose`
/// 4. off-centre: `centerFace`
/// 5. too dark on the face, or much darker than what is behind it: `tooDark` / `backlit`
/// 6. eye line not level: `levelEyes`
/// 7. turned or tilted: `turn(direction)` towards frontal
/// 8. landmarks moving over the last frames, or the face blurred: `holdStill`
/// 9. otherwise `ready`.
///
/// Without landmarks (no model), 6, 7 and the landmark motion of 8 cannot be told and are
/// skipped; the box's motion stands in for 8.
public struct FaceGuidance: Sendable {
    public enum Direction: String, Hashable, Sendable, Codable {
        case up, down, left, right
    }

    public enum State: Hashable, Sendable {
        case centerFace
        case oneFace
        case moveCloser
        case tooClose
        case tooDark
        case backlit
        case levelEyes
        /// Turn the head towards `direction` (the person's own left and right).
        case turn(Direction)
        case holdStill
        case ready
    }

    public struct Settings: Hashable, Sendable {
        /// The face box's width as a part of the frame's: the band a face should be in.
        public var minimumWidth = 0.18
        public var maximumWidth = 0.5
        /// The farthest the face's centre may be from the frame's, as a part of its width
        /// (horizontally) and height (vertically).
        public var maximumCentreOffset = 0.15
        /// A second face at least this part of the first's width, and found with at least
        /// this confidence, is another person in view.
        public var secondFaceWidth = 0.6
        public var secondFaceConfidence = 0.5
        /// The least mean luma on the face, and the most the surround may exceed it by.
        public var minimumBrightness = 60.0
        public var maximumBacklight = 70.0
        /// The most roll (eye line) and yaw (turn), in degrees.
        public var maximumRoll = 10.0
        public var maximumYaw = 15.0
        /// The nose's drop below the eye line, in eye distances, of a level head, and how far
        /// from it a head may be tilted up or down.
        public var levelNoseDrop = 0.75
        public var maximumNoseDropChange = 0.3
        /// Frames over which the landmarks must stay still, and the most they may move in
        /// that time, as a part of the eye distance (the box's width without landmarks).
        public var stillFrames = 3
        public var maximumMotion = 0.08
        /// The least sharpness inside the face box (``FaceQuality/sharpness``).
        public var minimumSharpness = 20.0
        /// Frames for which a close face that vanished still says `tooClose`.
        public var lostFrames = 15

        public init() {}
    }

    public let settings: Settings
    private var recent: [[Point]] = []
    /// Whether the last face seen was close (wide or cut), and the frames since.
    private var lastClose = false
    private var framesWithoutFace = 0

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The guidance for the next frame's observation.
    public mutating func observe(_ observation: FaceObservation) -> State {
        guard let face = observation.face else {
            recent.removeAll()
            framesWithoutFace += 1
            return lastClose && framesWithoutFace <= settings.lostFrames ? .tooClose : .centerFace
        }
        framesWithoutFace = 0
        lastClose = !face.quality.whole || face.box.width / Double(observation.width) >= settings.maximumWidth * 0.9
        let points = face.landmarks?.points ?? [
            Point(x: face.box.left, y: face.box.top), Point(x: face.box.right, y: face.box.bottom),
        ]
        recent.append(points)
        if recent.count > settings.stillFrames { recent.removeFirst(recent.count - settings.stillFrames) }
        return Self.state(of: face, in: observation, recent: recent, settings: settings)
    }

    public mutating func reset() {
        recent.removeAll()
        lastClose = false
        framesWithoutFace = 0
    }

    static func state(of face: FaceObservation.Face, in observation: FaceObservation, recent: [[Point]], settings: Settings) -> State {
        let frameWidth = Double(observation.width), frameHeight = Double(observation.height)
        let others = observation.faces.filter { 
            $0 != face && $0.box.width >= settings.secondFaceWidth * face.box.width && $0.confidence >= settings.secondFaceConfidence
        }
        if !others.isEmpty { return .oneFace }
        let width = face.box.width / frameWidth
        if !face.quality.whole { return width >= settings.minimumWidth ? .tooClose : .centerFace }
        if width < settings.minimumWidth { return .moveCloser }
        if width > settings.maximumWidth { return .tooClose }
        let centre = face.box.centre
        if abs(centre.x - frameWidth / 2) > settings.maximumCentreOffset * frameWidth
            || abs(centre.y - frameHeight / 2) > settings.maximumCentreOffset * frameHeight
        {
            return .centerFace
        }
        if face.quality.brightness < settings.minimumBrightness { return .tooDark }
        if face.quality.surround - face.quality.brightness > settings.maximumBacklight { return .backlit }
        if let landmarks = face.landmarks {
            if abs(landmarks.roll) > settings.maximumRoll { return .levelEyes }
            // A nose to the image's right: the head is turned to the person's left, so they turn right.
            if abs(landmarks.yaw) > settings.maximumYaw { return .turn(landmarks.yaw > 0 ? .right : .left) }
            let drop = landmarks.noseDrop - settings.levelNoseDrop
            if abs(drop) > settings.maximumNoseDropChange { return .turn(drop > 0 ? .up : .down) }
        }
        let scale = face.landmarks?.eyeDistance ?? face.box.width
        if recent.count < settings.stillFrames || motion(recent) > settings.maximumMotion * scale { return .holdStill }
        if face.quality.sharpness < settings.minimumSharpness { return .holdStill }
        return .ready
    }

    /// The largest distance any point moved between the first and any later frame.
    static func motion(_ frames: [[Point]]) -> Double {
        guard let first = frames.first else { return 0 }
        var largest = 0.0
        for frame in frames.dropFirst() where frame.count == first.count {
            for (a, b) in zip(first, frame) { largest = max(largest, a.distance(to: b)) }
        }
        return largest
    }
}
