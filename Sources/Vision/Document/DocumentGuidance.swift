/// What to tell the person holding a document, one thing at a time, from the observations
/// of successive frames.
///
/// The order is fixed, the first that applies wins (docs/vision.md explains each threshold):
/// 1. nothing found: `centerId` (but `tooClose` for a page-like region cut by the frame's
///    edge, whose shape cannot be told: ``DocumentObservation/cutOff``)
/// 2. cut by the frame's edge: `tooClose`
/// 3. too small: `moveCloser`
/// 4. off-centre: `centerId`
/// 5. tilted out of the image plane: `tilt(current:target:)`
/// 6. rotated in the image plane: `holdStraight` (a page of print is level portrait or landscape)
/// 7. corners moving over the last frames, or the region blurred: `holdStill`
/// 8. otherwise `ready`.
public struct DocumentGuidance: Sendable {
    public enum State: Hashable, Sendable {
        case centerId
        case tooClose
        case moveCloser
        /// The document's tilt and the most it may have, in whole degrees.
        case tilt(current: Int, target: Int)
        case holdStraight
        case holdStill
        case ready
    }

    public struct Settings: Hashable, Sendable {
        /// The least part of the frame the document covers.
        public var minimumArea = 0.12
        /// The farthest the document's centre may be from the frame's, as a part of its width.
        public var maximumCentreOffset = 0.18
        /// The most tilt out of the image plane, in degrees.
        public var maximumTilt = 15.0
        /// The most rotation in the image plane, in degrees.
        public var maximumRotation = 12.0
        /// Frames over which the corners must stay still.
        public var stillFrames = 3
        /// The most a corner may move over those frames, as a part of the document's diagonal.
        public var maximumCornerMotion = 0.015
        /// The least sharpness of the corrected region (``DocumentQuality/sharpness``).
        public var minimumSharpness = 60.0
        /// An ID document: the least balance of its weakest direction's sharpness over its
        /// strongest (``DirectionalSharpness/balance``): a document blurred by motion along
        /// one direction is not ready, however sharp it is across it (docs/vision.md).
        public var minimumSharpnessBalance = 0.28
        /// A page of print: the least sharpness in its weakest direction
        /// (``DirectionalSharpness/least``: defocus) and the least balance of the weakest
        /// over the strongest (``DirectionalSharpness/balance``: motion). The page's
        /// absolute sharpness swings with the print on it and the light, so pages are
        /// judged by these instead of `minimumSharpness` (docs/vision.md).
        public var minimumPageSharpness = 4.0
        public var minimumPageSharpnessBalance = 0.35

        public init() {}
    }

    public let settings: Settings
    private var recent: [Quadrilateral] = []

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The guidance for the next frame's observation.
    public mutating func observe(_ observation: DocumentObservation) -> State {
        guard let document = observation.document else {
            recent.removeAll()
            return observation.cutOff ? .tooClose : .centerId
        }
        recent.append(document.quadrilateral)
        if recent.count > settings.stillFrames { recent.removeFirst(recent.count - settings.stillFrames) }
        return Self.state(of: document, recent: recent, settings: settings)
    }

    /// Starts again (a new document, a new side).
    public mutating func reset() {
        recent.removeAll()
    }

    /// Whether `document` is placed well enough to take, stillness aside (the preview's
    /// outline turns green).
    public static func isPlaced(_ document: DocumentObservation.Found, settings: Settings) -> Bool {
        state(of: document, recent: Array(repeating: document.quadrilateral, count: settings.stillFrames), settings: settings) == .ready
    }

    /// How far the document is turned from level, in degrees: an ID document lies with its
    /// long side across; a page of print lies portrait or landscape, so it is level at either.
    static func rotation(of document: DocumentObservation.Found) -> Double {
        let rotation = document.pose.rotationDegrees.magnitude
        guard document.documentClass.isPage else { return rotation }
        return min(rotation, (90 - rotation).magnitude)
    }

    /// The guidance for one observation, with the quadrilaterals of the frames before it.
    static func state(of document: DocumentObservation.Found, recent: [Quadrilateral], settings: Settings) -> State {
        if !document.whole { return .tooClose }
        if document.areaFraction < settings.minimumArea { return .moveCloser }
        if document.centreOffset > settings.maximumCentreOffset { return .centerId }
        if document.pose.tiltDegrees > settings.maximumTilt {
            return .tilt(current: Int(document.pose.tiltDegrees.rounded()), target: Int(settings.maximumTilt.rounded()))
        }
        if Self.rotation(of: document) > settings.maximumRotation { return .holdStraight }
        let motion = recent.map { document.quadrilateral.largestCornerMotion(from: $0) }.max() ?? 0
        if recent.count < settings.stillFrames || motion > settings.maximumCornerMotion * document.quadrilateral.diagonal {
            return .holdStill
        }
        if let quality = document.quality, !isSharp(quality, page: document.documentClass.isPage, settings: settings) { return .holdStill }
        return .ready
    }

    /// Whether a region is sharp enough to take: an ID document by its Laplacian and the
    /// balance of its directions, a page by its sharpness in every direction.
    public static func isSharp(_ quality: DocumentQuality, page: Bool, settings: Settings) -> Bool {
        guard page else {
            let balanced = quality.directional.map { $0.balance >= settings.minimumSharpnessBalance } ?? true
            return quality.sharpness >= settings.minimumSharpness && balanced
        }
        guard let directional = quality.directional else { return quality.sharpness >= settings.minimumSharpness }
        return directional.least >= settings.minimumPageSharpness && directional.balance >= settings.minimumPageSharpnessBalance
    }
}
