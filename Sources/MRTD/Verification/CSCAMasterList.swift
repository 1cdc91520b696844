/// An ICAO CSCA master list (Doc 9303 Part 12 §9): CMS SignedData whose content is the
/// CscaMasterList, a set of CSCA certificates, signed by a master list signer.
public struct CSCAMasterList: Sendable, CustomStringConvertible {
    /// id-icao-cscaMasterList.
    public static let contentType: OID = "2.23.136.1.1.2"

    /// The CSCA certificates of the list, DER.
    public let certificates: [[UInt8]]
    /// The certificates SignedData carries (the master list signer's).
    public let signerCertificates: [[UInt8]]
    let signer: SecurityObject.SignerInfo
    let content: [UInt8]

    /// Parses a master list file (the ContentInfo DER).
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(_ bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .masterList)
        let parts = try SecurityObject.signedData(reader.parse(bytes), bytes: bytes, reader: reader, contentType: Self.contentType, what: "a CSCA master list")
        var inner = ASN1Reader(file: .masterList)
        inner.base = parts.contentOffset
        let list = try inner.expect(inner.parse(parts.content), tag: ASN1Reader.Tag.sequence, "the CscaMasterList")
        _ = try inner.integer(list.children.first, "the master list version", in: list)
        let set = try inner.expect(list.children.dropFirst().first, tag: ASN1Reader.Tag.set, "the certificate list", in: list)
        certificates = set.children.filter { $0.tag == ASN1Reader.Tag.sequence }.map { Array(parts.content[$0.range]) }
        signerCertificates = parts.certificates
        signer = parts.signer
        content = parts.content
    }

    /// Checks the list's signature with its signer certificate, and that the signer chains
    /// to a CSCA of the list itself or of `trustStore`. Trust in the list still rests on
    /// where it came from; this catches corruption and lists not signed as they claim.
    public func verify(trustStore: TrustStore = TrustStore()) -> [VerificationCheck] {
        let certificate = signerCertificates.first
        var anchors = trustStore
        anchors.certificates += certificates
        var digest = PassiveAuthentication.signedAttributes(signer: signer, content: content, contentType: Self.contentType)
        digest = VerificationCheck("master list signed attributes", digest.outcome, digest.reason)
        return [
            digest,
            PassiveAuthentication.signature(signer, content: content, certificate: certificate),
            PassiveAuthentication.chain(certificate, trustStore: anchors),
        ]
    }

    public var description: String { "CSCAMasterList(\(certificates.count) certificates)" }
}
