public import Imaging
import Foundation

/// Presentation-attack detection with the station's own light and a requested head turn,
/// from the frames of a liveness capture (docs/faces.md, "Liveness").
///
/// The checks, each against a configured threshold:
/// - **In step with the light.** The face's brightness follows the LED's random on/off
///   sequence (``LightChallenge``): fitted as `brightness = a + b·t + c·lit` (the drift of
///   ambient light and exposure is `a + b·t`), the face must brighten by at least
///   ``Settings/minimumResponse`` of its unlit brightness, and the brightness left after the
///   drift must correlate with the sequence by ``Settings/minimumCorrelation``. A screen,
///   lit from inside, barely answers; a replayed video answers another sequence.
/// - **Relief** is measured and reported, not decided on: the LED beside the camera and the
///   room's light fall on a face's surfaces at angles that differ with their slant, so the
///   relative brightening of nose and forehead differs from that of the cheeks
///   (`|ln(centre / cheeks)|`), where a matte print brightens evenly (0). On the generated
///   data it does not separate: glossy prints' highlights and faces lit from the front
///   overlap (docs/faces.md gives the figures).
/// - **Parallax.** Between the first frame and the most turned one from it (at least
///   ``Settings/minimumTurn`` degrees of yaw apart), points tracked on the face must leave a
///   single homography by ``Settings/minimumParallax`` of the face's width (90th
///   percentile): a flat picture moved in any way is one plane.
///
/// A face is live only when the light and parallax checks pass. Fewer frames than needed, or no turn seen,
/// is `notPossible`: the station asks again, and a journey never passes on it.
public struct LivenessAnalyzer: Sendable {
    public struct Settings: Hashable, Sendable, Codable {
        /// Frames with a known LED state needed, and of each state.
        public var minimumFrames = 12
        public var minimumFramesPerState = 4
        /// The least brightening of the face when lit, as a part of its unlit brightness.
        public var minimumResponse = 0.05
        /// The least correlation of the face's brightness (drift removed) with the LED.
        public var minimumCorrelation = 0.8
        /// The least yaw between the first and the most turned frame, in degrees.
        public var minimumTurn = 6.0
        /// The least 90th-percentile distance of the tracked points from one plane, as a part of the face's width.
        public var minimumParallax = 0.012

        public init() {}
    }

    public let settings: Settings
    private var samples: [Sample] = []
    private var frames = 0
    /// The first frame and the most turned one, for dark frames and for lit ones (the
    /// parallax check compares two frames in the same light).
    private var reference: [Bool: Kept] = [:]
    private var turned: [Bool: Kept] = [:]

    struct Sample: Hashable, Sendable {
        var index: Int
        var lit: Bool
        var means: FaceRegions.Means
    }

    /// A frame kept for the parallax check (the first one and the most turned one from it).
    struct Kept: Sendable {
        var image: LumaImage
        var box: FaceBox
        var yaw: Double
    }

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Frames measured so far.
    public var frameCount: Int { samples.count }

    /// The yaw between the first frame and the most turned one so far, in degrees (0 before both).
    public var turnSeen: Double {
        guard let pair = turnPair else { return 0 }
        return abs(pair.turned.yaw - pair.reference.yaw)
    }

    /// Adds a frame with the face found in it and the LED's state while it was exposed (nil
    /// when the LED switched during its exposure: measured for motion only).
    public mutating func add(_ image: LumaImage, face: FaceObservation.Face, lit: Bool?) {
        guard let landmarks = face.landmarks else { return }
        let index = frames
        frames += 1
        if let lit {
            samples.append(Sample(index: index, lit: lit, means: FaceRegions(landmarks: landmarks, box: face.box).means(in: image)))
        }
        let yaw = landmarks.yaw
        // Both frames of the parallax check are in the same light: the LED's light is not motion.
        guard let lit else { return }
        if let first = reference[lit] {
            if abs(yaw - first.yaw) > abs((turned[lit]?.yaw ?? first.yaw) - first.yaw) {
                turned[lit] = Kept(image: image, box: face.box, yaw: yaw)
            }
        } else {
            // The first frame: the pose the person was guided into, whatever its yaw reads
            // (a head held a little turned, or landmarks that read a face so, is not refused).
            reference[lit] = Kept(image: image, box: face.box, yaw: yaw)
        }
    }

    /// The first and the most turned frame of the light in which the turn was largest.
    private var turnPair: (reference: Kept, turned: Kept)? {
        [false, true].compactMap { lit in reference[lit].flatMap { r in turned[lit].map { (r, $0) } } }
            .max { abs($0.1.yaw - $0.0.yaw) < abs($1.1.yaw - $1.0.yaw) }
    }

    /// Forgets every frame (a session's end: the frames show a face).
    public mutating func wipe() {
        samples.removeAll()
        frames = 0
        for lit in [false, true] {
            _ = reference[lit]?.image.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            _ = turned[lit]?.image.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        reference = [:]
        turned = [:]
    }

    /// The checks on the frames added so far.
    public func result() -> LivenessResult {
        var result = LivenessResult()
        let lit = samples.filter(\.lit).count
        result.framesMeasured = samples.count
        if samples.count < settings.minimumFrames || lit < settings.minimumFramesPerState || samples.count - lit < settings.minimumFramesPerState {
            result.reasons.append(.tooFewFrames)
        } else {
            let face = Self.fit(samples, \.face)
            let centre = Self.fit(samples, \.centre)
            let cheeks = Self.fit(samples, \.cheeks)
            let background = Self.fit(samples, \.background)
            result.response = face?.relative
            result.correlation = face?.correlation
            result.backgroundResponse = background?.relative
            if let centre, let cheeks, centre.relative > 0.005, cheeks.relative > 0.005 { result.relief = abs(log(centre.relative / cheeks.relative)) }
            if (result.response ?? 0) < settings.minimumResponse { result.reasons.append(.noLightResponse) }
            if (result.correlation ?? 0) < settings.minimumCorrelation { result.reasons.append(.outOfStepWithLight) }
        }
        if let (reference, turned) = turnPair, abs(turned.yaw - reference.yaw) >= settings.minimumTurn {
            result.turn = abs(turned.yaw - reference.yaw)
            if case .success(let parallax) = OpenCV.parallax(from: reference.image, to: turned.image, box: reference.box), parallax.tracked >= 8 {
                result.parallax = Double(parallax.high)
                result.parallaxMedian = Double(parallax.median)
                result.trackedPoints = Int(parallax.tracked)
                if Double(parallax.high) < settings.minimumParallax { result.reasons.append(.planarMotion) }
            } else {
                result.reasons.append(.noTurnSeen)
            }
        } else {
            result.turn = turnPair.map { abs($0.turned.yaw - $0.reference.yaw) }
            result.reasons.append(.noTurnSeen)
        }
        result.score = score(result)
        result.decision =
            result.reasons.isEmpty ? .live
            : result.reasons.contains(where: \.isEvidenceOfAttack) ? .attack : .notPossible
        return result
    }

    /// Each check's margin over its threshold as a part of the threshold; the score is the
    /// smallest, through a logistic: 0.5 at the thresholds, towards 1 above all of them.
    private func score(_ result: LivenessResult) -> Double {
        let margins = [
            result.response.map { $0 / settings.minimumResponse - 1 },
            result.correlation.map { $0 / settings.minimumCorrelation - 1 },
            result.parallax.map { $0 / settings.minimumParallax - 1 },
        ]
        guard margins.allSatisfy({ $0 != nil }) else { return 0 }
        let least = margins.compactMap { $0 }.min() ?? -1
        return 1 / (1 + exp(-4 * least))
    }

    struct Fit {
        /// The LED's effect as a part of the unlit brightness.
        var relative: Double
        /// Correlation of the brightness, drift removed, with the LED.
        var correlation: Double
    }

    /// Least squares of `y = a + b·t + c·lit` over the samples that have the region.
    static func fit(_ samples: [Sample], _ region: KeyPath<FaceRegions.Means, Double?>) -> Fit? {
        let rows = samples.compactMap { s in s.means[keyPath: region].map { (t: Double(s.index), lit: s.lit ? 1.0 : 0.0, y: $0) } }
        guard rows.count >= 6, rows.contains(where: { $0.lit == 1 }), rows.contains(where: { $0.lit == 0 }) else { return nil }
        // Normal equations of the 3-parameter fit.
        var m = [[Double]](repeating: [0, 0, 0], count: 3), v = [0.0, 0, 0]
        for row in rows {
            let x = [1, row.t, row.lit]
            for i in 0..<3 {
                v[i] += x[i] * row.y
                for j in 0..<3 { m[i][j] += x[i] * x[j] }
            }
        }
        guard let coefficients = solve3(m, v) else { return nil }
        let (b, c) = (coefficients[1], coefficients[2])
        let unlit = rows.filter { $0.lit == 0 }.map { $0.y - b * $0.t }.reduce(0, +) / Double(rows.filter { $0.lit == 0 }.count)
        let detrended = rows.map { $0.y - b * $0.t }
        return Fit(relative: unlit > 1 ? c / unlit : 0, correlation: pearson(detrended, rows.map(\.lit)))
    }

    static func pearson(_ x: [Double], _ y: [Double]) -> Double {
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in x.indices {
            sxy += (x[i] - mx) * (y[i] - my)
            sxx += (x[i] - mx) * (x[i] - mx)
            syy += (y[i] - my) * (y[i] - my)
        }
        return sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : 0
    }

    /// Gaussian elimination with partial pivoting; nil for a singular system.
    static func solve3(_ m: [[Double]], _ v: [Double]) -> [Double]? {
        var a = m, b = v
        for col in 0..<3 {
            guard let pivot = (col..<3).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-9 else { return nil }
            a.swapAt(col, pivot)
            b.swapAt(col, pivot)
            for row in (col + 1)..<3 {
                let f = a[row][col] / a[col][col]
                for k in col..<3 { a[row][k] -= f * a[col][k] }
                b[row] -= f * b[col]
            }
        }
        var x = [0.0, 0, 0]
        for row in stride(from: 2, through: 0, by: -1) {
            var s = b[row]
            for k in (row + 1)..<3 { s -= a[row][k] * x[k] }
            x[row] = s / a[row][row]
        }
        return x
    }
}

/// What the liveness checks found (``LivenessAnalyzer``): the evidence a journey uploads.
public struct LivenessResult: Hashable, Sendable, Codable {
    public enum Decision: String, Hashable, Sendable, Codable {
        case live
        /// A check failed on enough frames: the evidence speaks against a live face.
        case attack
        /// Too little was seen to decide (too few frames, no turn): ask again.
        case notPossible
    }

    public enum Reason: String, Hashable, Sendable, Codable {
        case tooFewFrames
        case noLightResponse
        case outOfStepWithLight
        case noTurnSeen
        case planarMotion

        /// Whether the reason is evidence of an attack rather than a lack of evidence.
        public var isEvidenceOfAttack: Bool { self != .tooFewFrames && self != .noTurnSeen }
    }

    public var framesMeasured = 0
    /// The face's brightening when lit, as a part of its unlit brightness.
    public var response: Double?
    public var correlation: Double?
    public var backgroundResponse: Double?
    /// |ln| of nose and forehead's relative brightening over the cheeks'.
    public var relief: Double?
    /// Degrees of yaw between the first and the most turned frame.
    public var turn: Double?
    /// 90th-percentile distance of the tracked points from one plane, as a part of the face's width.
    public var parallax: Double?
    /// The median of the same distances.
    public var parallaxMedian: Double?
    public var trackedPoints: Int?
    /// 0...1, 0.5 at the thresholds.
    public var score = 0.0
    public var decision = Decision.notPossible
    public var reasons: [Reason] = []

    public init() {}
}
