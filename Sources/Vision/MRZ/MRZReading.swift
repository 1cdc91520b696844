/// What the MRZ reader saw on one document crop: the lines with every character's best
/// and second-best guess, the layout and the check digits.
///
/// All of it is personal data: `description` and reflection are redacted; print
/// ``allCheckDigitsHold`` or the confidences, never the text.
public struct MRZReading: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The ICAO 9303 layout by its size: TD1 3x30, TD2 2x36, TD3 2x44.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case td1 = "TD1", td2 = "TD2", td3 = "TD3"

        /// Lines and characters per line.
        public var lineCount: Int { self == .td1 ? 3 : 2 }
        public var lineLength: Int {
            switch self {
            case .td1: 30
            case .td2: 36
            case .td3: 44
            }
        }
    }

    /// One character position.
    public struct Character: Sendable, Hashable {
        /// The most probable character the field type allows there (ASCII).
        public var best: UInt8
        /// The classifier's probability of `best`, 0...1 (over all 37 characters).
        public var confidence: Float
        /// The next most probable allowed character and its probability.
        public var second: UInt8
        public var secondConfidence: Float

        public init(best: UInt8, confidence: Float, second: UInt8, secondConfidence: Float) {
            self.best = best
            self.confidence = confidence
            self.second = second
            self.secondConfidence = secondConfidence
        }
    }

    /// A check digit of the zone: the digit printed and the one computed from the field.
    public struct CheckDigit: Sendable, Hashable {
        public enum Field: String, Sendable, Hashable {
            case documentNumber, birthDate, expiryDate, optionalData, composite
        }

        public var field: Field
        /// The character read at the check digit's position (ASCII).
        public var read: UInt8
        /// The 7-3-1 digit of the characters read in the field (ASCII `0`...`9`).
        public var computed: UInt8
        /// Whether they agree (a filler stands for 0 where ICAO allows it).
        public var holds: Bool
    }

    public var format: Format
    /// The lines, top to bottom as printed.
    public var lines: [[Character]]
    /// Whether the MRZ was found on the crop turned by 180 degrees (an upside-down document).
    public var upsideDown: Bool
    public init(format: Format, lines: [[Character]], upsideDown: Bool) {
        self.format = format
        self.lines = lines
        self.upsideDown = upsideDown
    }

    /// Every check digit of the layout, in the order ICAO lists them, computed from the
    /// characters read.
    public var checkDigits: [CheckDigit] { MRZLayout.checkDigits(format: format, lines: lines.map { $0.map(\.best) }) }

    /// The lines as text (personal data).
    public var text: [String] { lines.map { String(decoding: $0.map(\.best), as: UTF8.self) } }

    /// Whether every check digit holds.
    public var allCheckDigitsHold: Bool { !checkDigits.isEmpty && checkDigits.allSatisfy(\.holds) }

    /// The mean probability of the characters read.
    public var meanConfidence: Float {
        let all = lines.joined()
        return all.isEmpty ? 0 : all.reduce(0) { $0 + $1.confidence } / Float(all.count)
    }

    /// The least probable character's probability among those of the chip key (document
    /// number, dates of birth and expiry, their check digits): one check digit alone guards
    /// the document number (the composite repeats its weights), so errors there can cancel.
    public var keyConfidence: Float {
        MRZLayout.keyPositions(format: format, lines: lines.map { $0.map(\.best) }).map { lines[$0.0][$0.1].confidence }.min() ?? 0
    }

    /// The least probable character's probability.
    public var minimumConfidence: Float { lines.joined().map(\.confidence).min() ?? 0 }

    /// Whether the check digits cannot tell this read of the chip key from another one the
    /// classifier found nearly as likely: taking the second guess at some of the key's
    /// characters where it had at least `secondConfidence` (at most `positions` of them, the
    /// likeliest) also makes every check digit hold. Two O/0 confusions in a document number
    /// whose 7-3-1 weights add up to a multiple of five cancel in its check digit, and so
    /// does one between characters whose values differ by ten (A and 0, O and 4): such a
    /// read is no evidence of either key, and is not taken.
    public func keyIsAmbiguous(secondConfidence: Float, positions: Int = 8) -> Bool {
        let text = lines.map { $0.map(\.best) }
        let doubtful = MRZLayout.keyPositions(format: format, lines: text)
            .filter { lines[$0.0][$0.1].second != lines[$0.0][$0.1].best && lines[$0.0][$0.1].secondConfidence >= secondConfidence }
            .sorted { lines[$0.0][$0.1].secondConfidence > lines[$1.0][$1.1].secondConfidence }
            .prefix(max(0, min(positions, 12)))
        guard !doubtful.isEmpty else { return false }
        for choice in 1..<(1 << doubtful.count) {
            var other = text
            for (bit, (line, position)) in doubtful.enumerated() where choice & (1 << bit) != 0 {
                other[line][position] = lines[line][position].second
            }
            let digits = MRZLayout.checkDigits(format: format, lines: other)
            if !digits.isEmpty, digits.allSatisfy(\.holds) { return true }
        }
        return false
    }

    public var description: String {
        "MRZReading(\(format.rawValue), upsideDown: \(upsideDown), checkDigits: \(checkDigits.filter(\.holds).count)/\(checkDigits.count), text: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
