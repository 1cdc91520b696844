import Backend
import Foundation
import KioskTestKit
import MRTD
import ReferenceBackend
import Testing
import VirtualPassport

/// Server-side passive authentication: the backend re-verifies EF.SOD and the data groups
/// with its own CSCA trust store, whatever the station reported.
@Suite struct PassiveAuthenticationTests {
    /// Document signers valid around the loopback backend's manual time (1_790_000_000).
    static let validity: ClosedRange<Int64> = 1_780_000_000...1_800_000_000

    /// ChipData of a test passport with this MRZ, EF.SOD signed by `issuer`.
    static func chipPart(
        _ lines: [String], issuer: TestIssuer, replacingDG1With other: [String]? = nil, stationPA: Decision = .PASSED,
        keys: PassportKeys = PassportKeys(), activeAuthentication: ChipCheck? = nil, chipAuthentication: ChipCheck? = nil
    ) throws -> Data {
        let set = try PassportDataSet.make(mrz: lines.joined(), faceSize: 2_000, dataGroup14: keys.dataGroup14, dataGroup15: keys.dataGroup15) {
            try issuer.securityObject($0)
        }
        var groups: [String: Data] = [:]
        for (file, bytes) in set.files {
            if file == .sod { groups["SOD"] = Data(bytes) }
            if file == .com { groups["COM"] = Data(bytes) }
            if let number = file.dataGroupNumber { groups["DG\(number)"] = Data(bytes) }
        }
        if let other { groups["DG1"] = Data(LDSEncoder.dataGroup1(mrz: other.joined())) }
        return try JSONEncoder().encode(ChipData(
            dataGroups: groups,
            stationVerification: .init(
                passiveAuthentication: stationPA, activeAuthentication: activeAuthentication, chipAuthentication: chipAuthentication, accessControl: "BAC")))
    }

    /// One ID-with-chip journey against a backend trusting `trusted`; the details it ends with.
    func journey(trusted: [TestIssuer], cameraMRZ: [String] = Fixtures.validMRZ, chip: Data) async throws -> WorkflowExecutionDetails {
        try await LoopbackBackend.with(configure: { configuration in
            configuration.passiveAuthentication = TrustStoreVerifier(trustStore: TrustStore(certificates: trusted.map(\.cscaCertificate)))
        }) { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(key: 10015))
            let id = try account.credential(.ID)
            let execution = ExecutionRef(account)
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            _ = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(cameraMRZ)))
            let nfc = try await client.uploadPart(PartUpload(execution: execution, credentialId: id.id, classifier: .nfc, body: chip))
            #expect(nfc.usability.decision == .PASSED)
            _ = try await client.finalize(execution)
            return try await client.retrieve(execution)
        }
    }

    func pa(_ details: WorkflowExecutionDetails) -> CapabilityResult? {
        details.capabilities.chipAuthentication.first { $0.id == "passiveAuthentication" }
    }

    @Test func documentOfATrustedIssuerPasses() async throws {
        let issuer = try TestIssuer(signerValidity: Self.validity)
        let details = try await journey(trusted: [issuer], chip: Self.chipPart(Fixtures.validMRZ, issuer: issuer))
        #expect(pa(details)?.decision == .PASSED)
        #expect(details.capabilities.dataChecks.first { $0.id == "mrzMatchesChip" }?.decision == .PASSED)
        #expect(details.decision.type == .PASSED)
        #expect(details.idResult?.extractionMethod == "nfc")
    }

    @Test func tamperedDG1IsRejectedEvenWhenTheStationSaysPassed() async throws {
        let issuer = try TestIssuer(signerValidity: Self.validity)
        let chip = try Self.chipPart(Fixtures.validMRZ, issuer: issuer, replacingDG1With: Fixtures.expiredMRZ, stationPA: .PASSED)
        let details = try await journey(trusted: [issuer], cameraMRZ: Fixtures.expiredMRZ, chip: chip)
        #expect(pa(details)?.decision == .REJECTED)
        #expect(pa(details)?.reason == "DG1_HASH_MISMATCH")
        // The station's claim is kept, but only as what it reported.
        #expect(details.capabilities.chipAuthentication.first { $0.id == "stationPassiveAuthentication" }?.reason == "REPORTED_BY_STATION")
        #expect(details.decision.type == .REJECTED)
    }

    @Test func documentOfAnUnknownCSCAIsRejected() async throws {
        let trusted = try TestIssuer(signerValidity: Self.validity)
        let stranger = try TestIssuer(signerValidity: Self.validity)
        let details = try await journey(trusted: [trusted], chip: Self.chipPart(Fixtures.validMRZ, issuer: stranger))
        #expect(pa(details)?.decision == .REJECTED)
        #expect(pa(details)?.reason == "CSCA_NOT_TRUSTED")
        #expect(details.decision.type == .REJECTED)
    }

    @Test func chipWithoutSODIsRejected() async throws {
        let issuer = try TestIssuer(signerValidity: Self.validity)
        let details = try await journey(trusted: [issuer], chip: Fixtures.chipPart(Fixtures.validMRZ))
        #expect(pa(details)?.decision == .REJECTED)
        #expect(pa(details)?.reason == "SOD_MISSING")
    }

    @Test func expiredDocumentSignerIsRejected() async throws {
        let issuer = try TestIssuer(signerValidity: 1_700_000_000...1_750_000_000)
        let details = try await journey(trusted: [issuer], chip: Self.chipPart(Fixtures.validMRZ, issuer: issuer))
        #expect(pa(details)?.reason == "DOCUMENT_SIGNER_NOT_VALID")
    }

    @Test func cameraMRZAgainstAnAuthenticChipStillCounts() async throws {
        // The chip is genuine and passes; the printed MRZ the camera read is another document's.
        let issuer = try TestIssuer(signerValidity: Self.validity)
        let details = try await journey(trusted: [issuer], cameraMRZ: Fixtures.expiredMRZ, chip: Self.chipPart(Fixtures.validMRZ, issuer: issuer))
        #expect(pa(details)?.decision == .PASSED)
        #expect(details.capabilities.dataChecks.first { $0.id == "mrzMatchesChip" }?.reason == "MRZ_CHIP_MISMATCH")
        #expect(details.decision.type == .REJECTED)
    }

    func check(_ details: WorkflowExecutionDetails, _ id: String) -> CapabilityResult? {
        details.capabilities.chipAuthentication.first { $0.id == id }
    }

    /// Active and Chip Authentication as the station reports the chip answered: a genuine
    /// chip passes, a failed check (a cloned chip) rejects, a chip without them does not
    /// lower the decision and is recorded as not supported.
    @Test func theChipsOwnChecksDecide() async throws {
        let issuer = try TestIssuer(signerValidity: Self.validity)
        let keys = try PassportKeys.make(activeAuthentication: true, chipAuthentication: true)
        let genuine = try await journey(trusted: [issuer], chip: Self.chipPart(
            Fixtures.validMRZ, issuer: issuer, keys: keys, activeAuthentication: ChipCheck(.PASSED), chipAuthentication: ChipCheck(.PASSED)))
        #expect(check(genuine, "activeAuthentication")?.decision == .PASSED)
        #expect(check(genuine, "chipAuthentication")?.decision == .PASSED)
        #expect(genuine.decision.type == .PASSED)

        let cloned = try await journey(trusted: [issuer], chip: Self.chipPart(
            Fixtures.validMRZ, issuer: issuer, keys: keys, activeAuthentication: ChipCheck(.FAILED, reason: "the ISO/IEC 9796-2 signature does not cover the challenge"),
            chipAuthentication: ChipCheck(.PASSED)))
        #expect(pa(cloned)?.decision == .PASSED)
        #expect(check(cloned, "activeAuthentication")?.reason == "ACTIVE_AUTHENTICATION_FAILED")
        #expect(cloned.decision.type == .REJECTED)

        let caFailed = try await journey(trusted: [issuer], chip: Self.chipPart(
            Fixtures.validMRZ, issuer: issuer, keys: keys, activeAuthentication: ChipCheck(.PASSED), chipAuthentication: ChipCheck(.FAILED)))
        #expect(check(caFailed, "chipAuthentication")?.reason == "CHIP_AUTHENTICATION_FAILED")
        #expect(caFailed.decision.type == .REJECTED)

        let plain = try await journey(trusted: [issuer], chip: Self.chipPart(
            Fixtures.validMRZ, issuer: issuer, activeAuthentication: ChipCheck(.NOT_SUPPORTED), chipAuthentication: ChipCheck(.NOT_SUPPORTED)))
        #expect(check(plain, "activeAuthentication")?.reason == "NOT_SUPPORTED_BY_CHIP")
        #expect(check(plain, "chipAuthentication")?.decision == .NOT_EXECUTED)
        #expect(plain.decision.type == .PASSED)
    }

    /// Active Authentication reported passed by a chip without an Active Authentication key
    /// (no DG15 under the SOD) cannot be true.
    @Test func activeAuthenticationPassedWithoutDG15IsRejected() async throws {
        let issuer = try TestIssuer(signerValidity: Self.validity)
        let details = try await journey(trusted: [issuer], chip: Self.chipPart(Fixtures.validMRZ, issuer: issuer, activeAuthentication: ChipCheck(.PASSED)))
        #expect(check(details, "activeAuthentication")?.reason == "NO_DG15")
        #expect(details.decision.type == .REJECTED)
    }

    /// What earlier stations sent (a bare decision for Active Authentication) still reads.
    @Test func anEarlierStationsActiveAuthenticationStillReads() throws {
        let json = #"{"passiveAuthentication": "PASSED", "activeAuthentication": "REJECTED", "accessControl": "BAC"}"#
        let verification = try JSONDecoder().decode(ChipData.StationVerification.self, from: Data(json.utf8))
        #expect(verification.activeAuthentication?.outcome == .FAILED)
        #expect(verification.chipAuthentication == nil)
    }

    @Test func emptyTrustStoreSaysNotExecuted() {
        let verdict = TrustStoreVerifier(trustStore: TrustStore()).verify(dataGroups: [:], at: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(verdict.decision == .NOT_EXECUTED)
        #expect(verdict.reason == "NO_CSCA_TRUST_STORE")
    }

    @Test func malformedSODIsRejectedAsMalformed() {
        let verifier = TrustStoreVerifier(trustStore: TrustStore(certificates: [[0x30, 0x00]]))
        let verdict = verifier.verify(dataGroups: ["SOD": Data([0x77, 0x01, 0x00])], at: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(verdict.decision == .REJECTED)
        #expect(verdict.reason == "SOD_MALFORMED")
    }
}
