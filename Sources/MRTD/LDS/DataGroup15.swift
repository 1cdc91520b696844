/// DG15 (Doc 9303 Part 10 §4.7.15): the Active Authentication public key.
public struct DataGroup15: Hashable, Sendable, CustomStringConvertible {
    /// The key's algorithm: rsaEncryption or id-ecPublicKey with its curve.
    public let algorithm: AlgorithmIdentifier
    /// The whole SubjectPublicKeyInfo DER, for libcrypto.
    public let subjectPublicKeyInfo: [UInt8]

    /// rsaEncryption (PKCS #1).
    public static let rsaEncryption: OID = "1.2.840.113549.1.1.1"
    /// id-ecPublicKey (RFC 5480).
    public static let ecPublicKey: OID = "1.2.840.10045.2.1"

    /// Parses the file's bytes.
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .dg15)
        let root = try reader.expect(reader.parse(bytes), tag: 0x6F, "the DG15 template")
        let info = try reader.expect(root.children.first, tag: ASN1Reader.Tag.sequence, "the SubjectPublicKeyInfo", in: root)
        algorithm = try AlgorithmIdentifier(info.children.first, bytes: bytes, reader: reader, what: "the public key algorithm")
        _ = try reader.expect(info.children.dropFirst().first, tag: ASN1Reader.Tag.bitString, "the public key bits", in: info)
        subjectPublicKeyInfo = Array(bytes[info.range])
    }

    public var description: String { "DG15(\(algorithm.oid))" }
}
