import Backend
import Capture
import Foundation
import MRTD
@testable import Station
import Testing
import VirtualPassport

/// The station's mapping of a chip capture's reading to the backend's `ChipData` and the
/// summary for the log.
@Suite struct ChipOutcomeTests {
    static let issuer = try! TestIssuer(signerValidity: 1_600_000_000...2_100_000_000)
    static let files = try! PassportDataSet.make(mrz: DemoPassport.mrz.joined(), faceSize: 4_000) { try issuer.securityObject($0) }.files

    func reading(trusting csca: [UInt8]?, accessControl: ChipContents.AccessControl = .pace, activeAuthentication: VerificationCheck? = nil)
        -> ChipReading
    {
        var statistics = ChipReadStatistics()
        var counts = ChipReadStatistics.Counts()
        counts.commands = 42
        statistics.phases[.allCases[0]] = counts
        let contents = ChipContents(
            files: Self.files, accessControl: accessControl, activeAuthentication: activeAuthentication, statistics: statistics)
        let passive = csca.map {
            PassiveAuthentication.verify(files: Self.files, trustStore: TrustStore(certificates: [$0]), at: Int64(Date().timeIntervalSince1970))
        }
        return ChipReading(reader: "test reader", contents: contents, passiveAuthentication: passive, duration: .milliseconds(800))
    }

    @Test func theUploadCarriesTheFilesAndTheStationsVerdict() {
        let outcome = ChipOutcome(reading(trusting: Self.issuer.cscaCertificate))
        #expect(outcome.chipData.stationVerification.accessControl == "PACE")
        #expect(outcome.chipData.stationVerification.passiveAuthentication == .PASSED)
        #expect(outcome.chipData.stationVerification.activeAuthentication == nil)
        #expect(Set(outcome.chipData.dataGroups.keys).isSuperset(of: ["DG1", "DG2", "SOD"]))
        #expect(outcome.chipData.dataGroups["DG1"] == Data(Self.files[.dg1] ?? []))
        #expect(outcome.summary == "PACE, PA PASSED, 42 APDUs")
        // The summary is for logs: no personal data.
        #expect(!outcome.summary.contains("D23145890"))
        #expect(!"\(outcome)".contains("D23145890"))
    }

    @Test func withoutATrustStorePassiveAuthenticationIsNotExecuted() {
        let outcome = ChipOutcome(reading(trusting: nil, accessControl: .bac))
        #expect(outcome.chipData.stationVerification.passiveAuthentication == .NOT_EXECUTED)
        #expect(outcome.chipData.stationVerification.accessControl == "BAC")
        #expect(outcome.summary.hasPrefix("BAC, PA NOT_EXECUTED"))
    }

    @Test func aSignerThatChainsToNoTrustedCSCAIsRejected() throws {
        let stranger = try TestIssuer(signerValidity: 1_600_000_000...2_100_000_000)
        let outcome = ChipOutcome(reading(trusting: stranger.cscaCertificate))
        #expect(outcome.chipData.stationVerification.passiveAuthentication == .REJECTED)
    }

    @Test func activeAuthenticationIsAsTheChipAnswered() {
        let passed = ChipOutcome(reading(trusting: nil, activeAuthentication: VerificationCheck("active authentication", .passed, "signature verifies")))
        #expect(passed.chipData.stationVerification.activeAuthentication == ChipCheck(.PASSED, reason: "signature verifies"))
        #expect(passed.summary.contains(", AA PASSED"))
        let failed = ChipOutcome(reading(trusting: nil, activeAuthentication: VerificationCheck("active authentication", .failed, "bad signature")))
        #expect(failed.chipData.stationVerification.activeAuthentication?.outcome == .FAILED)
        // "Not supported" is said as such, not as a check that was skipped.
        let unsupported = ChipOutcome(reading(trusting: nil, activeAuthentication: VerificationCheck("active authentication", .notSupported, "no DG15")))
        #expect(unsupported.chipData.stationVerification.activeAuthentication == ChipCheck(.NOT_SUPPORTED, reason: "no DG15"))
    }

    @Test func chipAuthenticationTravelsWithTheChipData() throws {
        var contents = reading(trusting: nil).contents
        contents.chipAuthentication = VerificationCheck("chip authentication", .failed, "the chip refused SELECT after Chip Authentication")
        let outcome = ChipOutcome(ChipReading(reader: "test reader", contents: contents, passiveAuthentication: nil, duration: .zero))
        #expect(outcome.chipData.stationVerification.chipAuthentication?.outcome == .FAILED)
        #expect(outcome.summary.contains(", CA FAILED"))
        // On the wire as the spec writes it.
        let json = try #require(String(data: try JSONEncoder().encode(outcome.chipData.stationVerification), encoding: .utf8))
        #expect(json.contains(#""chipAuthentication":{"#))
        #expect(json.contains(#""outcome":"FAILED""#))
    }

    @Test func evidenceIsUploadedUnderTheBackendsClassifiers() throws {
        let flash = try #require(CaptureEvidence.frontWithFlash(jpeg: [0xFF, 0xD8, 1, 2]).upload)
        #expect(flash.classifier == .frontWithFlash)
        #expect(flash.body == Data([0xFF, 0xD8, 1, 2]))
        let mrz = try #require(CaptureEvidence.mrz(lines: DemoPassport.mrz).upload)
        #expect(mrz.classifier == .mrz)
        #expect(try JSONDecoder().decode(MrzData.self, from: mrz.body).lines == DemoPassport.mrz)
    }
}
