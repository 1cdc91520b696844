/// Reading DER/BER values out of parsed ``TLV`` objects, with errors that name the file
/// and the offset. The TLV parser already bounds every length; this adds the ASN.1
/// meaning of the few universal types the LDS uses.
struct ASN1Reader {
    /// The file being parsed, for errors.
    let file: LDSFile
    /// Where the parsed bytes start in the file, for values parsed on their own.
    var base = 0

    /// Universal tags of ISO/IEC 8825-1 used here.
    enum Tag {
        static let integer: UInt32 = 0x02
        static let bitString: UInt32 = 0x03
        static let octetString: UInt32 = 0x04
        static let constructedOctetString: UInt32 = 0x24
        static let objectIdentifier: UInt32 = 0x06
        static let sequence: UInt32 = 0x30
        static let set: UInt32 = 0x31
    }

    func error(_ reason: String, at object: TLV?) -> LDSError {
        LDSError(file: file, offset: base + (object?.range.lowerBound ?? 0), reason: reason)
    }

    /// Parses exactly one object filling `bytes`.
    func parse(_ bytes: [UInt8]) throws(LDSError) -> TLV {
        do {
            return try TLV.parse(bytes)
        } catch {
            throw .tlv(error, in: file, base: base)
        }
    }

    /// Parses all objects in `bytes`.
    func parseAll(_ bytes: [UInt8]) throws(LDSError) -> [TLV] {
        do {
            return try TLV.parseAll(bytes)
        } catch {
            throw .tlv(error, in: file, base: base)
        }
    }

    /// `object` when it has `tag`, or an error naming `what` was expected.
    func expect(_ object: TLV?, tag: UInt32, _ what: String, in parent: TLV? = nil) throws(LDSError) -> TLV {
        guard let object else { throw error("\(what) is missing", at: parent) }
        guard object.tag == tag else {
            throw error("expected \(what) (tag \(String(tag, radix: 16, uppercase: true))), found tag \(String(object.tag, radix: 16, uppercase: true))", at: object)
        }
        return object
    }

    func oid(_ object: TLV?, _ what: String, in parent: TLV? = nil) throws(LDSError) -> OID {
        let object = try expect(object, tag: Tag.objectIdentifier, what, in: parent)
        guard let oid = OID(contents: object.value) else { throw error("\(what) is not a valid object identifier", at: object) }
        return oid
    }

    /// A non-negative INTEGER small enough for `Int`.
    func integer(_ object: TLV?, _ what: String, in parent: TLV? = nil) throws(LDSError) -> Int {
        let object = try expect(object, tag: Tag.integer, what, in: parent)
        var bytes = object.value[...]
        guard let first = bytes.first, first & 0x80 == 0 else { throw error("\(what) is empty or negative", at: object) }
        while bytes.count > 1, bytes.first == 0 { bytes = bytes.dropFirst() }
        guard bytes.count <= 7 else { throw error("\(what) is too large", at: object) }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// The contents of an OCTET STRING, primitive or (BER) constructed from segments.
    func octetString(_ object: TLV?, _ what: String, in parent: TLV? = nil) throws(LDSError) -> [UInt8] {
        guard let object else { throw error("\(what) is missing", at: parent) }
        switch object.tag {
        case Tag.octetString: return object.value
        case Tag.constructedOctetString:
            var out: [UInt8] = []
            for segment in object.children { out += try octetString(segment, what, in: object) }
            return out
        default: throw error("expected \(what) as an OCTET STRING", at: object)
        }
    }
}

/// The algorithm and parameters of an X.509 AlgorithmIdentifier.
public struct AlgorithmIdentifier: Hashable, Sendable, CustomStringConvertible {
    public let oid: OID
    /// The DER of the parameters, empty when absent.
    public let parameters: [UInt8]

    public init(oid: OID, parameters: [UInt8] = []) {
        self.oid = oid
        self.parameters = parameters
    }

    init(_ object: TLV?, bytes: [UInt8], reader: ASN1Reader, what: String) throws(LDSError) {
        let sequence = try reader.expect(object, tag: ASN1Reader.Tag.sequence, what)
        oid = try reader.oid(sequence.children.first, "\(what) algorithm", in: sequence)
        parameters = sequence.children.dropFirst().first.map { Array(bytes[$0.range]) } ?? []
    }

    public var description: String { oid.description }
}
