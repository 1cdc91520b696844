/// DG12 (Doc 9303 Part 10 §4.7.12): additional document details. Every field is optional.
public struct DataGroup12: Hashable, Sendable {
    public let issuingAuthority: String?
    /// Date of issue, `YYYYMMDD`.
    public let dateOfIssue: String?
    /// Names of other persons (for example children) included in the document.
    public let otherPersons: [String]
    public let endorsements: String?
    public let taxOrExitRequirements: String?
    /// Images of the front and rear of the document (ISO/IEC 10918).
    public let frontImage: [UInt8]?
    public let rearImage: [UInt8]?
    /// Date and time of personalization, `YYYYMMDDhhmmss`.
    public let personalizationTime: String?
    public let personalizationDeviceSerialNumber: String?

    /// Parses the file's bytes.
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .dg12)
        let root = try reader.expect(reader.parse(bytes), tag: 0x6C, "the DG12 template")
        func text(_ tag: UInt32) -> String? { root.child(tag).map { String(decoding: $0.value, as: UTF8.self) } }
        issuingAuthority = text(0x5F19)
        dateOfIssue = try DataGroup11.date(root.child(0x5F26), reader: reader)
        var others: [String] = []
        if let template = root.child(0xA0) {
            others = template.children.filter { $0.tag == 0x5F1A }.map { String(decoding: $0.value, as: UTF8.self) }
        }
        others += root.children.filter { $0.tag == 0x5F1A }.map { String(decoding: $0.value, as: UTF8.self) }
        otherPersons = others
        endorsements = text(0x5F1B)
        taxOrExitRequirements = text(0x5F1C)
        frontImage = root.child(0x5F1D)?.value
        rearImage = root.child(0x5F1E)?.value
        personalizationTime = text(0x5F55)
        personalizationDeviceSerialNumber = text(0x5F56)
    }
}

extension DataGroup12: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "DG12(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
