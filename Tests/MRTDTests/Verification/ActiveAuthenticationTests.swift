import APDU
import KioskTestKit
@testable import MRTD
import Testing
import VirtualPassport

/// Active Authentication end to end against the virtual passport (keys generated at test
/// time), and the verifier against altered answers.
@Suite struct ActiveAuthenticationTests {
    static let ecdsaPlainSHA256: OID = "0.4.0.127.0.7.1.1.4.1.3"

    static func read(keyType: TestIssuer.KeyType, withDG14: Bool = true, chipKeyType: TestIssuer.KeyType? = nil) async throws -> ChipContents {
        let key = try TestIssuer.activeAuthenticationKey(keyType)
        let chipKey = try chipKeyType.map { try TestIssuer.activeAuthenticationKey($0).privateKey } ?? key.privateKey
        let dg14 = withDG14 ? LDSEncoder.dataGroup14(securityInfos: [DER.sequence(DER.oid(.activeAuthentication), DER.integer(1), DER.oid(ecdsaPlainSHA256))]) : nil
        let dataSet = try PassportDataSet.make(
            faceSize: 1000, dataGroup14: dg14, dataGroup15: LDSEncoder.dataGroup15(subjectPublicKeyInfo: key.publicKey),
            signSecurityObject: { TestPassport.unsignedSOD($0) })
        let passport = VirtualPassport(key: try dataSet.key(), files: dataSet.files, activeAuthenticationKey: chipKey)
        return try await ChipReader(transport: InMemoryTransport(passport), key: try dataSet.key()).read()
    }

    @Test func ecdsaChipPasses() async throws {
        let contents = try await Self.read(keyType: .ecP256)
        #expect(contents.activeAuthentication?.outcome == .passed, "\(String(describing: contents.activeAuthentication))")
        #expect(contents.statistics.phases[.activeAuthentication]?.commands == 1)
    }

    @Test func ecdsaWithoutDG14AssumesSHA256() async throws {
        let contents = try await Self.read(keyType: .ecP256, withDG14: false)
        #expect(contents.activeAuthentication?.outcome == .passed)
        #expect(contents.activeAuthentication?.reason.contains("assumed") == true)
    }

    @Test func rsaISO9796ChipPasses() async throws {
        let contents = try await Self.read(keyType: .rsa2048, withDG14: false)
        #expect(contents.activeAuthentication?.outcome == .passed, "\(String(describing: contents.activeAuthentication))")
    }

    @Test(arguments: [TestIssuer.KeyType.ecP256, .rsa2048]) func clonedChipWithAnotherKeyFails(keyType: TestIssuer.KeyType) async throws {
        let contents = try await Self.read(keyType: keyType, withDG14: false, chipKeyType: keyType)
        #expect(contents.activeAuthentication?.outcome == .failed)
    }

    @Test func answerToAnotherChallengeFails() throws {
        let key = try TestIssuer.activeAuthenticationKey(.rsa2048)
        let challenge: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let signature = try #require(ActiveAuthentication.chipSignature(privateKey: key.privateKey, challenge: challenge))
        let group = try DataGroup15(LDSEncoder.dataGroup15(subjectPublicKeyInfo: key.publicKey))
        #expect(ActiveAuthentication.verify(signature: signature, challenge: challenge, dataGroup15: group, securityInfos: nil).outcome == .passed)
        #expect(ActiveAuthentication.verify(signature: signature, challenge: [1, 2, 3, 4, 5, 6, 7, 9], dataGroup15: group, securityInfos: nil).outcome == .failed)
        var altered = signature
        altered[10] ^= 1
        #expect(ActiveAuthentication.verify(signature: altered, challenge: challenge, dataGroup15: group, securityInfos: nil).outcome == .failed)
        #expect(ActiveAuthentication.verify(signature: signature + [0], challenge: challenge, dataGroup15: group, securityInfos: nil).outcome == .failed)
    }

    /// A wrong key recovers random bytes; one in 256 of those ends in `CC`. They must read as
    /// "failed" (CI saw "not supported" once), while a real representative with a hash
    /// identifier we do not know stays "not supported".
    @Test func randomRecoveryWithACCTrailerFailsButAnUnknownHashIsNotSupported() throws {
        let key = try TestIssuer.activeAuthenticationKey(.rsa2048)
        let group = try DataGroup15(LDSEncoder.dataGroup15(subjectPublicKeyInfo: key.publicKey))
        let body = [UInt8](repeating: 0x5A, count: 253)
        let garbage = try LibCrypto.rsaRaw(.privateKey(key.privateKey), input: [0x4B] + body + [0x99, 0xCC]).get()
        let check = ActiveAuthentication.verify(signature: garbage, challenge: [1, 2, 3, 4, 5, 6, 7, 8], dataGroup15: group, securityInfos: nil)
        #expect(check.outcome == .failed, "\(check)")
        let unknownHash = try LibCrypto.rsaRaw(.privateKey(key.privateKey), input: [0x6A] + body + [0x99, 0xCC]).get()
        let other = ActiveAuthentication.verify(signature: unknownHash, challenge: [1, 2, 3, 4, 5, 6, 7, 8], dataGroup15: group, securityInfos: nil)
        #expect(other.outcome == .notSupported, "\(other)")
    }

    @Test func ecdsaSignatureFormsConvert() {
        let plain = [UInt8](repeating: 0, count: 31) + [0x80] + [0x01] + [UInt8](repeating: 0x7F, count: 31)
        let der = ECDSASignature.der(plain: plain)
        #expect(der == DER.sequence(DER.tlv(0x02, [0x00, 0x80]), DER.tlv(0x02, [0x01] + [UInt8](repeating: 0x7F, count: 31))))
        #expect(ECDSASignature.plain(der: der, size: 32) == plain)
    }
}
