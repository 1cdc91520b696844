/// Why a barcode's text is no AAMVA record the station can use. Each case names the part of
/// the record at fault, never its content (the record is personal data).
public enum AAMVAError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No compliance indicator `@` and file type `ANSI `: another kind of barcode.
    case notAAMVA
    /// The record ends before its header does.
    case truncatedHeader
    /// A header field is not what the standard allows (`issuer`, `version`,
    /// `jurisdictionVersion`, `entries`, `designator`).
    case invalidHeader(field: String)
    /// A subfile designator's offset and length point outside the record, or not at its type.
    case subfileOutOfRange(type: String)
    /// No `DL` or `ID` subfile: no document data.
    case noDocumentSubfile
    /// A mandatory data element is missing or empty (`DAQ`, `DCS`, `DBB`, `DBA`, ...).
    case missingElement(String)
    /// A date element is not a date in the record's country's order.
    case invalidDate(element: String)
    /// A data element's identifier is not three capitals or digits, or its value holds a
    /// control character.
    case invalidElement(index: Int)
    /// More bytes than a PDF417 symbol holds.
    case tooLong(bytes: Int)

    public var description: String {
        switch self {
        case .notAAMVA: "not an AAMVA record (no '@' compliance indicator and 'ANSI ' file type)"
        case .truncatedHeader: "the AAMVA record ends inside its header"
        case .invalidHeader(let field): "the AAMVA header's \(field) field is invalid"
        case .subfileOutOfRange(let type): "the AAMVA subfile \(type) lies outside the record"
        case .noDocumentSubfile: "the AAMVA record has no DL or ID subfile"
        case .missingElement(let id): "the AAMVA record lacks the data element \(id)"
        case .invalidDate(let id): "the AAMVA data element \(id) is not a valid date"
        case .invalidElement(let index): "the AAMVA data element at position \(index) is malformed"
        case .tooLong(let bytes): "\(bytes) bytes are more than a PDF417 symbol holds"
        }
    }
}

/// A calendar date of an AAMVA record.
public struct AAMVADate: Hashable, Sendable, Comparable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1900...2199).contains(year), (1...12).contains(month), (1...Self.days(year: year, month: month)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`.
    public var iso8601: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    public static func < (a: AAMVADate, b: AAMVADate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    static func days(year: Int, month: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The order of a date's digits: MMDDCCYY in the United States, CCYYMMDD in Canada.
    public enum Order: Hashable, Sendable {
        case monthDayYear
        case yearMonthDay
    }

    /// Eight digits in `order`; nil when they are no date.
    init?(digits: Substring, order: Order) {
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let n = digits.compactMap(\.wholeNumberValue)
        func number(_ from: Int, _ count: Int) -> Int { n[from..<(from + count)].reduce(0) { $0 * 10 + $1 } }
        switch order {
        case .monthDayYear: self.init(year: number(4, 4), month: number(0, 2), day: number(2, 2))
        case .yearMonthDay: self.init(year: number(0, 4), month: number(4, 2), day: number(6, 2))
        }
    }
}

/// The data of an AAMVA DL/ID card's PDF417 (the AAMVA DL/ID Card Design Standard, Annex D):
/// the header, its subfiles, and the document's fields typed.
///
/// Parsed from the symbol's bytes as the standard lays them out: the compliance indicator
/// `@`, the data element separator (LF), the record separator (RS), the segment terminator
/// (CR), the file type `ANSI `, the issuer identification number (6 digits), the AAMVA
/// version (2), the jurisdiction version (2, from version 02 on) and the number of entries
/// (2); then one designator per subfile (type, offset, length, 2 + 4 + 4). The `DL` or
/// `ID` subfile holds the data elements: a three-character identifier and its value, each
/// ended by the data element separator, the subfile by the segment terminator.
///
/// Personal data: ``description`` and the mirror say nothing of the content.
public struct AAMVARecord: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// One subfile: its type (`DL`, `ID`, or a jurisdiction's `Z?`) and its data elements.
    public struct Subfile: Hashable, Sendable {
        public var type: String
        /// The data elements in order: identifier and value.
        public var elements: [(id: String, value: String)]

        public static func == (a: Subfile, b: Subfile) -> Bool {
            a.type == b.type && a.elements.map(\.id) == b.elements.map(\.id) && a.elements.map(\.value) == b.elements.map(\.value)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            for element in elements {
                hasher.combine(element.id)
                hasher.combine(element.value)
            }
        }
    }

    /// The kind of document the record's first document subfile says.
    public enum DocumentKind: String, Hashable, Sendable {
        case drivingLicense = "DL"
        case identityCard = "ID"
    }

    /// The issuer identification number (6 digits; 636xxx for AAMVA jurisdictions).
    public var issuerIdentificationNumber: String
    /// The AAMVA version of the standard the record follows (01 to 10 so far).
    public var version: Int
    /// The jurisdiction's version of its own layout; nil in version 01 records.
    public var jurisdictionVersion: Int?
    public var subfiles: [Subfile]
    public var documentKind: DocumentKind

    /// The document subfile's elements by identifier (the first of a repeated identifier).
    public let elements: [String: String]

    /// A record holds at most this many bytes (a PDF417 symbol holds fewer).
    public static let maximumLength = 4096

    public var description: String { "AAMVARecord(version: \(version), \(subfiles.count) subfiles, <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    /// Parses a record from a symbol's bytes.
    public init(_ bytes: [UInt8]) throws(AAMVAError) {
        guard bytes.count <= Self.maximumLength else { throw .tooLong(bytes: bytes.count) }
        guard bytes.first == UInt8(ascii: "@") else { throw .notAAMVA }
        guard bytes.count >= 9 else { throw .truncatedHeader }
        let elementSeparator = bytes[1], segmentTerminator = bytes[3]
        guard Array(bytes[4..<9]) == Array("ANSI ".utf8) else { throw .notAAMVA }
        var cursor = 9
        func digits(_ count: Int, _ field: String) throws(AAMVAError) -> Int {
            guard cursor + count <= bytes.count else { throw .truncatedHeader }
            let slice = bytes[cursor..<(cursor + count)]
            guard slice.allSatisfy({ (0x30...0x39).contains($0) }) else { throw .invalidHeader(field: field) }
            cursor += count
            return slice.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let issuerStart = cursor
        _ = try digits(6, "issuer")
        issuerIdentificationNumber = String(decoding: bytes[issuerStart..<cursor], as: UTF8.self)
        version = try digits(2, "version")
        guard version >= 1 else { throw .invalidHeader(field: "version") }
        jurisdictionVersion = version >= 2 ? try digits(2, "jurisdictionVersion") : nil
        let entries = try digits(2, "entries")
        guard entries >= 1 else { throw .invalidHeader(field: "entries") }

        var designators: [(type: String, offset: Int, length: Int)] = []
        for _ in 0..<entries {
            guard cursor + 10 <= bytes.count else { throw .truncatedHeader }
            let type = bytes[cursor..<(cursor + 2)]
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { throw .invalidHeader(field: "designator") }
            cursor += 2
            let offset = try digits(4, "designator")
            let length = try digits(4, "designator")
            designators.append((String(decoding: type, as: UTF8.self), offset, length))
        }
        let headerEnd = cursor

        var subfiles: [Subfile] = []
        var elementIndex = 0
        for designator in designators {
            let start = try Self.subfileStart(designator.type, offset: designator.offset, headerEnd: headerEnd, in: bytes)
            // The subfile ends at its segment terminator; a wrong length is common and not trusted.
            var end = start + 2
            while end < bytes.count, bytes[end] != segmentTerminator { end += 1 }
            let body = bytes[(start + 2)..<end]
            var elements: [(id: String, value: String)] = []
            for raw in body.split(separator: elementSeparator, omittingEmptySubsequences: true) {
                elementIndex += 1
                // A carriage return some issuers leave before the separator is no part of the value.
                let field = raw.last == 0x0D ? raw.dropLast() : raw
                guard field.count >= 3 else { throw .invalidElement(index: elementIndex) }
                let id = field.prefix(3)
                guard id.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { throw .invalidElement(index: elementIndex) }
                let value = field.dropFirst(3)
                guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { throw .invalidElement(index: elementIndex) }
                elements.append((String(decoding: id, as: UTF8.self), String(String.UnicodeScalarView(value.map { Unicode.Scalar($0) }))))
            }
            subfiles.append(Subfile(type: designator.type, elements: elements))
        }
        self.subfiles = subfiles
        guard let document = subfiles.first(where: { $0.type == "DL" || $0.type == "ID" }) else { throw .noDocumentSubfile }
        documentKind = DocumentKind(rawValue: document.type) ?? .drivingLicense
        var byID: [String: String] = [:]
        for element in document.elements where byID[element.id] == nil {
            byID[element.id] = element.value.trimmingSpaces
        }
        elements = byID
    }

    /// Where a subfile starts: at its designator's offset when its type stands there, else
    /// (offsets are often off by the header's separators) its type's first place after the header.
    private static func subfileStart(_ type: String, offset: Int, headerEnd: Int, in bytes: [UInt8]) throws(AAMVAError) -> Int {
        let marker = Array(type.utf8)
        func at(_ index: Int) -> Bool { index >= headerEnd && index + 2 <= bytes.count && Array(bytes[index..<(index + 2)]) == marker }
        if at(offset) { return offset }
        var index = headerEnd
        while index + 2 <= bytes.count {
            if at(index) { return index }
            index += 1
        }
        throw .subfileOutOfRange(type: type)
    }

    /// A data element of the document subfile, nil when absent or empty.
    public subscript(id: String) -> String? {
        guard let value = elements[id], !value.isEmpty else { return nil }
        return value
    }
}

extension AAMVARecord {
    /// The country of issue (DCG, `USA` or `CAN`), else the one the date order suggests.
    public var country: String? { self["DCG"] }

    /// The order of the record's dates: Canada's CCYYMMDD, the United States' MMDDCCYY;
    /// without DCG, the order in which the birth date is a date (MMDDCCYY when both are).
    public var dateOrder: AAMVADate.Order {
        switch country {
        case "CAN": return .yearMonthDay
        case "USA": return .monthDayYear
        default:
            if let birth = self["DBB"], AAMVADate(digits: Substring(birth), order: .monthDayYear) == nil,
               AAMVADate(digits: Substring(birth), order: .yearMonthDay) != nil { return .yearMonthDay }
            return .monthDayYear
        }
    }

    /// A date element; nil when absent, an error when present and no date.
    public func date(_ id: String) throws(AAMVAError) -> AAMVADate? {
        guard let value = self[id] else { return nil }
        guard let date = AAMVADate(digits: Substring(value), order: dateOrder) else { throw .invalidDate(element: id) }
        return date
    }

    /// DAQ, the customer (document) number.
    public var documentNumber: String? { self["DAQ"] }
    /// DCS, the family name (DAB in version 01).
    public var familyName: String? { self["DCS"] ?? self["DAB"] }
    /// DAC, the first name (DCT, "given names", in versions 02 and 03), its first word.
    public var firstName: String? {
        if let first = self["DAC"] { return first }
        return self["DCT"].map { String($0.split(whereSeparator: { $0 == " " || $0 == "," }).first ?? "") }.flatMap { $0.isEmpty ? nil : $0 }
    }
    /// DAD, the middle names.
    public var middleNames: String? { self["DAD"].flatMap { $0 == "NONE" ? nil : $0 } }
    /// DBC: `M`, `F` or `X` (codes 1, 2 and 9, or the letters).
    public var sex: String? {
        switch self["DBC"] {
        case "1", "M": "M"
        case "2", "F": "F"
        case "9", "X": "X"
        default: nil
        }
    }
    /// DAG and DAH, the street of residence.
    public var street: String? {
        guard let first = self["DAG"] else { return nil }
        if let second = self["DAH"] { return first + " " + second }
        return first
    }
    /// DAI, the city of residence.
    public var city: String? { self["DAI"] }
    /// DAJ, the jurisdiction (state or province) code of the address, e.g. `VA`.
    public var jurisdiction: String? { self["DAJ"] }
    /// DAK, the postal code: a US ZIP of nine digits is written `NNNNN-NNNN` (`NNNNN` when its
    /// last four are zeros), trailing spaces dropped.
    public var postalCode: String? {
        guard let code = self["DAK"] else { return nil }
        let digits = code.filter { !$0.isWhitespace && $0 != "-" }
        if country != "CAN", digits.count == 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return digits.hasSuffix("0000") ? String(digits.prefix(5)) : digits.prefix(5) + "-" + digits.suffix(4)
        }
        return code
    }
    /// Whether the record holds the address (street, city, jurisdiction): seeds' Y when not.
    public var hasAddress: Bool { street != nil && city != nil && jurisdiction != nil }

    /// The fields the station needs, checked: the document number, the family name, the birth
    /// and expiry dates must be there and the dates valid.
    public func validated() throws(AAMVAError) -> AAMVARecord {
        guard documentNumber != nil else { throw .missingElement("DAQ") }
        guard familyName != nil else { throw .missingElement("DCS") }
        guard try date("DBB") != nil else { throw .missingElement("DBB") }
        guard try date("DBA") != nil else { throw .missingElement("DBA") }
        _ = try date("DBD")
        return self
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        while s.first == " " { s = s.dropFirst() }
        return String(s)
    }
}
