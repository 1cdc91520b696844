public import Capture
import Yams

extension Configuration {
    /// What the station's vision needs: where its model files are, and the thresholds of
    /// the document guidance (docs/vision.md explains each).
    public struct VisionSection: Hashable, Sendable {
        /// The folder holding the vision models (`make vision-models` writes one).
        public var models = "/usr/share/idkiosk/models"
        public var document = DocumentVisionSection()
        public var face = FaceVisionSection()
        /// Frames a second the analysis must keep up with; under it automatic capture gives
        /// way to the manual fallback (the seeds' `fallback(lowPerformance)`).
        public var minimumAnalysedFramesPerSecond = 4
    }

    /// The face guidance and the liveness checks (docs/faces.md explains each).
    public struct FaceVisionSection: Hashable, Sendable {
        /// The face's width as a part of the frame's, in percent: the band it should be in.
        public var minimumWidthPercent = 18
        public var maximumWidthPercent = 50
        /// The farthest the face's centre may be from the frame's, in percent.
        public var maximumCentreOffsetPercent = 15
        /// The most roll and yaw, in degrees.
        public var maximumRoll = 10
        public var maximumYaw = 15
        /// The least brightening of the face when the LED is lit, in percent.
        public var minimumResponsePercent = 5
        /// The least correlation of the face's brightness with the LED, in hundredths.
        public var minimumCorrelationPercent = 80
        /// The least parallax of a head turn, in tenths of a percent of the face's width.
        public var minimumParallaxPermille = 12
        /// The least head turn for the parallax check, in degrees.
        public var minimumTurn = 6
        /// The face match (the chip's portrait against the best face image): the embedding
        /// distance below which two faces are one person, and the band around it that goes to
        /// staff review, in thousandths.
        public var matchThresholdPermille = 600
        public var matchReviewPermille = 40
    }

    public struct DocumentVisionSection: Hashable, Sendable {
        /// The camera's horizontal field of view, in degrees.
        public var fieldOfView = 60
        /// The least part of the frame a document covers, in percent.
        public var minimumAreaPercent = 12
        /// The farthest a document's centre may be from the frame's, in percent of its width.
        public var maximumCentreOffsetPercent = 18
        /// The most tilt out of the image plane, in degrees.
        public var maximumTilt = 15
        /// The most rotation in the image plane, in degrees.
        public var maximumRotation = 12
        /// Frames over which the corners must stay still.
        public var stillFrames = 3
        /// The most a corner may move over those frames, in thousandths of the document's diagonal.
        public var maximumCornerMotionPermille = 15
        /// The least sharpness of the document's corrected region.
        public var minimumSharpness = 60
        /// An ID document: the least balance of its weakest direction's sharpness over its
        /// strongest, in percent (below it, blurred by motion: `holdStill`).
        public var minimumSharpnessBalancePercent = 28
        /// A page of print (a paper document): the least sharpness in its weakest direction,
        /// and the least balance of the weakest over the strongest direction, in percent.
        public var minimumPageSharpness = 4
        public var minimumPageSharpnessBalancePercent = 35
        /// Frames in a row the document must be ready for before it is taken.
        public var readyFrames = 3
        /// Seconds a page with an MRZ may lie ready before it is taken without a key read
        /// (the person is then asked to type the chip's key).
        public var mrzTimeoutSeconds = 4
        /// Seconds the back of a card in `barcode` mode may be looked at without its PDF417
        /// decoding: then the seeds' Z (the front is still shown) or the fallback (manual) mode.
        public var barcodeTimeoutSeconds = 10
    }

    static func parseVision(_ node: Node, into config: inout Configuration, _ r: NodeReader) throws(ConfigurationError) {
        let vision = try r.mapping(node, at: "vision", allowed: ["models", "document", "face", "min-analysed-fps"])
        if let models = vision["models"] {
            config.vision.models = try r.string(models, at: "vision.models", allowed: "an absolute path") { $0.hasPrefix("/") }
        }
        if let fps = vision["min-analysed-fps"] {
            config.vision.minimumAnalysedFramesPerSecond = try r.integer(fps, at: "vision.min-analysed-fps", in: 1...30)
        }
        if let node = vision["face"] {
            let keys: [(String, WritableKeyPath<FaceVisionSection, Int>, ClosedRange<Int>)] = [
                ("min-width-percent", \.minimumWidthPercent, 5...90),
                ("max-width-percent", \.maximumWidthPercent, 10...100),
                ("max-centre-offset-percent", \.maximumCentreOffsetPercent, 1...50),
                ("max-roll", \.maximumRoll, 1...45),
                ("max-yaw", \.maximumYaw, 1...45),
                ("min-response-percent", \.minimumResponsePercent, 1...100),
                ("min-correlation-percent", \.minimumCorrelationPercent, 10...100),
                ("min-parallax-permille", \.minimumParallaxPermille, 1...200),
                ("min-turn", \.minimumTurn, 2...30),
                ("match-threshold-permille", \.matchThresholdPermille, 100...1500),
                ("match-review-permille", \.matchReviewPermille, 0...300),
            ]
            let face = try r.mapping(node, at: "vision.face", allowed: keys.map(\.0))
            for (name, path, range) in keys {
                if let value = face[name] { config.vision.face[keyPath: path] = try r.integer(value, at: "vision.face.\(name)", in: range) }
            }
            guard config.vision.face.minimumWidthPercent < config.vision.face.maximumWidthPercent else {
                throw ConfigurationError(
                    file: r.file, key: "vision.face.min-width-percent", value: "\(config.vision.face.minimumWidthPercent)",
                    problem: .invalidValue(allowed: "below vision.face.max-width-percent"))
            }
        }
        guard let node = vision["document"] else { return }
        let keys: [(String, WritableKeyPath<DocumentVisionSection, Int>, ClosedRange<Int>)] = [
            ("field-of-view", \.fieldOfView, 20...170),
            ("min-area-percent", \.minimumAreaPercent, 1...90),
            ("max-centre-offset-percent", \.maximumCentreOffsetPercent, 1...50),
            ("max-tilt", \.maximumTilt, 1...60),
            ("max-rotation", \.maximumRotation, 1...45),
            ("still-frames", \.stillFrames, 1...30),
            ("max-corner-motion-permille", \.maximumCornerMotionPermille, 1...200),
            ("min-sharpness", \.minimumSharpness, 0...100_000),
            ("min-sharpness-balance-percent", \.minimumSharpnessBalancePercent, 0...100),
            ("min-page-sharpness", \.minimumPageSharpness, 0...100_000),
            ("min-page-sharpness-balance-percent", \.minimumPageSharpnessBalancePercent, 0...100),
            ("ready-frames", \.readyFrames, 1...30),
            ("mrz-timeout", \.mrzTimeoutSeconds, 1...60),
            ("barcode-timeout", \.barcodeTimeoutSeconds, 2...120),
        ]
        let document = try r.mapping(node, at: "vision.document", allowed: keys.map(\.0))
        for (name, path, range) in keys {
            if let value = document[name] { config.vision.document[keyPath: path] = try r.integer(value, at: "vision.document.\(name)", in: range) }
        }
    }
}

extension Configuration.DocumentVisionSection {
    /// Sets the camera's document finding and guidance from this section.
    public func apply(to settings: inout CameraCapture.Settings) {
        settings.documentFinder.horizontalFieldOfView = Double(fieldOfView)
        settings.documentGuidance.minimumArea = Double(minimumAreaPercent) / 100
        settings.documentGuidance.maximumCentreOffset = Double(maximumCentreOffsetPercent) / 100
        settings.documentGuidance.maximumTilt = Double(maximumTilt)
        settings.documentGuidance.maximumRotation = Double(maximumRotation)
        settings.documentGuidance.stillFrames = stillFrames
        settings.documentGuidance.maximumCornerMotion = Double(maximumCornerMotionPermille) / 1000
        settings.documentGuidance.minimumSharpness = Double(minimumSharpness)
        settings.documentGuidance.minimumSharpnessBalance = Double(minimumSharpnessBalancePercent) / 100
        settings.documentGuidance.minimumPageSharpness = Double(minimumPageSharpness)
        settings.documentGuidance.minimumPageSharpnessBalance = Double(minimumPageSharpnessBalancePercent) / 100
        settings.documentReadyFrames = readyFrames
        settings.mrzTimeout = .seconds(mrzTimeoutSeconds)
        settings.barcodeTimeout = .seconds(barcodeTimeoutSeconds)
    }
}

extension Configuration.FaceVisionSection {
    /// Sets the camera's face guidance and liveness checks from this section.
    public func apply(to settings: inout CameraCapture.Settings) {
        settings.faceGuidance.minimumWidth = Double(minimumWidthPercent) / 100
        settings.faceGuidance.maximumWidth = Double(maximumWidthPercent) / 100
        settings.faceGuidance.maximumCentreOffset = Double(maximumCentreOffsetPercent) / 100
        settings.faceGuidance.maximumRoll = Double(maximumRoll)
        settings.faceGuidance.maximumYaw = Double(maximumYaw)
        settings.liveness.minimumResponse = Double(minimumResponsePercent) / 100
        settings.liveness.minimumCorrelation = Double(minimumCorrelationPercent) / 100
        settings.liveness.minimumParallax = Double(minimumParallaxPermille) / 1000
        settings.liveness.minimumTurn = Double(minimumTurn)
        settings.faceMatch.threshold = Double(matchThresholdPermille) / 1000
        settings.faceMatch.reviewBand = Double(matchReviewPermille) / 1000
    }
}
