import Vision

/// What `analyze face` says of one frame.
struct FaceFrameReport: Encodable {
    var index: Int
    /// The guidance: `centerFace`, `oneFace`, `moveCloser`, `tooClose`, `tooDark`, `backlit`,
    /// `levelEyes`, `turn(left|right|up|down)`, `holdStill`, `ready`.
    var state: String?
    var faces: Int?
    var box: [Double]?
    var confidence: Double?
    /// The five landmarks (left eye outer, inner, right eye inner, outer, nose base), x and y.
    var landmarks: [[Double]]?
    var rollDegrees: Double?
    var yawDegrees: Double?
    var widthPercent: Double?
    var brightness: Double?
    var surround: Double?
    var sharpness: Double?
    var whole: Bool?
    var milliseconds: Double?
    var error: String?

    init(index: Int, error: String) {
        self.index = index
        self.error = error
    }

    init(index: Int, observation: FaceObservation, state: FaceGuidance.State, elapsed: Duration) {
        let r = DocumentFrameReport.rounded
        self.index = index
        switch state {
        case .turn(let direction): self.state = "turn(\(direction.rawValue))"
        default: self.state = "\(state)"
        }
        faces = observation.faces.count
        milliseconds = DocumentFrameReport.milliseconds(elapsed)
        guard let face = observation.face else { return }
        box = [face.box.left, face.box.top, face.box.right, face.box.bottom].map { r($0, 1) }
        confidence = r(face.confidence, 2)
        widthPercent = r(face.box.width / Double(observation.width) * 100, 1)
        brightness = r(face.quality.brightness, 0)
        surround = r(face.quality.surround, 0)
        sharpness = r(face.quality.sharpness, 0)
        whole = face.quality.whole
        if let landmarks = face.landmarks {
            self.landmarks = landmarks.points.map { [r($0.x, 1), r($0.y, 1)] }
            rollDegrees = r(landmarks.roll, 1)
            yawDegrees = r(landmarks.yaw, 1)
        }
    }

    var line: String {
        if let error { return "\(index)".leftPadded(5) + "  error: " + error }
        var text = "\(index)".leftPadded(5) + "  " + (state ?? "").padded(12)
        guard let box else { return text + "  -" + (milliseconds.map { "  \($0) ms" } ?? "") }
        text += "  box (\(Int(box[0])),\(Int(box[1])))-(\(Int(box[2])),\(Int(box[3])))  width \(widthPercent ?? 0)%"
        if let rollDegrees, let yawDegrees { text += "  roll \(rollDegrees)°  yaw \(yawDegrees)°" }
        text += "  light \(Int(brightness ?? 0))/\(Int(surround ?? 0))  sharp \(Int(sharpness ?? 0))"
        if (faces ?? 0) > 1 { text += "  faces \(faces!)" }
        if whole == false { text += "  cut" }
        if let milliseconds { text += "  \(milliseconds) ms" }
        return text
    }
}

/// What `analyze face` says of one input.
struct FaceAnalysisReport: Encodable {
    var input: String
    var frames: [FaceFrameReport]
    var liveness: LivenessReport?

    init(input: String, frames: [FaceFrameReport], liveness: LivenessResult?) {
        self.input = input
        self.frames = frames
        self.liveness = liveness.map(LivenessReport.init)
    }

    var lines: [String] {
        var states: [String: Int] = [:]
        for frame in frames { states[frame.state ?? "error", default: 0] += 1 }
        let summary = states.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let times = frames.compactMap(\.milliseconds).sorted()
        let median = times.isEmpty ? 0 : times[times.count / 2]
        var lines = ["\(input): \(frames.count) frame(s)"] + frames.map(\.line) + ["  states: \(summary); median \(median) ms a frame"]
        if let liveness { lines.append("  liveness: " + liveness.line) }
        return lines
    }
}

/// The liveness checks as `analyze face` prints them.
struct LivenessReport: Encodable {
    var decision: String
    var score: Double
    var reasons: [String]
    var framesMeasured: Int
    var responsePercent: Double?
    var correlation: Double?
    var relief: Double?
    var turnDegrees: Double?
    var parallaxPercent: Double?
    var parallaxMedianPercent: Double?

    init(_ result: LivenessResult) {
        let r = DocumentFrameReport.rounded
        decision = result.decision.rawValue
        score = r(result.score, 3)
        reasons = result.reasons.map(\.rawValue)
        framesMeasured = result.framesMeasured
        responsePercent = result.response.map { r($0 * 100, 1) }
        correlation = result.correlation.map { r($0, 2) }
        relief = result.relief.map { r($0, 2) }
        turnDegrees = result.turn.map { r($0, 1) }
        parallaxPercent = result.parallax.map { r($0 * 100, 2) }
        parallaxMedianPercent = result.parallaxMedian.map { r($0 * 100, 2) }
    }

    var line: String {
        var text = "\(decision) (score \(score))"
        if !reasons.isEmpty { text += ": " + reasons.joined(separator: ", ") }
        text += "; \(framesMeasured) frames"
        if let responsePercent { text += ", response \(responsePercent)%" }
        if let correlation { text += ", in step \(correlation)" }
        if let relief { text += ", relief \(relief)" }
        if let turnDegrees { text += ", turn \(turnDegrees)°" }
        if let parallaxPercent { text += ", parallax \(parallaxPercent)%" }
        return text
    }
}
