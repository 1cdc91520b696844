/// EF.SOD (Doc 9303 Part 10 §4.6.2): a CMS SignedData (RFC 5652) whose content is the
/// LDS security object, the hashes of the data groups, signed by the document signer.
///
/// BER is accepted where Doc 9303 allows it (indefinite lengths, constructed OCTET
/// STRINGs). Verifying it is Passive Authentication's job; this only takes it apart.
public struct SecurityObject: Hashable, Sendable, CustomStringConvertible {
    /// The algorithm of the data group hashes.
    public let hashAlgorithm: AlgorithmIdentifier
    /// Data group number → hash, as the security object lists them.
    public let dataGroupHashes: [Int: [UInt8]]
    /// The LDS version in LDSVersionInfo (LDS 1.8 onwards), `nil` for version 0 objects.
    public let ldsVersion: String?
    /// The encapsulated content (the DER of the LDSSecurityObject), which the signed
    /// messageDigest attribute covers.
    public let encapsulatedContent: [UInt8]
    /// The certificates SignedData carries (DER): normally just the document signer's.
    public let certificates: [[UInt8]]
    /// The one signer.
    public let signer: SignerInfo

    /// What a CMS SignerInfo (RFC 5652 §5.3) says, in the form the checks need.
    public struct SignerInfo: Hashable, Sendable {
        /// The digest algorithm of the signed attributes.
        public let digestAlgorithm: AlgorithmIdentifier
        /// The signature algorithm: rsaEncryption, sha256WithRSAEncryption, RSASSA-PSS, ecdsa-with-SHA256…
        public let signatureAlgorithm: AlgorithmIdentifier
        public let signature: [UInt8]
        /// The DER of the signed attributes as they are signed (tag SET OF, not [0]);
        /// `nil` when the signature covers the content directly.
        public let signedAttributes: [UInt8]?
        /// The messageDigest attribute.
        public let messageDigest: [UInt8]?
        /// The contentType attribute.
        public let contentType: OID?
        /// The DER of the signer identifier: IssuerAndSerialNumber, or [0] SubjectKeyIdentifier.
        public let signerIdentifier: [UInt8]
    }

    /// Parses the file's bytes.
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .sod)
        typealias Tag = ASN1Reader.Tag
        let root = try reader.expect(reader.parse(bytes), tag: 0x77, "the EF.SOD template")
        let signed = try Self.signedData(root.children.first, bytes: bytes, reader: reader, contentType: .ldsSecurityObject, what: "an LDS security object")
        encapsulatedContent = signed.content
        certificates = signed.certificates
        signer = signed.signer

        // The security object is parsed on its own; offsets are reported within the file.
        var inner = ASN1Reader(file: .sod)
        inner.base = signed.contentOffset
        let object = try inner.expect(inner.parse(encapsulatedContent), tag: Tag.sequence, "the LDSSecurityObject")
        var parts = object.children[...]
        let version = try inner.integer(parts.popFirst(), "the LDSSecurityObject version", in: object)
        hashAlgorithm = try AlgorithmIdentifier(parts.popFirst(), bytes: encapsulatedContent, reader: inner, what: "the hash algorithm")
        let hashes = try inner.expect(parts.popFirst(), tag: Tag.sequence, "the data group hashes", in: object)
        var table: [Int: [UInt8]] = [:]
        for entry in hashes.children {
            let pair = try inner.expect(entry, tag: Tag.sequence, "a data group hash", in: hashes)
            let number = try inner.integer(pair.children.first, "the data group number", in: pair)
            guard (1...16).contains(number), table[number] == nil else { throw inner.error("data group number \(number) is out of range or repeated", at: pair) }
            table[number] = try inner.octetString(pair.children.dropFirst().first, "the data group hash", in: pair)
        }
        dataGroupHashes = table
        if version >= 1, let info = parts.popFirst(), info.tag == Tag.sequence, let first = info.children.first {
            ldsVersion = String(decoding: first.value, as: UTF8.self)
        } else {
            ldsVersion = nil
        }
    }

    /// The parts of a CMS ContentInfo holding SignedData with one signer (RFC 5652 §5.1),
    /// shared by EF.SOD and CSCA master lists.
    struct SignedDataParts {
        var content: [UInt8]
        /// Where the content's bytes start in the input, for offsets of errors inside it.
        var contentOffset: Int
        var certificates: [[UInt8]]
        var signer: SignerInfo
    }

    static func signedData(_ object: TLV?, bytes: [UInt8], reader: ASN1Reader, contentType expected: OID, what: String) throws(LDSError) -> SignedDataParts {
        typealias Tag = ASN1Reader.Tag
        let contentInfo = try reader.expect(object, tag: Tag.sequence, "the CMS ContentInfo")
        let contentType = try reader.oid(contentInfo.children.first, "the content type", in: contentInfo)
        guard contentType == .signedData else { throw reader.error("content type \(contentType) is not SignedData", at: contentInfo.children.first) }
        let explicit = try reader.expect(contentInfo.children.dropFirst().first, tag: 0xA0, "the SignedData content", in: contentInfo)
        let signedData = try reader.expect(explicit.children.first, tag: Tag.sequence, "SignedData", in: explicit)
        var fields = signedData.children[...]
        _ = try reader.integer(fields.popFirst(), "the SignedData version", in: signedData)
        _ = try reader.expect(fields.popFirst(), tag: Tag.set, "the digest algorithms", in: signedData)
        let encapsulated = try reader.expect(fields.popFirst(), tag: Tag.sequence, "the encapsulated content", in: signedData)
        let eContentType = try reader.oid(encapsulated.children.first, "the encapsulated content type", in: encapsulated)
        guard eContentType == expected else {
            throw reader.error("encapsulated content \(eContentType) is not \(what)", at: encapsulated.children.first)
        }
        let eContentWrapper = try reader.expect(encapsulated.children.dropFirst().first, tag: 0xA0, "the encapsulated content", in: encapsulated)
        let eContentObject = eContentWrapper.children.first
        let content = try reader.octetString(eContentObject, "the encapsulated content", in: eContentWrapper)

        var certificates: [[UInt8]] = []
        if fields.first?.tag == 0xA0, let set = fields.popFirst() {
            certificates = set.children.filter { $0.tag == Tag.sequence }.map { Array(bytes[$0.range]) }
        }
        if fields.first?.tag == 0xA1 { _ = fields.popFirst() }  // CRLs: Doc 9303 says none; ignore any
        let signerInfos = try reader.expect(fields.popFirst(), tag: Tag.set, "the signer infos", in: signedData)
        guard signerInfos.children.count == 1, let info = signerInfos.children.first else {
            throw reader.error("SignedData has \(signerInfos.children.count) signer infos; Doc 9303 requires one", at: signerInfos)
        }
        return SignedDataParts(
            content: content,
            contentOffset: eContentObject.map { $0.tag == Tag.octetString ? $0.valueRange.lowerBound : $0.range.lowerBound } ?? 0,
            certificates: certificates,
            signer: try signerInfo(info, bytes: bytes, reader: reader))
    }

    private static func signerInfo(_ info: TLV, bytes: [UInt8], reader: ASN1Reader) throws(LDSError) -> SignerInfo {
        typealias Tag = ASN1Reader.Tag
        let sequence = try reader.expect(info, tag: Tag.sequence, "the SignerInfo")
        var fields = sequence.children[...]
        _ = try reader.integer(fields.popFirst(), "the SignerInfo version", in: sequence)
        guard let identifier = fields.popFirst() else { throw reader.error("the signer identifier is missing", at: sequence) }
        let digest = try AlgorithmIdentifier(fields.popFirst(), bytes: bytes, reader: reader, what: "the signer's digest algorithm")
        var signedAttributes: [UInt8]?
        var messageDigest: [UInt8]?
        var contentType: OID?
        if fields.first?.tag == 0xA0, let attributes = fields.popFirst() {
            // Signed as a DER SET OF (RFC 5652 §5.4): same contents, universal tag, definite length.
            let contents = attributes.children.flatMap { Array(bytes[$0.range]) }
            signedAttributes = [0x31] + TLV.encodeLength(contents.count) + contents
            for attribute in attributes.children {
                let pair = try reader.expect(attribute, tag: Tag.sequence, "a signed attribute", in: attributes)
                let type = try reader.oid(pair.children.first, "the attribute type", in: pair)
                let values = try reader.expect(pair.children.dropFirst().first, tag: Tag.set, "the attribute values", in: pair)
                switch type {
                case .messageDigest: messageDigest = try reader.octetString(values.children.first, "the message digest", in: values)
                case .contentType: contentType = try reader.oid(values.children.first, "the content type attribute", in: values)
                default: break
                }
            }
        }
        let signatureAlgorithm = try AlgorithmIdentifier(fields.popFirst(), bytes: bytes, reader: reader, what: "the signature algorithm")
        let signature = try reader.octetString(fields.popFirst(), "the signature", in: sequence)
        return SignerInfo(
            digestAlgorithm: digest, signatureAlgorithm: signatureAlgorithm, signature: signature,
            signedAttributes: signedAttributes, messageDigest: messageDigest, contentType: contentType,
            signerIdentifier: Array(bytes[identifier.range]))
    }

    public var description: String {
        "EF.SOD(\(hashAlgorithm.oid), data groups: \(dataGroupHashes.keys.sorted().map(String.init).joined(separator: " ")), \(certificates.count) certificate(s))"
    }
}
