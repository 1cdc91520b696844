extension Scan {
    /// Information shown while a part is scanned; it needs no answer (seeds: `Jumio.Scan.Update`).
    public enum Update: Hashable, Sendable {
        /// The part switched to its fallback mode.
        case fallback(FallbackReason)
        case nfcExtractionStarted
        /// Chip reading progress, 0...100.
        case nfcExtractionProgress(Int)
        case nfcExtractionFinished
        /// Guidance for the document or face in front of the camera.
        case extractionState(ExtractionState)
        case flash(FlashState)
        /// One image of a multi-image part was taken; show the next position. A document's
        /// pages say how many are taken and how many the part takes at most (nil otherwise).
        case nextPosition(ImageCount?)
        /// The camera became available or unavailable.
        case cameraAvailable(Bool)
        /// A legal notice the country requires before scanning (seed 002 "legal advice").
        case legalHint(String)
    }

    /// How far a part that takes several images (a paper document's pages) got.
    public struct ImageCount: Hashable, Sendable, Codable {
        /// Images taken so far, 1 after the first.
        public var taken: Int
        /// The most the part takes: the part ends by itself when `taken` reaches it.
        public var maximum: Int

        public init(taken: Int, maximum: Int) {
            self.taken = taken
            self.maximum = maximum
        }
    }

    /// Why a part switched to its fallback mode.
    public enum FallbackReason: String, Hashable, Sendable, Codable, CaseIterable {
        /// The person asked for it.
        case userAction
        /// Automatic capture did not work on this station or document.
        case lowPerformance
    }

    /// Whether the flash LED is lit.
    public enum FlashState: String, Hashable, Sendable, Codable, CaseIterable {
        case on
        case off
    }

    /// The direction to turn the face towards.
    public enum Direction: String, Hashable, Sendable, Codable, CaseIterable {
        case up
        case down
        case left
        case right
    }

    /// Guidance for the person in front of the camera.
    public enum ExtractionState: Hashable, Sendable {
        case centerId
        case tooClose
        case moveCloser
        case holdStraight
        case holdStill
        /// The current and target tilt angle in degrees.
        case tilt(current: Int, target: Int)
        case centerFace
        case levelEyesAndDevice
        case tiltFace(Direction)
    }
}
