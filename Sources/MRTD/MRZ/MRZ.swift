/// A machine readable zone (ICAO Doc 9303 Parts 3–7), parsed and with every check digit verified.
///
/// Layouts: TD1 (3×30), TD2 (2×36), TD3 (2×44), and the visas MRV-A (2×44) and MRV-B
/// (2×36). Document numbers longer than nine characters are read from their overflow
/// in the optional data (TD1, TD2). Everything here is personal data: `description`,
/// `debugDescription` and reflection are redacted.
public struct MRZ: Hashable, Sendable {
    /// The physical layout of the zone.
    public enum Format: String, Hashable, Sendable {
        case td1 = "TD1", td2 = "TD2", td3 = "TD3"
        case mrvA = "MRV-A", mrvB = "MRV-B"
    }

    /// The holder's sex as the MRZ encodes it.
    public enum Sex: String, Hashable, Sendable {
        case female = "F", male = "M", unspecified = "X"
    }

    public let format: Format
    /// The document code without fillers: `P`, `I`, `ID`, `V`, `AC`…
    public let documentCode: String
    public let issuingState: String
    public let name: MRZName
    /// The full document number without filler characters, overflow included.
    public let documentNumber: String
    public let nationality: String
    /// `YYMMDD`, with `<` where the date of birth is unknown.
    public let birthDate: String
    public let sex: Sex
    /// `YYMMDD`.
    public let expiryDate: String
    /// The optional data (TD3: personal number) without fillers; for TD1 the part of
    /// line 1 that follows any document number overflow.
    public let optionalData: String
    /// TD1 only: the optional data of line 2, without fillers.
    public let optionalData2: String

    /// The document number exactly as it enters the key: the nine characters of the
    /// field with their fillers, or the whole overflowing number.
    private let keyDocumentNumber: String

    /// The BAC key of this document.
    public var key: MRZKey {
        MRZKey(checkedDocumentNumber: keyDocumentNumber, birthDate: birthDate, expiryDate: expiryDate)
    }

    /// Parses and checks a zone.
    ///
    /// - Parameter text: the lines separated by line breaks, or concatenated; spaces and
    ///   blank lines around them are ignored.
    /// - Throws: ``MRZError`` naming the layout problem, the invalid character or the
    ///   field whose check digit fails.
    public init(_ text: String) throws(MRZError) {
        var lines = text.split(whereSeparator: \.isNewline)
            .map { Array($0.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) }
            .filter { !$0.isEmpty }
        if lines.count == 1, let only = lines.first {
            switch only.count {
            case 90: lines = [Array(only[0..<30]), Array(only[30..<60]), Array(only[60..<90])]
            case 72: lines = [Array(only[0..<36]), Array(only[36..<72])]
            case 88: lines = [Array(only[0..<44]), Array(only[44..<88])]
            default: break
            }
        }
        var reader = Reader(lines: lines)
        let isVisa = lines.first?.first == UInt8(ascii: "V")
        switch lines.map(\.count) {
        case [30, 30, 30]: try self.init(td1: &reader)
        case [36, 36]: try self.init(twoLine: &reader, format: isVisa ? .mrvB : .td2)
        case [44, 44]: try self.init(twoLine: &reader, format: isVisa ? .mrvA : .td3)
        default: throw .unrecognizedLayout(lineLengths: lines.map(\.count))
        }
    }

    private init(td1 reader: inout Reader) throws(MRZError) {
        try reader.validateCharacters()
        format = .td1
        documentCode = reader.text(0, 0..<2)
        issuingState = reader.text(0, 2..<5)
        let number = try reader.documentNumber(line: 0, start: 5, optionalData: 15..<30)
        documentNumber = number.value
        keyDocumentNumber = number.keyValue
        optionalData = number.remainingOptionalData
        birthDate = try reader.date(1, 0..<6, field: .birthDate, allowUnknown: true)
        try reader.verify(.birthDate, line: 1, field: 0..<6, digitAt: 6)
        sex = try reader.sex(1, 7)
        expiryDate = try reader.date(1, 8..<14, field: .expiryDate, allowUnknown: false)
        try reader.verify(.expiryDate, line: 1, field: 8..<14, digitAt: 14)
        nationality = reader.text(1, 15..<18)
        optionalData2 = reader.text(1, 18..<29)
        let composite = reader.slice(0, 5..<30) + reader.slice(1, 0..<7) + reader.slice(1, 8..<15) + reader.slice(1, 18..<29)
        try reader.verify(.composite, characters: composite, line: 1, digitAt: 29)
        name = MRZName(field: Substring(decoding: reader.slice(2, 0..<30), as: UTF8.self))
    }

    private init(twoLine reader: inout Reader, format: Format) throws(MRZError) {
        try reader.validateCharacters()
        let width = reader.lines[0].count
        self.format = format
        documentCode = reader.text(0, 0..<2)
        issuingState = reader.text(0, 2..<5)
        name = MRZName(field: Substring(decoding: reader.slice(0, 5..<width), as: UTF8.self))
        let optionalRange = 28..<(format == .td3 ? 42 : format == .td2 ? 35 : width)
        if format == .td2 {
            let number = try reader.documentNumber(line: 1, start: 0, optionalData: optionalRange)
            documentNumber = number.value
            keyDocumentNumber = number.keyValue
            optionalData = number.remainingOptionalData
        } else {
            try reader.verify(.documentNumber, line: 1, field: 0..<9, digitAt: 9)
            documentNumber = reader.text(1, 0..<9)
            keyDocumentNumber = String(decoding: reader.slice(1, 0..<9), as: UTF8.self)
            optionalData = reader.text(1, optionalRange)
        }
        nationality = reader.text(1, 10..<13)
        birthDate = try reader.date(1, 13..<19, field: .birthDate, allowUnknown: true)
        try reader.verify(.birthDate, line: 1, field: 13..<19, digitAt: 19)
        sex = try reader.sex(1, 20)
        expiryDate = try reader.date(1, 21..<27, field: .expiryDate, allowUnknown: false)
        try reader.verify(.expiryDate, line: 1, field: 21..<27, digitAt: 27)
        optionalData2 = ""
        switch format {
        case .td3:
            // A personal number made only of fillers may carry a filler as its check digit.
            let personal = reader.slice(1, 28..<42)
            let allFillers = personal.allSatisfy { $0 == UInt8(ascii: "<") }
            if !(allFillers && reader.lines[1][42] == UInt8(ascii: "<")) {
                try reader.verify(.optionalData, line: 1, field: 28..<42, digitAt: 42)
            }
            let composite = reader.slice(1, 0..<10) + reader.slice(1, 13..<20) + reader.slice(1, 21..<43)
            try reader.verify(.composite, characters: composite, line: 1, digitAt: 43)
        case .td2:
            let composite = reader.slice(1, 0..<10) + reader.slice(1, 13..<20) + reader.slice(1, 21..<35)
            try reader.verify(.composite, characters: composite, line: 1, digitAt: 35)
        case .mrvA, .mrvB, .td1:
            break  // visas have no composite check digit
        }
    }
}

extension MRZ {
    /// Reads fields out of validated MRZ lines by 0-based ranges; reports 1-based positions.
    struct Reader {
        let lines: [[UInt8]]

        func validateCharacters() throws(MRZError) {
            for (lineIndex, line) in lines.enumerated() {
                for (column, character) in line.enumerated() where CheckDigit.value(of: character) == nil {
                    throw .invalidCharacter(line: lineIndex + 1, column: column + 1)
                }
            }
        }

        func slice(_ line: Int, _ range: Range<Int>) -> [UInt8] {
            Array(lines[line][range])
        }

        /// The field as text with fillers at either end removed and inner fillers as spaces.
        func text(_ line: Int, _ range: Range<Int>) -> String {
            let bytes = lines[line][range]
            let trimmed = bytes.drop { $0 == UInt8(ascii: "<") }
            var end = trimmed.endIndex
            while end > trimmed.startIndex, trimmed[end - 1] == UInt8(ascii: "<") { end -= 1 }
            return String(decoding: trimmed[trimmed.startIndex..<end].map { $0 == UInt8(ascii: "<") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        }

        func verify(_ field: MRZField, line: Int, field range: Range<Int>, digitAt column: Int) throws(MRZError) {
            try verify(field, characters: slice(line, range), line: line, digitAt: column)
        }

        func verify(_ field: MRZField, characters: [UInt8], line: Int, digitAt column: Int) throws(MRZError) {
            guard CheckDigit.compute(characters) == lines[line][column] else {
                throw .checkDigitMismatch(field, line: line + 1, column: column + 1)
            }
        }

        func date(_ line: Int, _ range: Range<Int>, field: MRZField, allowUnknown: Bool) throws(MRZError) -> String {
            let bytes = slice(line, range)
            let valid = bytes.allSatisfy { (0x30...0x39).contains($0) || (allowUnknown && $0 == UInt8(ascii: "<")) }
            guard valid else { throw .invalidField(field, reason: "not a YYMMDD date") }
            return String(decoding: bytes, as: UTF8.self)
        }

        func sex(_ line: Int, _ column: Int) throws(MRZError) -> Sex {
            switch lines[line][column] {
            case UInt8(ascii: "F"): return .female
            case UInt8(ascii: "M"): return .male
            case UInt8(ascii: "<"), UInt8(ascii: "X"): return .unspecified
            default: throw .invalidField(.sex, reason: "must be F, M, X or <")
            }
        }

        /// Reads a document number of nine characters and its check digit, or, when the
        /// check digit position holds `<`, one that overflows into `optionalData`: its
        /// remaining characters, then its check digit, then a filler (Part 5 §4.2.4).
        func documentNumber(
            line: Int, start: Int, optionalData: Range<Int>
        ) throws(MRZError) -> (value: String, keyValue: String, remainingOptionalData: String) {
            let digitColumn = start + 9
            guard lines[line][digitColumn] == UInt8(ascii: "<") else {
                try verify(.documentNumber, line: line, field: start..<digitColumn, digitAt: digitColumn)
                let raw = String(decoding: slice(line, start..<digitColumn), as: UTF8.self)
                return (text(line, start..<digitColumn), raw, text(line, optionalData))
            }
            let optional = lines[line][optionalData]
            let runEnd = optional.firstIndex(of: UInt8(ascii: "<")) ?? optional.endIndex
            guard runEnd - optional.startIndex >= 2 else {
                throw .invalidField(.documentNumber, reason: "check digit position holds a filler but the optional data carries no overflow")
            }
            let full = slice(line, start..<digitColumn) + Array(optional[optional.startIndex..<(runEnd - 1)])
            try verify(.documentNumber, characters: full, line: line, digitAt: runEnd - 1)
            let rest = runEnd < optionalData.upperBound ? text(line, runEnd..<optionalData.upperBound) : ""
            let number = String(decoding: full, as: UTF8.self)
            return (number, number, rest)
        }
    }
}
