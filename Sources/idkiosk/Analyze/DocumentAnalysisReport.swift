import Vision

/// What `analyze document` says of one frame.
struct DocumentFrameReport: Encodable {
    var index: Int
    /// The guidance in the seeds' words, or `ready`.
    var state: String?
    var tiltTarget: Int?
    var documentClass: String?
    var corners: [[Double]]?
    var whole: Bool?
    var areaPercent: Double?
    var tiltDegrees: Double?
    var rotationDegrees: Double?
    var sharpness: Double?
    var glarePercent: Double?
    var glareOverMRZPercent: Double?
    var glareOverPhotoPercent: Double?
    var otherDocuments: Int?
    var milliseconds: Double?
    /// What the MRZ reader made of the document (or, where its outline gave none, of the
    /// MRZ looked for on its own): `read` (every check digit holds), `check digits fail`,
    /// `none`; nil when it was not looked for.
    var mrz: String?
    /// Why the frame could not be analysed (a corrupt frame).
    var error: String?

    init(index: Int, error: String) {
        self.index = index
        self.error = error
    }

    init(index: Int, observation: DocumentObservation, state: DocumentGuidance.State, elapsed: Duration) {
        self.index = index
        switch state {
        case .tilt(let current, let target):
            self.state = "tilt(\(current))"
            tiltTarget = target
        default:
            self.state = "\(state)"
        }
        milliseconds = Self.milliseconds(elapsed)
        otherDocuments = observation.others
        guard let document = observation.document else { return }
        documentClass = document.documentClass.rawValue
        corners = document.quadrilateral.corners.map { [Self.rounded($0.x, 1), Self.rounded($0.y, 1)] }
        whole = document.whole
        areaPercent = Self.rounded(document.areaFraction * 100, 1)
        tiltDegrees = Self.rounded(document.pose.tiltDegrees, 1)
        rotationDegrees = Self.rounded(document.pose.rotationDegrees, 1)
        if let quality = document.quality {
            sharpness = Self.rounded(quality.sharpness, 0)
            glarePercent = Self.rounded(quality.glare * 100, 1)
            glareOverMRZPercent = Self.rounded(quality.glareOverMRZ * 100, 1)
            glareOverPhotoPercent = Self.rounded(quality.glareOverPhoto * 100, 1)
        }
    }

    static func milliseconds(_ elapsed: Duration) -> Double {
        rounded(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000, 2)
    }

    static func rounded(_ value: Double, _ places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    var line: String {
        if let error { return String(format: "%5d  error: %@", index, error) }
        var text = "\(index)".leftPadded(5) + "  " + (state ?? "").padded(14)
        guard let documentClass, let corners else { return text + "  -" + (milliseconds.map { "  \($0) ms" } ?? "") }
        text += "  \(documentClass)  " + corners.map { "(\(Int($0[0])),\(Int($0[1])))" }.joined(separator: " ")
        text += "  tilt \(tiltDegrees ?? 0)°  rot \(rotationDegrees ?? 0)°"
        if let sharpness { text += "  sharp \(Int(sharpness))" }
        if let glarePercent { text += "  glare \(glarePercent)%" }
        if whole == false { text += "  cut" }
        if let milliseconds { text += "  \(milliseconds) ms" }
        if let mrz { text += "  MRZ \(mrz)" }
        return text
    }
}

/// What `analyze document` says of one input.
struct DocumentAnalysisReport: Encodable {
    var input: String
    var frames: [DocumentFrameReport]
    /// Whether two frames (or, for stills, one) read the same MRZ with every check digit
    /// holding, and so a chip key was read.
    var chipKeyRead: Bool
    /// The MRZ zones agreed on, best first; only with `--show-data` (personal data).
    var mrzLines: [[String]]?

    var lines: [String] {
        var states: [String: Int] = [:]
        for frame in frames { states[frame.state.map { $0.hasPrefix("tilt") ? "tilt" : $0 } ?? "error", default: 0] += 1 }
        let summary = states.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let times = frames.compactMap(\.milliseconds).sorted()
        let median = times.isEmpty ? 0 : times[times.count / 2]
        var lines = ["\(input): \(frames.count) frame(s)"] + frames.map(\.line) + ["  states: \(summary); median \(median) ms a frame"]
        lines.append("  chip key from the MRZ: " + (chipKeyRead ? "read" : "not read"))
        for zone in mrzLines ?? [] { lines += zone.map { "    \($0)" } }
        return lines
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
