import APDU
import KioskTestKit
@testable import MRTD
import Testing
import VirtualPassport

/// PACE-CAM end to end against the virtual passport: EF.CardSecurity signed at test time
/// by a generated document signer, the chip's static key generated at test time.
@Suite struct ChipAuthenticationMappingTests {
    static let issuer = Result { try TestIssuer(signerValidity: 0...4_000_000_000) }

    static func read(cloned: Bool) async throws -> (ChipContents, PassportDataSet) {
        let issuer = try Self.issuer.get()
        let key = try ChipAuthentication.chipKey(parameterID: 13, curve: "1.3.36.3.3.2.8.1.1.7")
        let published = cloned ? try ChipAuthentication.chipKey(parameterID: 13, curve: "1.3.36.3.3.2.8.1.1.7") : key
        let securityInfos = DER.set(
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.4.6.2"), DER.integer(2), DER.integer(13)),
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), published.subjectPublicKeyInfo))
        let cardSecurity = try issuer.signedContent(securityInfos, contentType: "0.4.0.127.0.7.3.2.1")
        var dataSet = try TestPassport.dataSet(faceSize: 3000)
        dataSet.cardAccess = PassportDataSet.paceCardAccess(protocol: "0.4.0.127.0.7.2.2.4.6.2", parameterID: 13)
        let passport = VirtualPassport(
            key: try dataSet.key(), files: dataSet.files, cardAccess: dataSet.cardAccess,
            chipAuthenticationKey: .init(privateKey: key.privateKey, parameterID: 13, cipher: .aes128), cardSecurity: cardSecurity)
        let contents = try await ChipReader(transport: InMemoryTransport(passport), key: try dataSet.key()).read()
        #expect(contents.cardSecurity == cardSecurity)
        return (contents, dataSet)
    }

    @Test func genuineChipPassesCAM() async throws {
        let (contents, dataSet) = try await Self.read(cloned: false)
        #expect(contents.accessControl == .pace)
        #expect(contents.chipAuthentication?.outcome == .passed, "\(String(describing: contents.chipAuthentication))")
        #expect(contents.chipAuthentication?.name == "chip authentication mapping")
        #expect(contents.files == dataSet.files)
        let issuer = try Self.issuer.get()
        let checks = PassiveAuthentication.verifyCardSecurity(
            try #require(contents.cardSecurity), trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: 2_000_000_000)
        #expect(checks.count == 4 && checks.allSatisfy { $0.outcome == .passed }, "\(checks)")
        var tampered = try #require(contents.cardSecurity)
        tampered[tampered.count / 3] ^= 0x01
        #expect(PassiveAuthentication.verifyCardSecurity(tampered, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: 2_000_000_000)
            .contains { $0.outcome == .failed })
    }

    @Test func chipWhoseKeyIsNotInEFCardSecurityFails() async throws {
        let (contents, dataSet) = try await Self.read(cloned: true)
        #expect(contents.chipAuthentication?.outcome == .failed)
        #expect(contents.files == dataSet.files)
    }
}
