package import MRTD

/// A document issuing PKI for tests and demos: a CSCA and a document signer generated
/// with libcrypto, and EF.SOD signed by them. Never for real documents.
package struct TestIssuer: Sendable {
    package let cscaCertificate: [UInt8]
    package let cscaPrivateKey: [UInt8]
    package let signerCertificate: [UInt8]
    package let signerPrivateKey: [UInt8]

    /// The key type of the issuer's keys.
    package enum KeyType: Sendable {
        case rsa2048, ecP256

        var libcrypto: LibCrypto.KeyType { self == .rsa2048 ? .rsa2048 : .ecP256 }
    }

    /// Generates a CSCA and a document signer it certifies.
    /// - Parameters:
    ///   - country: the issuing country code in both certificates.
    ///   - keyType: the key type of both.
    ///   - signerValidity: the document signer's validity, seconds since 1970.
    package init(country: String = "UT", keyType: KeyType = .ecP256, signerValidity: ClosedRange<Int64>) throws(MRTDError) {
        let csca = try Self.value(LibCrypto.generateKey(keyType.libcrypto))
        let signer = try Self.value(LibCrypto.generateKey(keyType.libcrypto))
        cscaCertificate = try Self.value(LibCrypto.makeCertificate(
            country: country, commonName: "idkiosk test CSCA", serial: 1, notBefore: signerValidity.lowerBound - 86_400,
            notAfter: signerValidity.upperBound + 10 * 365 * 86_400, isCA: true, subjectPublicKey: csca.publicKey,
            issuerCertificate: nil, issuerPrivateKey: csca.privateKey))
        cscaPrivateKey = csca.privateKey
        signerCertificate = try Self.value(LibCrypto.makeCertificate(
            country: country, commonName: "idkiosk test document signer", serial: 2, notBefore: signerValidity.lowerBound,
            notAfter: signerValidity.upperBound, isCA: false, subjectPublicKey: signer.publicKey,
            issuerCertificate: cscaCertificate, issuerPrivateKey: csca.privateKey))
        signerPrivateKey = signer.privateKey
    }

    /// EF.SOD: the security object signed as CMS SignedData, inside tag 77.
    package func securityObject(_ content: [UInt8], digest: HashAlgorithm = .sha256) throws(MRTDError) -> [UInt8] {
        let contentInfo = try Self.value(LibCrypto.cmsSign(
            content: content, contentType: OID.ldsSecurityObject.description, certificate: signerCertificate,
            privateKey: signerPrivateKey, digest: digest.digest))
        return DER.tlv(0x77, contentInfo)
    }

    /// Any content signed by the document signer as CMS SignedData (ContentInfo DER), for
    /// master lists and other signed objects of tests.
    package func signedContent(_ content: [UInt8], contentType: OID, digest: HashAlgorithm = .sha256) throws(MRTDError) -> [UInt8] {
        try Self.value(LibCrypto.cmsSign(
            content: content, contentType: contentType.description, certificate: signerCertificate,
            privateKey: signerPrivateKey, digest: digest.digest))
    }

    /// A CRL of the CSCA; `revokeSigner` revokes the document signer (serial 2).
    package func revocationList(revokeSigner: Bool, at time: Int64) throws(MRTDError) -> [UInt8] {
        try Self.value(LibCrypto.makeCRL(
            issuerCertificate: cscaCertificate, issuerPrivateKey: cscaPrivateKey, revokedSerials: revokeSigner ? [2] : [],
            thisUpdate: time - 86_400, nextUpdate: time + 30 * 86_400))
    }

    /// A fresh key pair for Active Authentication: (PKCS #8 private key, SubjectPublicKeyInfo).
    package static func activeAuthenticationKey(_ type: KeyType) throws(MRTDError) -> (privateKey: [UInt8], publicKey: [UInt8]) {
        try value(LibCrypto.generateKey(type.libcrypto))
    }

    private static func value<T>(_ result: Result<T, OpenSSLError>) throws(MRTDError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .crypto(error)
        }
    }
}
