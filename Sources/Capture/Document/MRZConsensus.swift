import MRTD
public import ScanFlow
public import Vision

/// Agreement of MRZ reads across frames: the chip key is taken only from a zone that
/// two frames read identically, with every check digit holding.
///
/// Fed one ``MRZReading`` per frame (or nil when the frame showed no MRZ). A read whose
/// check digits fail, that `MRTD.MRZ` does not parse, or whose recogniser was unsure (its
/// mean or its key's least confidence under the settings' floors, or a second guess at some
/// of the key's characters that the check digits would pass as well) is no candidate: one
/// check digit alone guards the alphanumeric document number (the composite repeats its
/// weights), so misreads there cancel one time in ten. Distinct
/// candidates are kept ordered by (frames agreeing, mean confidence), so when the chip
/// refuses a key the station can try the next one, then ask the person. Nothing here
/// logs: the lines are personal data.
public struct MRZConsensus: Sendable {
    /// One distinct zone read.
    public struct Candidate: Sendable, CustomStringConvertible, CustomReflectable {
        /// The lines as read (personal data).
        public let lines: [String]
        /// The key the zone makes.
        public let key: ChipAccessKey
        /// How many frames read exactly these lines.
        public fileprivate(set) var agreement: Int
        fileprivate(set) var confidenceSum: Double

        public var meanConfidence: Double { confidenceSum / Double(max(1, agreement)) }

        public var description: String { "MRZConsensus.Candidate(agreement: \(agreement), lines: <redacted>)" }
        public var customMirror: Mirror { Mirror(self, children: [:]) }
    }

    /// When a read counts.
    public struct Settings: Sendable, Hashable {
        /// Frames that must read the same lines before a candidate is accepted.
        public var requiredAgreement = 2
        /// The least mean confidence of a read's characters. Measured on the generated crops
        /// and on crops of the dev and train scenes at corners moved by up to 15 px: reads
        /// with the right key had 0.907 and more, the two with a wrong key that passed every
        /// check digit 0.875 and 0.876 (docs/vision-models.md).
        public var minimumMeanConfidence: Float = 0.9
        /// The least confidence of any character of the key (right keys: 0.436 and more).
        public var minimumKeyConfidence: Float = 0.4
        /// A read whose key's check digits would also hold with the second guess at some of
        /// its characters, each second guess at least this likely, is no candidate
        /// (``MRZReading/keyIsAmbiguous(secondConfidence:positions:)``: O/0 misreads that cancel).
        public var ambiguousSecondConfidence: Float = 0.05

        public init() {}
    }

    public let settings: Settings
    private var candidates: [Candidate] = []
    private var refused: [ChipAccessKey] = []

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// One frame's read is enough (a still).
    public static var oneFrame: MRZConsensus {
        var settings = Settings()
        settings.requiredAgreement = 1
        return MRZConsensus(settings: settings)
    }

    private var requiredAgreement: Int { max(1, settings.requiredAgreement) }

    /// Adds one frame's read.
    /// - Returns: whether this read made a candidate accepted (reached the agreement now).
    @discardableResult
    public mutating func add(_ reading: MRZReading?) -> Bool {
        guard let reading, reading.allCheckDigitsHold, reading.meanConfidence >= settings.minimumMeanConfidence,
              reading.keyConfidence >= settings.minimumKeyConfidence,
              !reading.keyIsAmbiguous(secondConfidence: settings.ambiguousSecondConfidence)
        else { return false }
        let lines = reading.text
        let confidence = Double(reading.meanConfidence)
        if let index = candidates.firstIndex(where: { $0.lines == lines }) {
            candidates[index].agreement += 1
            candidates[index].confidenceSum += confidence
            return candidates[index].agreement == requiredAgreement
        }
        guard let key = ChipAccessKey(mrzLines: lines) else { return false }
        candidates.append(Candidate(lines: lines, key: key, agreement: 1, confidenceSum: confidence))
        return requiredAgreement == 1
    }

    /// The accepted candidates, best first: most frames agreeing, then highest mean confidence.
    public var accepted: [Candidate] {
        candidates.filter { $0.agreement >= requiredAgreement }.sorted {
            ($0.agreement, $0.meanConfidence) > ($1.agreement, $1.meanConfidence)
        }
    }

    /// The best accepted key not refused by the chip yet; nil when there is none (keep
    /// reading frames, or ask the person when none comes in time).
    public var nextKey: ChipAccessKey? {
        accepted.first { !refused.contains($0.key) }?.key
    }

    /// The distinct accepted keys not refused yet, best first: the chip part tries them in turn.
    public var keys: [ChipAccessKey] {
        var keys: [ChipAccessKey] = []
        for candidate in accepted where !refused.contains(candidate.key) && !keys.contains(candidate.key) { keys.append(candidate.key) }
        return keys
    }

    /// Records that the chip refused `key`: ``nextKey`` moves to the next distinct key.
    public mutating func refuse(_ key: ChipAccessKey) {
        if !refused.contains(key) { refused.append(key) }
    }

    /// Forgets every read (a new document, or the journey ended).
    public mutating func reset() {
        candidates.removeAll()
        refused.removeAll()
    }
}
