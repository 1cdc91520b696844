import APDU
import KioskTestKit
@testable import MRTD
import Testing
import VirtualPassport

/// Chip Authentication against the virtual passport, with chip keys generated at test time.
@Suite struct ChipAuthenticationTests {
    struct Setup {
        var protocolID: OID
        var parameterID: Int
        var curve: OID
        var cipher: SecureMessagingCipher
        /// The key's curve as explicit ECParameters instead of its name.
        var explicit = false
    }

    static let aesP256 = Setup(protocolID: "0.4.0.127.0.7.2.2.3.2.2", parameterID: 12, curve: "1.2.840.10045.3.1.7", cipher: .aes128)
    static let tripleDESBrainpool = Setup(protocolID: "0.4.0.127.0.7.2.2.3.2.1", parameterID: 13, curve: "1.3.36.3.3.2.8.1.1.7", cipher: .tripleDES)

    static func read(_ setup: Setup, cloned: Bool = false, quirks: PassportQuirks = PassportQuirks(), pace: Bool = false) async throws -> (ChipContents, PassportDataSet) {
        let key = setup.explicit
            ? try ChipAuthentication.chipKeyWithExplicitParameters(parameterID: setup.parameterID)
            : try ChipAuthentication.chipKey(parameterID: setup.parameterID, curve: setup.curve)
        let chipKey = cloned ? try ChipAuthentication.chipKey(parameterID: setup.parameterID, curve: setup.curve) : key
        let dg14 = LDSEncoder.dataGroup14(securityInfos: [
            DER.sequence(DER.oid(setup.protocolID), DER.integer(1)),
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), key.subjectPublicKeyInfo),
        ])
        var dataSet = try PassportDataSet.make(faceSize: 6000, dataGroup14: dg14, signSecurityObject: { TestPassport.unsignedSOD($0) })
        if pace { dataSet.cardAccess = PassportDataSet.paceCardAccess() }
        let passport = VirtualPassport(
            key: try dataSet.key(), files: dataSet.files, cardAccess: dataSet.cardAccess, quirks: quirks,
            chipAuthenticationKey: .init(privateKey: chipKey.privateKey, parameterID: setup.parameterID, cipher: setup.cipher))
        return (try await ChipReader(transport: InMemoryTransport(passport), key: try dataSet.key()).read(), dataSet)
    }

    @Test func aesChipAuthenticationPasses() async throws {
        let (contents, dataSet) = try await Self.read(Self.aesP256)
        #expect(contents.chipAuthentication?.outcome == .passed, "\(String(describing: contents.chipAuthentication))")
        #expect(contents.files == dataSet.files)
    }

    @Test func tripleDESChipAuthenticationOnBrainpoolPasses() async throws {
        let (contents, dataSet) = try await Self.read(Self.tripleDESBrainpool)
        #expect(contents.chipAuthentication?.outcome == .passed, "\(String(describing: contents.chipAuthentication))")
        #expect(contents.files == dataSet.files)
    }

    @Test func afterPACETooChipAuthenticationPasses() async throws {
        let (contents, _) = try await Self.read(Self.aesP256, pace: true)
        #expect(contents.accessControl == .pace)
        #expect(contents.chipAuthentication?.outcome == .passed)
    }

    @Test func clonedChipFailsAndIsReadWithoutIt() async throws {
        let (contents, dataSet) = try await Self.read(Self.aesP256, cloned: true)
        #expect(contents.chipAuthentication?.outcome == .failed)
        #expect(contents.files == dataSet.files)
    }

    @Test func sessionRestartsRepeatChipAuthentication() async throws {
        var quirks = PassportQuirks()
        quirks.wrongLengthAbove = 223
        quirks.wrongLengthIsPlain = true
        let (contents, dataSet) = try await Self.read(Self.aesP256, quirks: quirks)
        #expect(contents.statistics.sessionRestarts == 3)
        #expect(contents.chipAuthentication?.outcome == .passed)
        #expect(contents.files == dataSet.files)
    }

    /// Interoperability fault 2 (#13): DG14 with id-CA-ECDH-AES-CBC-CMAC-128 (version 1, no
    /// keyId) and a key whose SubjectPublicKeyInfo gives the curve as explicit ECParameters,
    /// as many issuing states encode it. Chip Authentication was not performed and the result
    /// had no line for it; the explicit parameters are now matched to their standardized curve.
    @Test(arguments: [12, 13, 16])
    func explicitCurveParametersAreUnderstood(parameterID: Int) async throws {
        let curves: [Int: OID] = [12: "1.2.840.10045.3.1.7", 13: "1.3.36.3.3.2.8.1.1.7", 16: "1.3.36.3.3.2.8.1.1.11"]
        let setup = Setup(protocolID: "0.4.0.127.0.7.2.2.3.2.2", parameterID: parameterID, curve: curves[parameterID]!, cipher: .aes128, explicit: true)
        let (contents, dataSet) = try await Self.read(setup)
        #expect(contents.chipAuthentication?.outcome == .passed, "\(String(describing: contents.chipAuthentication))")
        #expect(contents.files == dataSet.files)
        let cloned = try await Self.read(setup, cloned: true).0
        #expect(cloned.chipAuthentication?.outcome == .failed)
    }

    /// Explicit parameters of no standardized curve (a tampered prime): not run, and said so.
    @Test func explicitParametersOfAnUnknownCurveAreNotSupportedAndSaid() throws {
        let key = try ChipAuthentication.chipKeyWithExplicitParameters(parameterID: 12)
        var spki = key.subjectPublicKeyInfo
        // The prime's last byte (P-256's p ends in FF): make it another number.
        let prime = try TLV.parse(spki).children[0].children[1].children[1].children[1]
        let index = try #require(Self.range(of: prime.value, in: spki)).upperBound - 1
        spki[index] ^= 0x02
        let infos = try SecurityInfos(dataGroup14: LDSEncoder.dataGroup14(securityInfos: [
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1)),
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), spki),
        ]))
        guard case .failure(let unsupported) = ChipAuthentication.Parameters.support(infos) else { throw TestFailure("an unknown curve was accepted") }
        #expect(unsupported.reason.contains("not a standardized one"), "\(unsupported.reason)")
    }

    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start..<start + needle.count
        }
        return nil
    }

    /// Every check is said: a chip without DG14 or DG15 reads "not supported" with why.
    @Test func aChipWithoutDG14OrDG15SaysNotSupported() async throws {
        let dataSet = try PassportDataSet.make(faceSize: 500, signSecurityObject: { TestPassport.unsignedSOD($0) })
        #expect(dataSet.files[.dg14] == nil && dataSet.files[.dg15] == nil)
        let contents = try await ChipReader(transport: InMemoryTransport(try TestPassport.passport(dataSet)), key: try dataSet.key()).read()
        #expect(contents.chipAuthentication?.outcome == .notSupported)
        #expect(contents.chipAuthentication?.reason.contains("no DG14") == true, "\(String(describing: contents.chipAuthentication))")
        #expect(contents.activeAuthentication?.outcome == .notSupported)
        #expect(contents.activeAuthentication?.reason.contains("no DG15") == true)
    }

    @Test func parametersNeedANamedCurveECDHKey() throws {
        let key = try ChipAuthentication.chipKey(parameterID: 16, curve: "1.3.36.3.3.2.8.1.1.11")
        let ok = try SecurityInfos(dataGroup14: LDSEncoder.dataGroup14(securityInfos: [
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.4"), DER.integer(1)),
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), key.subjectPublicKeyInfo),
        ]))
        let parameters = try #require(ChipAuthentication.Parameters(ok))
        #expect(parameters.parameterID == 16 && parameters.cipher == .aes256)
        let dh = try SecurityInfos(dataGroup14: LDSEncoder.dataGroup14(securityInfos: [
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.1.2"), DER.integer(1)),
            DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.1"), key.subjectPublicKeyInfo),
        ]))
        #expect(ChipAuthentication.Parameters(dh) == nil)
        guard case .failure(let unsupported) = ChipAuthentication.Parameters.support(dh) else { throw TestFailure("DH was accepted") }
        #expect(unsupported.reason.contains("only ECDH"), "\(unsupported.reason)")
    }
}

/// A chip whose Chip Authentication key is only in EF.CardSecurity: EF.CardAccess lists
/// PACE and ChipAuthenticationInfo, there is no DG14, and the reader reads EF.CardSecurity
/// right after PACE (not PACE-CAM) to run Chip Authentication with it.
@Suite struct CardSecurityChipAuthenticationTests {
    static let issuer = Result { try TestIssuer(signerValidity: 0...4_000_000_000) }

    static func read(cloned: Bool, listInCardAccess: Bool = true) async throws -> (ChipContents, PassportDataSet, [UInt8]) {
        let key = try ChipAuthentication.chipKey(parameterID: 12, curve: "1.2.840.10045.3.1.7")
        let chipKey = cloned ? try ChipAuthentication.chipKey(parameterID: 12, curve: "1.2.840.10045.3.1.7") : key
        let cardSecurity = try Self.issuer.get().signedContent(
            DER.set(
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.4.2.2"), DER.integer(2), DER.integer(13)),
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1)),
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), key.subjectPublicKeyInfo)),
            contentType: "0.4.0.127.0.7.3.2.1")
        var dataSet = try TestPassport.dataSet(faceSize: 4000)
        #expect(dataSet.files[.dg14] == nil)
        let pace = DER.sequence(DER.oid("0.4.0.127.0.7.2.2.4.2.2"), DER.integer(2), DER.integer(13))
        dataSet.cardAccess = listInCardAccess ? DER.set(pace, DER.sequence(DER.oid("0.4.0.127.0.7.2.2.3.2.2"), DER.integer(1))) : DER.set(pace)
        let passport = VirtualPassport(
            key: try dataSet.key(), files: dataSet.files, cardAccess: dataSet.cardAccess,
            chipAuthenticationKey: .init(privateKey: chipKey.privateKey, parameterID: 12, cipher: .aes128), cardSecurity: cardSecurity)
        let contents = try await ChipReader(transport: InMemoryTransport(passport), key: try dataSet.key()).read()
        return (contents, dataSet, cardSecurity)
    }

    @Test func chipAuthenticationWithTheKeyFromEFCardSecurity() async throws {
        let (contents, dataSet, cardSecurity) = try await Self.read(cloned: false)
        #expect(contents.accessControl == .pace)
        #expect(contents.cardSecurity == cardSecurity)
        let check = try #require(contents.chipAuthentication)
        #expect(check.outcome == .passed, "\(check)")
        #expect(check.reason.contains("EF.CardSecurity"))
        #expect(contents.files == dataSet.files)
        // EF.CardSecurity is signed: its own Passive Authentication passes.
        let checks = PassiveAuthentication.verifyCardSecurity(
            cardSecurity, trustStore: TrustStore(certificates: [try Self.issuer.get().cscaCertificate]), at: 2_000_000_000)
        #expect(checks.allSatisfy { $0.outcome == .passed }, "\(checks)")
    }

    @Test func clonedChipFailsChipAuthentication() async throws {
        let (contents, dataSet, _) = try await Self.read(cloned: true)
        #expect(contents.chipAuthentication?.outcome == .failed)
        #expect(contents.files == dataSet.files)
    }

    @Test func notListedInEFCardAccessMeansNotRead() async throws {
        let (contents, _, _) = try await Self.read(cloned: false, listInCardAccess: false)
        #expect(contents.cardSecurity == nil)
        #expect(contents.chipAuthentication?.outcome == .notSupported)
    }
}
