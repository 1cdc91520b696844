/// DG11 (Doc 9303 Part 10 §4.7.11): additional personal details. Every field is optional.
public struct DataGroup11: Hashable, Sendable {
    /// Full name in national characters, primary and secondary identifiers separated by `<<`.
    public let fullName: String?
    /// Other names, each as in ``fullName``.
    public let otherNames: [String]
    public let personalNumber: String?
    /// Full date of birth, `YYYYMMDD`.
    public let fullDateOfBirth: String?
    /// Place of birth, its parts separated by `<`.
    public let placeOfBirth: String?
    /// Permanent address, its parts separated by `<`.
    public let address: String?
    public let telephone: String?
    public let profession: String?
    public let title: String?
    public let personalSummary: String?
    /// Proof of citizenship: an image (ISO/IEC 10918).
    public let proofOfCitizenship: [UInt8]?
    /// Other valid travel document numbers, separated by `<`.
    public let otherTravelDocumentNumbers: String?
    public let custodyInformation: String?

    /// Parses the file's bytes.
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .dg11)
        let root = try reader.expect(reader.parse(bytes), tag: 0x6B, "the DG11 template")
        func text(_ tag: UInt32) -> String? { root.child(tag).map { String(decoding: $0.value, as: UTF8.self) } }
        fullName = text(0x5F0E)
        var others: [String] = []
        if let template = root.child(0xA0) {
            others = template.children.filter { $0.tag == 0x5F0F }.map { String(decoding: $0.value, as: UTF8.self) }
        }
        // Some issuers put other names directly in the template, without A0.
        others += root.children.filter { $0.tag == 0x5F0F }.map { String(decoding: $0.value, as: UTF8.self) }
        otherNames = others
        personalNumber = text(0x5F10)
        fullDateOfBirth = try DataGroup11.date(root.child(0x5F2B), reader: reader)
        placeOfBirth = text(0x5F11)
        address = text(0x5F42)
        telephone = text(0x5F12)
        profession = text(0x5F13)
        title = text(0x5F14)
        personalSummary = text(0x5F15)
        proofOfCitizenship = root.child(0x5F16)?.value
        otherTravelDocumentNumbers = text(0x5F17)
        custodyInformation = text(0x5F18)
    }

    /// A full date as `YYYYMMDD`: ASCII digits, or (as some issuers write it) 4 BCD bytes.
    static func date(_ object: TLV?, reader: ASN1Reader) throws(LDSError) -> String? {
        guard let object else { return nil }
        let digits: (UInt8) -> Bool = { (0x30...0x39).contains($0) }
        if object.value.count == 8, object.value.allSatisfy(digits) { return String(decoding: object.value, as: UTF8.self) }
        if object.value.count == 4, object.value.allSatisfy({ $0 >> 4 <= 9 && $0 & 0x0F <= 9 }) {
            return object.value.map { "\($0 >> 4)\($0 & 0x0F)" }.joined()
        }
        throw reader.error("a full date is neither 8 digits nor 4 BCD bytes", at: object)
    }
}

extension DataGroup11: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "DG11(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
