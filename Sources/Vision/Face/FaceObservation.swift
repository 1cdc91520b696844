/// What one frame shows of faces: each face found, best first.
public struct FaceObservation: Hashable, Sendable {
    /// The frame's size in pixels.
    public var width: Int
    public var height: Int
    public var faces: [Face]

    public init(width: Int, height: Int, faces: [Face]) {
        self.width = width
        self.height = height
        self.faces = faces
    }

    /// The face the analysis follows: the one the detector is surest of (the person in
    /// front of the camera; a weak detection on a badge or a print is not taken for them).
    public var face: Face? { faces.first }

    public struct Face: Hashable, Sendable {
        public var box: FaceBox
        /// The HOG detector's margin: above 0 is a detection, larger is surer.
        public var confidence: Double
        /// The five landmarks; nil without the landmark model.
        public var landmarks: FaceLandmarks?
        public var quality: FaceQuality

        public init(box: FaceBox, confidence: Double, landmarks: FaceLandmarks?, quality: FaceQuality) {
            self.box = box
            self.confidence = confidence
            self.landmarks = landmarks
            self.quality = quality
        }
    }
}

/// Light and sharpness measured on a face's own region, not on the whole frame.
public struct FaceQuality: Hashable, Sendable {
    /// Mean luma inside the face box, 0…255.
    public var brightness: Double
    /// Mean luma of a band around the face box, 0…255: much brighter than the face is a
    /// light behind the person (backlight).
    public var surround: Double
    /// Variance of the Laplacian inside the face box (``LumaStatistics``).
    public var sharpness: Double
    /// Whether the box lies wholly inside the frame.
    public var whole: Bool

    public init(brightness: Double, surround: Double, sharpness: Double, whole: Bool) {
        self.brightness = brightness
        self.surround = surround
        self.sharpness = sharpness
        self.whole = whole
    }
}
