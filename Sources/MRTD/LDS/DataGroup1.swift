/// DG1 (Doc 9303 Part 10 §4.7.1): the MRZ as the chip holds it.
public struct DataGroup1: Hashable, Sendable {
    /// The zone, parsed and with its check digits verified.
    public let mrz: MRZ

    /// Parses the file's bytes.
    /// - Throws: ``LDSError`` when the template is malformed or the MRZ does not parse
    ///   (the reason names the ``MRZError`` without quoting the zone).
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .dg1)
        let root = try reader.expect(reader.parse(bytes), tag: 0x61, "the DG1 template")
        let field = try reader.expect(root.child(0x5F1F), tag: 0x5F1F, "the MRZ data element", in: root)
        do {
            mrz = try MRZ(String(decoding: field.value, as: UTF8.self))
        } catch {
            throw reader.error("the MRZ does not parse: \(error)", at: field)
        }
    }
}

extension DataGroup1: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "DG1(\(mrz.format.rawValue), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
