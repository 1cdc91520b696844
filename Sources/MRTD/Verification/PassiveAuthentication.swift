/// Passive Authentication (Doc 9303 Part 11 §5.1): the data groups read are the ones the
/// issuer signed, signed by a document signer whose certificate chains to a trusted CSCA.
///
/// Every step is its own ``VerificationCheck``, so a station can show which one failed:
/// a tampered data group fails its hash, a forged EF.SOD fails the signature, an unknown
/// issuer fails the chain, an expired document signer fails the validity dates.
public enum PassiveAuthentication {
    /// All checks of one verification.
    public struct Result: Hashable, Sendable, CustomStringConvertible {
        /// One check per data group read, by number.
        public var dataGroupHashes: [Int: VerificationCheck]
        /// The messageDigest and contentType signed attributes against the security object.
        public var signedAttributes: VerificationCheck
        /// The SignedData signature with the document signer's key.
        public var signature: VerificationCheck
        /// The document signer certificate chains to a trusted CSCA.
        public var chain: VerificationCheck
        /// The document signer certificate is valid at the verification time.
        public var validity: VerificationCheck

        /// Every check, data groups first.
        public var checks: [VerificationCheck] {
            dataGroupHashes.keys.sorted().compactMap { dataGroupHashes[$0] } + [signedAttributes, signature, chain, validity]
        }

        /// Passed when every check passed; failed when any failed; otherwise not supported.
        public var outcome: VerificationCheck.Outcome {
            if checks.contains(where: { $0.outcome == .failed }) { return .failed }
            if checks.allSatisfy({ $0.outcome == .passed }) { return .passed }
            return .notSupported
        }

        public var description: String { "PassiveAuthentication(\(outcome.rawValue): " + checks.map(\.description).joined(separator: "; ") + ")" }
    }

    /// Verifies the files read from a chip.
    /// - Parameters:
    ///   - files: the raw files, EF.SOD among them.
    ///   - trustStore: the CSCA certificates to trust.
    ///   - time: the verification time in seconds since 1970 (the caller's clock).
    /// - Returns: every check; a missing or malformed EF.SOD fails them all with its reason.
    public static func verify(files: [LDSFile: [UInt8]], trustStore: TrustStore, at time: Int64) -> Result {
        guard let sodBytes = files[.sod] else {
            let missing = VerificationCheck("EF.SOD", .failed, "EF.SOD was not read")
            return Result(dataGroupHashes: [:], signedAttributes: missing, signature: missing, chain: missing, validity: missing)
        }
        let sod: SecurityObject
        do {
            sod = try SecurityObject(sodBytes)
        } catch {
            let malformed = VerificationCheck("EF.SOD", .failed, error.description)
            return Result(dataGroupHashes: [:], signedAttributes: malformed, signature: malformed, chain: malformed, validity: malformed)
        }
        let certificate = sod.certificates.first
        return Result(
            dataGroupHashes: dataGroupHashes(files: files, sod: sod),
            signedAttributes: signedAttributes(sod),
            signature: signature(sod.signer, content: sod.encapsulatedContent, certificate: certificate),
            chain: chain(certificate, trustStore: trustStore),
            validity: validity(certificate, at: time))
    }

    static func dataGroupHashes(files: [LDSFile: [UInt8]], sod: SecurityObject) -> [Int: VerificationCheck] {
        var checks: [Int: VerificationCheck] = [:]
        let algorithm = HashAlgorithm(oid: sod.hashAlgorithm.oid)
        for (file, bytes) in files {
            guard let number = file.dataGroupNumber else { continue }
            let name = "\(file.name) hash"
            guard let expected = sod.dataGroupHashes[number] else {
                checks[number] = VerificationCheck(name, .failed, "EF.SOD has no hash for \(file.name)")
                continue
            }
            guard let algorithm else {
                checks[number] = VerificationCheck(name, .notSupported, "hash algorithm \(sod.hashAlgorithm.oid) is not supported")
                continue
            }
            do {
                let actual = try algorithm.hash(bytes)
                checks[number] = actual == expected
                    ? VerificationCheck(name, .passed, "\(algorithm.rawValue) matches EF.SOD")
                    : VerificationCheck(name, .failed, "\(algorithm.rawValue) differs from EF.SOD: the data group was altered")
            } catch {
                checks[number] = VerificationCheck(name, .notSupported, "hashing failed: \(error)")
            }
        }
        return checks
    }

    static func signedAttributes(_ sod: SecurityObject) -> VerificationCheck {
        signedAttributes(signer: sod.signer, content: sod.encapsulatedContent, contentType: .ldsSecurityObject)
    }

    static func signedAttributes(signer: SecurityObject.SignerInfo, content: [UInt8], contentType: OID) -> VerificationCheck {
        let name = "signed attributes"
        guard signer.signedAttributes != nil else {
            return VerificationCheck(name, .passed, "no signed attributes: the signature covers the content directly")
        }
        guard let algorithm = HashAlgorithm(oid: signer.digestAlgorithm.oid) else {
            return VerificationCheck(name, .notSupported, "digest algorithm \(signer.digestAlgorithm.oid) is not supported")
        }
        guard signer.contentType == contentType else {
            return VerificationCheck(name, .failed, "the contentType attribute is missing or not \(contentType)")
        }
        guard let digest = signer.messageDigest else { return VerificationCheck(name, .failed, "the messageDigest attribute is missing") }
        guard let actual = try? algorithm.hash(content) else { return VerificationCheck(name, .notSupported, "hashing failed") }
        return actual == digest
            ? VerificationCheck(name, .passed, "messageDigest matches the signed content")
            : VerificationCheck(name, .failed, "messageDigest differs from the signed content's \(algorithm.rawValue)")
    }

    /// The digest and padding a SignerInfo's signature algorithm means.
    struct SignatureAlgorithm: Hashable {
        var digest: HashAlgorithm
        var scheme: LibCrypto.SignatureScheme
        var saltLength: Int?
    }

    static func signatureAlgorithm(_ identifier: AlgorithmIdentifier, signerDigest: HashAlgorithm?) -> SignatureAlgorithm? {
        let rsa: [OID: HashAlgorithm] = [
            "1.2.840.113549.1.1.5": .sha1, "1.2.840.113549.1.1.14": .sha224, "1.2.840.113549.1.1.11": .sha256,
            "1.2.840.113549.1.1.12": .sha384, "1.2.840.113549.1.1.13": .sha512,
        ]
        let ecdsa: [OID: HashAlgorithm] = [
            "1.2.840.10045.4.1": .sha1, "1.2.840.10045.4.3.1": .sha224, "1.2.840.10045.4.3.2": .sha256,
            "1.2.840.10045.4.3.3": .sha384, "1.2.840.10045.4.3.4": .sha512,
        ]
        if let digest = rsa[identifier.oid] ?? ecdsa[identifier.oid] { return SignatureAlgorithm(digest: digest, scheme: .keyDefault) }
        switch identifier.oid {
        case "1.2.840.113549.1.1.1", "1.2.840.10045.2.1":
            // rsaEncryption / id-ecPublicKey as signature algorithm: the signer's digest says which hash.
            return signerDigest.map { SignatureAlgorithm(digest: $0, scheme: .keyDefault) }
        case "1.2.840.113549.1.1.10":
            return pssParameters(identifier.parameters)
        default:
            return nil
        }
    }

    /// RSASSA-PSS-params (RFC 4055 §3.1): hash [0] (default SHA-1), salt length [2] (default 20).
    static func pssParameters(_ der: [UInt8]) -> SignatureAlgorithm? {
        var digest = HashAlgorithm.sha1
        var salt = 20
        if !der.isEmpty {
            guard let sequence = try? TLV.parse(der), sequence.tag == 0x30 else { return nil }
            if let hash = sequence.child(0xA0)?.children.first?.children.first {
                guard let oid = OID(contents: hash.value), let algorithm = HashAlgorithm(oid: oid) else { return nil }
                digest = algorithm
            }
            if let saltObject = sequence.child(0xA2)?.children.first, saltObject.tag == 0x02 {
                salt = saltObject.value.reduce(0) { $0 << 8 | Int($1) }
            }
        }
        return SignatureAlgorithm(digest: digest, scheme: .rsaPSS, saltLength: salt)
    }

    static func signature(_ signer: SecurityObject.SignerInfo, content: [UInt8], certificate: [UInt8]?) -> VerificationCheck {
        let name = "signature"
        guard let certificate else {
            return VerificationCheck(name, .notSupported, "EF.SOD carries no document signer certificate; it would come from a PKD")
        }
        let signerDigest = HashAlgorithm(oid: signer.digestAlgorithm.oid)
        guard let algorithm = signatureAlgorithm(signer.signatureAlgorithm, signerDigest: signerDigest) else {
            return VerificationCheck(name, .notSupported, "signature algorithm \(signer.signatureAlgorithm.oid) is not supported")
        }
        let signed = signer.signedAttributes ?? content
        switch LibCrypto.verifySignature(
            key: .certificate(certificate), digest: algorithm.digest.digest, scheme: algorithm.scheme,
            saltLength: algorithm.saltLength, data: signed, signature: signer.signature)
        {
        case .success(true): return VerificationCheck(name, .passed, "\(signer.signatureAlgorithm.oid) verifies with the signer's key")
        case .success(false): return VerificationCheck(name, .failed, "the signature does not verify with the signer's key")
        case .failure(let error): return VerificationCheck(name, .failed, "the document signer's key is unusable: \(error)")
        }
    }

    static func chain(_ certificate: [UInt8]?, trustStore: TrustStore) -> VerificationCheck {
        let name = "certificate chain"
        guard let certificate else { return VerificationCheck(name, .notSupported, "no document signer certificate to chain") }
        guard !trustStore.certificates.isEmpty else { return VerificationCheck(name, .notSupported, "the trust store holds no CSCA certificate") }
        switch LibCrypto.verifyChain(leaf: certificate, anchors: trustStore.certificates, crls: trustStore.revocationLists) {
        case .success(.verified): return VerificationCheck(name, .passed, "the document signer chains to a trusted CSCA")
        case .success(.rejected(let code, let reason)): return VerificationCheck(name, .failed, "\(reason) (X509_V_ERR \(code))")
        case .failure(let error): return VerificationCheck(name, .failed, "a certificate does not decode: \(error)")
        }
    }

    static func validity(_ certificate: [UInt8]?, at time: Int64) -> VerificationCheck {
        let name = "document signer validity"
        guard let certificate else { return VerificationCheck(name, .notSupported, "no document signer certificate") }
        switch LibCrypto.certificateValidity(certificate) {
        case .success(let period) where time < period.notBefore:
            return VerificationCheck(name, .failed, "the document signer certificate is not yet valid")
        case .success(let period) where time > period.notAfter:
            return VerificationCheck(name, .failed, "the document signer certificate has expired")
        case .success:
            return VerificationCheck(name, .passed, "the document signer certificate is within its validity period")
        case .failure(let error):
            return VerificationCheck(name, .failed, "the document signer certificate does not decode: \(error)")
        }
    }

    /// Verifies EF.CardSecurity the way EF.SOD is verified: its signed attributes, its
    /// signature with the document signer certificate it carries, the chain to a CSCA and
    /// the signer's validity. PACE-CAM's result is worth only as much as these checks.
    public static func verifyCardSecurity(_ bytes: [UInt8], trustStore: TrustStore, at time: Int64) -> [VerificationCheck] {
        let reader = ASN1Reader(file: .cardSecurity)
        let parts: SecurityObject.SignedDataParts
        do {
            parts = try SecurityObject.signedData(
                reader.parse(bytes), bytes: bytes, reader: reader, contentType: "0.4.0.127.0.7.3.2.1", what: "a SecurityInfos object")
        } catch {
            return [VerificationCheck("EF.CardSecurity", .failed, error.description)]
        }
        let certificate = parts.certificates.first
        let attributes = signedAttributes(signer: parts.signer, content: parts.content, contentType: "0.4.0.127.0.7.3.2.1")
        return [
            VerificationCheck("EF.CardSecurity signed attributes", attributes.outcome, attributes.reason),
            signature(parts.signer, content: parts.content, certificate: certificate),
            chain(certificate, trustStore: trustStore),
            validity(certificate, at: time),
        ]
    }
}
