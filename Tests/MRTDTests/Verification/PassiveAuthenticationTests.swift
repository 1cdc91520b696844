import APDU
import Foundation
@testable import MRTD
import Testing
import VirtualPassport

/// Passive Authentication over documents signed at test time by a CSCA and document signer
/// that libcrypto generates; EF.SOD comes from OpenSSL's CMS_sign, an implementation
/// independent of our parser.
@Suite struct PassiveAuthenticationTests {
    static let now: Int64 = 1_790_000_000  // 2026-09
    static let year: Int64 = 365 * 86_400

    static func document(keyType: TestIssuer.KeyType = .ecP256, signerValidity: ClosedRange<Int64>? = nil) throws -> (PassportDataSet, TestIssuer) {
        let issuer = try TestIssuer(keyType: keyType, signerValidity: signerValidity ?? (now - year)...(now + year))
        let dataSet = try PassportDataSet.make(faceSize: 5000, signSecurityObject: { try issuer.securityObject($0) })
        return (dataSet, issuer)
    }

    @Test(arguments: [TestIssuer.KeyType.ecP256, .rsa2048]) func genuineDocumentPasses(keyType: TestIssuer.KeyType) throws {
        let (dataSet, issuer) = try Self.document(keyType: keyType)
        let sod = try SecurityObject(try #require(dataSet.files[.sod]))
        #expect(sod.certificates == [issuer.signerCertificate])
        #expect(sod.signer.contentType == .ldsSecurityObject)
        let result = PassiveAuthentication.verify(files: dataSet.files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Self.now)
        #expect(result.outcome == .passed, "\(result)")
        #expect(result.dataGroupHashes.keys.sorted() == [1, 2])
    }

    @Test func tamperedDataGroupFailsItsHashOnly() throws {
        let (dataSet, issuer) = try Self.document()
        var files = dataSet.files
        files[.dg2]?[100] ^= 0x01
        let result = PassiveAuthentication.verify(files: files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Self.now)
        #expect(result.outcome == .failed)
        #expect(result.dataGroupHashes[2]?.outcome == .failed)
        #expect(result.dataGroupHashes[1]?.outcome == .passed)
        #expect(result.signature.outcome == .passed && result.chain.outcome == .passed)
    }

    @Test func unknownCSCAFailsTheChain() throws {
        let (dataSet, _) = try Self.document()
        let stranger = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let result = PassiveAuthentication.verify(files: dataSet.files, trustStore: TrustStore(certificates: [stranger.cscaCertificate]), at: Self.now)
        #expect(result.chain.outcome == .failed, "\(result.chain)")
        #expect(result.signature.outcome == .passed)
        #expect(result.outcome == .failed)
    }

    @Test func emptyTrustStoreIsNotSupported() throws {
        let (dataSet, _) = try Self.document()
        let result = PassiveAuthentication.verify(files: dataSet.files, trustStore: TrustStore(), at: Self.now)
        #expect(result.chain.outcome == .notSupported)
        #expect(result.outcome == .notSupported)
    }

    @Test func expiredDocumentSignerFailsValidity() throws {
        let (dataSet, issuer) = try Self.document(signerValidity: (Self.now - 3 * Self.year)...(Self.now - Self.year))
        let result = PassiveAuthentication.verify(files: dataSet.files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Self.now)
        #expect(result.validity.outcome == .failed)
        #expect(result.validity.reason.contains("expired"))
        #expect(result.chain.outcome == .passed && result.signature.outcome == .passed)
    }

    @Test func alteredSignatureFails() throws {
        let (dataSet, issuer) = try Self.document()
        var sodBytes = try #require(dataSet.files[.sod])
        let signature = try SecurityObject(sodBytes).signer.signature
        let start = try #require((0...(sodBytes.count - signature.count)).first { Array(sodBytes[$0..<($0 + signature.count)]) == signature })
        sodBytes[start + signature.count / 2] ^= 0x40
        var files = dataSet.files
        files[.sod] = sodBytes
        let result = PassiveAuthentication.verify(files: files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Self.now)
        #expect(result.signature.outcome == .failed)
    }

    @Test func alteredSecurityObjectFailsTheSignedDigest() throws {
        let (dataSet, issuer) = try Self.document()
        var sodBytes = try #require(dataSet.files[.sod])
        // Change the DG1 hash inside the signed content.
        let hash = try #require(try SecurityObject(sodBytes).dataGroupHashes[1])
        let start = try #require((0...(sodBytes.count - hash.count)).first { Array(sodBytes[$0..<($0 + hash.count)]) == hash })
        sodBytes[start] ^= 0x01
        var files = dataSet.files
        files[.sod] = sodBytes
        let result = PassiveAuthentication.verify(files: files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Self.now)
        #expect(result.signedAttributes.outcome == .failed)
        #expect(result.dataGroupHashes[1]?.outcome == .failed)
    }

    @Test func revokedDocumentSignerFailsTheChain() throws {
        let (dataSet, issuer) = try Self.document()
        let clean = TrustStore(certificates: [issuer.cscaCertificate], revocationLists: [try issuer.revocationList(revokeSigner: false, at: Self.now)])
        #expect(PassiveAuthentication.verify(files: dataSet.files, trustStore: clean, at: Self.now).chain.outcome == .passed)
        let revoking = TrustStore(certificates: [issuer.cscaCertificate], revocationLists: [try issuer.revocationList(revokeSigner: true, at: Self.now)])
        let chain = PassiveAuthentication.verify(files: dataSet.files, trustStore: revoking, at: Self.now).chain
        #expect(chain.outcome == .failed)
        #expect(chain.reason.contains("revoked"), "\(chain.reason)")
    }

    @Test func missingSODFailsEverything() {
        let result = PassiveAuthentication.verify(files: [.dg1: [0x61, 0x00]], trustStore: TrustStore(), at: Self.now)
        #expect(result.outcome == .failed)
    }

    @Test func trustStoreLoadsPEMAndDERFiles() throws {
        let (dataSet, issuer) = try Self.document()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-truststore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = try TestIssuer(signerValidity: (Self.now - Self.year)...(Self.now + Self.year))
        let pem = "-----BEGIN CERTIFICATE-----\n" + Data(issuer.cscaCertificate).base64EncodedString(options: .lineLength64Characters) + "\n-----END CERTIFICATE-----\n"
        try Data(pem.utf8).write(to: directory.appendingPathComponent("utopia.pem"))
        try Data(other.cscaCertificate).write(to: directory.appendingPathComponent("other.cer"))
        try Data("not a certificate".utf8).write(to: directory.appendingPathComponent("README.txt"))
        let store = try TrustStore(directory: directory.path)
        #expect(store.certificates.count == 2)
        #expect(store.certificates.contains(issuer.cscaCertificate))
        let result = PassiveAuthentication.verify(files: dataSet.files, trustStore: store, at: Self.now)
        #expect(result.outcome == .passed, "\(result)")

        try Data("garbage".utf8).write(to: directory.appendingPathComponent("broken.der"))
        #expect(throws: TrustStore.LoadError.self) { try TrustStore(directory: directory.path) }
    }

    @Test func rsaPSSAndECDSASignaturesRoundTrip() throws {
        for (type, scheme) in [(LibCrypto.KeyType.rsa2048, LibCrypto.SignatureScheme.rsaPSS), (.rsa2048, .keyDefault), (.ecP256, .keyDefault)] {
            let key = try LibCrypto.generateKey(type).get()
            let data = Array("security object".utf8)
            let signature = try LibCrypto.sign(privateKey: key.privateKey, digest: .sha256, scheme: scheme, data: data).get()
            #expect(try LibCrypto.verifySignature(
                key: .subjectPublicKeyInfo(key.publicKey), digest: .sha256, scheme: scheme, saltLength: 32, data: data, signature: signature).get())
            #expect(try !LibCrypto.verifySignature(
                key: .subjectPublicKeyInfo(key.publicKey), digest: .sha256, scheme: scheme, saltLength: 32, data: data + [0], signature: signature).get())
        }
    }

    @Test func pssParametersFollowRFC4055Defaults() {
        #expect(PassiveAuthentication.pssParameters([])?.digest == .sha1)
        #expect(PassiveAuthentication.pssParameters([])?.saltLength == 20)
        let sha256 = DER.sequence(
            DER.tlv(0xA0, DER.algorithm(.sha256)),
            DER.tlv(0xA1, DER.sequence(DER.oid("1.2.840.113549.1.1.8"), DER.algorithm(.sha256))),
            DER.tlv(0xA2, DER.integer(32)))
        #expect(PassiveAuthentication.pssParameters(sha256) == .init(digest: .sha256, scheme: .rsaPSS, saltLength: 32))
    }
}
