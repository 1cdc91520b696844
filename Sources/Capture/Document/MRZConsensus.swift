import MRTD
public import ScanFlow
public import Vision

/// Agreement of MRZ reads across frames: the chip key is taken only from a zone that
/// two frames read identically, with every check digit holding.
///
/// Fed one ``MRZReading`` per frame (or nil when the frame showed no MRZ). A read whose
/// check digits fail, or that `MRTD.MRZ` does not parse, is no candidate. Distinct
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

    /// Frames that must read the same lines before a candidate is accepted.
    public let requiredAgreement: Int
    private var candidates: [Candidate] = []
    private var refused: [ChipAccessKey] = []

    public init(requiredAgreement: Int = 2) {
        self.requiredAgreement = max(1, requiredAgreement)
    }

    /// Adds one frame's read.
    /// - Returns: whether this read made a candidate accepted (reached the agreement now).
    @discardableResult
    public mutating func add(_ reading: MRZReading?) -> Bool {
        guard let reading, reading.allCheckDigitsHold else { return false }
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
