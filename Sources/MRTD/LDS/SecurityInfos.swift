/// SecurityInfos (Doc 9303 Part 11 §9.2, BSI TR-03110 Part 3 §A.1): the protocols a chip
/// offers, from DG14, EF.CardAccess or EF.CardSecurity.
public struct SecurityInfos: Hashable, Sendable, CustomStringConvertible {
    /// One SecurityInfo, recognised by its protocol OID and structure.
    public enum Info: Hashable, Sendable {
        /// PACEInfo: protocol (mapping, key agreement, cipher), version, standardized
        /// domain parameter ID when given.
        case pace(protocol: OID, version: Int, parameterID: Int?)
        /// PACEDomainParameterInfo: explicit domain parameters.
        case paceDomainParameters(protocol: OID, parameters: AlgorithmIdentifier, parameterID: Int?)
        /// ChipAuthenticationInfo.
        case chipAuthentication(protocol: OID, version: Int, keyID: Int?)
        /// ChipAuthenticationDomainParameterInfo.
        case chipAuthenticationDomainParameters(protocol: OID, parameters: AlgorithmIdentifier, keyID: Int?)
        /// ChipAuthenticationPublicKeyInfo: the chip's static key, as SubjectPublicKeyInfo DER.
        case chipAuthenticationPublicKey(protocol: OID, subjectPublicKeyInfo: [UInt8], keyID: Int?)
        /// ActiveAuthenticationInfo: the signature algorithm of ECDSA Active Authentication.
        case activeAuthentication(version: Int, signatureAlgorithm: OID)
        /// TerminalAuthenticationInfo.
        case terminalAuthentication(version: Int)
        /// Any other SecurityInfo, kept as its OID and DER.
        case other(protocol: OID, der: [UInt8])
    }

    public let infos: [Info]

    init(infos: [Info]) {
        self.infos = infos
    }

    /// Parses DG14 (tag 6E around the SET).
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(dataGroup14 bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .dg14)
        let root = try reader.expect(reader.parse(bytes), tag: 0x6E, "the DG14 template")
        let set = try reader.expect(root.children.first, tag: ASN1Reader.Tag.set, "the SecurityInfos set", in: root)
        infos = try Self.parse(set, bytes: bytes, reader: reader)
    }

    /// Parses EF.CardAccess (the bare SET).
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(cardAccess bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .cardAccess)
        let set = try reader.expect(reader.parse(bytes), tag: ASN1Reader.Tag.set, "the SecurityInfos set")
        infos = try Self.parse(set, bytes: bytes, reader: reader)
    }

    /// Parses EF.CardSecurity (CMS SignedData whose content is the SecurityInfos set); the
    /// signature is not checked here.
    /// - Throws: ``LDSError`` with the offset of the first problem.
    public init(cardSecurity bytes: [UInt8]) throws(LDSError) {
        let reader = ASN1Reader(file: .cardSecurity)
        let parts = try SecurityObject.signedData(reader.parse(bytes), bytes: bytes, reader: reader, contentType: "0.4.0.127.0.7.3.2.1", what: "a SecurityInfos object")
        var inner = ASN1Reader(file: .cardSecurity)
        inner.base = parts.contentOffset
        let set = try inner.expect(inner.parse(parts.content), tag: ASN1Reader.Tag.set, "the SecurityInfos set")
        infos = try Self.parse(set, bytes: parts.content, reader: inner)
    }

    /// The uncompressed point of the first ChipAuthenticationPublicKeyInfo (id-PK-ECDH), whatever
    /// form its domain parameters take.
    public var chipAuthenticationPublicPoint: [UInt8]? {
        for info in infos {
            guard case .chipAuthenticationPublicKey(let oid, let spki, _) = info, oid == "0.4.0.127.0.7.2.2.1.2",
                let key = try? TLV.parse(spki), let bits = key.children.last, bits.tag == 0x03, bits.value.first == 0x00
            else { continue }
            return Array(bits.value.dropFirst())
        }
        return nil
    }

    private static func parse(_ set: TLV, bytes: [UInt8], reader: ASN1Reader) throws(LDSError) -> [Info] {
        var infos: [Info] = []
        for info in set.children {
            let sequence = try reader.expect(info, tag: ASN1Reader.Tag.sequence, "a SecurityInfo", in: set)
            let oid = try reader.oid(sequence.children.first, "the SecurityInfo protocol", in: sequence)
            let required = sequence.children.dropFirst().first
            let optional = sequence.children.dropFirst(2).first
            func optionalInteger() throws(LDSError) -> Int? {
                guard let optional, optional.tag == ASN1Reader.Tag.integer else { return nil }
                return try reader.integer(optional, "an optional identifier", in: sequence)
            }
            let extra = oid.arcs.count
            if oid.hasPrefix(.pace) && extra == OID.pace.arcs.count + 2 {
                infos.append(.pace(protocol: oid, version: try reader.integer(required, "the PACE version", in: sequence), parameterID: try optionalInteger()))
            } else if oid.hasPrefix(.pace) && extra == OID.pace.arcs.count + 1 {
                let parameters = try AlgorithmIdentifier(required, bytes: bytes, reader: reader, what: "the PACE domain parameters")
                infos.append(.paceDomainParameters(protocol: oid, parameters: parameters, parameterID: try optionalInteger()))
            } else if oid.hasPrefix(.chipAuthentication) && extra == OID.chipAuthentication.arcs.count + 2 {
                infos.append(.chipAuthentication(
                    protocol: oid, version: try reader.integer(required, "the CA version", in: sequence), keyID: try optionalInteger()))
            } else if oid.hasPrefix(.chipAuthentication) && extra == OID.chipAuthentication.arcs.count + 1 {
                let parameters = try AlgorithmIdentifier(required, bytes: bytes, reader: reader, what: "the CA domain parameters")
                infos.append(.chipAuthenticationDomainParameters(protocol: oid, parameters: parameters, keyID: try optionalInteger()))
            } else if oid.hasPrefix(.chipAuthenticationPublicKey) {
                let key = try reader.expect(required, tag: ASN1Reader.Tag.sequence, "the CA public key", in: sequence)
                infos.append(.chipAuthenticationPublicKey(protocol: oid, subjectPublicKeyInfo: Array(bytes[key.range]), keyID: try optionalInteger()))
            } else if oid == .activeAuthentication {
                infos.append(.activeAuthentication(
                    version: try reader.integer(required, "the AA version", in: sequence),
                    signatureAlgorithm: try reader.oid(optional, "the AA signature algorithm", in: sequence)))
            } else if oid == .terminalAuthentication {
                infos.append(.terminalAuthentication(version: try reader.integer(required, "the TA version", in: sequence)))
            } else {
                infos.append(.other(protocol: oid, der: Array(bytes[sequence.range])))
            }
        }
        return infos
    }

    /// The PACE protocols offered, in file order.
    public var paceProtocols: [OID] {
        infos.compactMap { if case .pace(let oid, _, _) = $0 { oid } else { nil } }
    }

    public var description: String { "SecurityInfos(\(infos.count) infos)" }
}
