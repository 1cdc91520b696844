public import Imaging

/// A face as dlib's face recognition ResNet describes it: 128 numbers whose Euclidean
/// distance is small for two images of one person (dlib reports 99.38 % on LFW with pairs
/// under 0.6 called the same person).
public struct FaceEmbedding: Hashable, Sendable, Codable {
    public var values: [Float]

    public init(values: [Float]) {
        self.values = values
    }

    public func distance(to other: FaceEmbedding) -> Double {
        guard values.count == other.values.count else { return .infinity }
        var sum = 0.0
        for i in values.indices {
            let d = Double(values[i] - other.values[i])
            sum += d * d
        }
        return sum.squareRoot()
    }

    /// Zeroes the values (a session's end: embeddings are personal data).
    public mutating func wipe() {
        for i in values.indices { values[i] = 0 }
        values.removeAll()
    }
}

extension FaceModels {
    /// The aligned chip of a face: 150x150, rotated and scaled from its five landmarks the
    /// way the network was trained (dlib's face chip, padding 0.25).
    public func chip(of image: RGBImage, landmarks: FaceLandmarks) throws(VisionError) -> RGBImage {
        try Dlib.chip(of: image, points: landmarks.dlibOrder, size: Dlib.chipSize, padding: 0.25).get()
    }

    /// The embedding of the face with these landmarks in `image`.
    public func embedding(of image: RGBImage, landmarks: FaceLandmarks) throws(VisionError) -> FaceEmbedding {
        FaceEmbedding(values: try embedding(ofChip: try chip(of: image, landmarks: landmarks)))
    }

    /// The embedding of the face `detector` is surest of in `image`; nil when it finds none
    /// with landmarks (`detector` must hold these models).
    public func embedding(ofSurestFaceIn image: RGBImage, detector: FaceDetector) throws(VisionError) -> FaceEmbedding? {
        guard let landmarks = try detector.observe(LumaImage(image)).face?.landmarks else { return nil }
        return try embedding(of: image, landmarks: landmarks)
    }
}

/// Whether two faces are one person: the embeddings' distance against a threshold, with a
/// band around it that a person at the backend should look at.
public struct FaceMatcher: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Distances below this are one person (dlib's 0.6).
        public var threshold = 0.6
        /// Distances within this of the threshold go to staff review.
        public var reviewBand = 0.04

        public init() {}
    }

    public enum Decision: String, Hashable, Sendable, Codable {
        case match
        case review
        case noMatch
    }

    public struct Result: Hashable, Sendable, Codable {
        public var distance: Double
        /// 1 for identical embeddings, 0.5 at the threshold, 0 at twice the threshold or more.
        public var similarity: Double
        public var decision: Decision
    }

    public let settings: Settings

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public func compare(_ a: FaceEmbedding, _ b: FaceEmbedding) -> Result {
        let distance = a.distance(to: b)
        let similarity = min(1, max(0, 1 - distance / (2 * settings.threshold)))
        let decision: Decision =
            distance < settings.threshold - settings.reviewBand ? .match
            : distance <= settings.threshold + settings.reviewBand ? .review : .noMatch
        return Result(distance: distance, similarity: distance.isFinite ? similarity : 0, decision: decision)
    }
}
