import Backend
import Capture
import Foundation
import KioskTestKit
import MRTD
import ReferenceBackend
import ScanFlow
import Station
import Testing
import VirtualPassport

/// What the chip proves travels with its data to the reference backend, which decides on
/// it: a journey through the station loop with a chip that ChipReader really read from a
/// virtual passport (its Active and Chip Authentication run against the chip's keys), the
/// backend's answer read back from its store.
@Suite struct ChipEvidenceTests {
    static let issuer = try! TestIssuer(signerValidity: 1_600_000_000...2_100_000_000)

    /// What ChipReader reads of a passport of the harness's holder with these keys and
    /// additional data groups, passive authentication against the test issuer.
    static func reading(keys: PassportKeys, dataGroup11: [UInt8]? = nil, dataGroup12: [UInt8]? = nil) async throws -> ChipReading {
        let set = try PassportDataSet.make(
            mrz: StationHarness.mrz.joined(), faceSize: 4_000, dataGroup11: dataGroup11, dataGroup12: dataGroup12,
            dataGroup14: keys.dataGroup14, dataGroup15: keys.dataGroup15
        ) { try issuer.securityObject($0) }
        let passport = VirtualPassport(
            key: try set.key(), files: set.files, activeAuthenticationKey: keys.activeAuthenticationKey, chipAuthenticationKey: keys.chipAuthenticationKey)
        let contents = try await ChipReader(transport: InMemoryTransport(passport), key: try set.key()).read()
        let passive = PassiveAuthentication.verify(
            files: contents.files, trustStore: TrustStore(certificates: [issuer.cscaCertificate]), at: Int64(Date().timeIntervalSince1970))
        return ChipReading(reader: "virtual passport", contents: contents, passiveAuthentication: passive, duration: .zero)
    }

    /// One journey with this chip; the backend's result of it.
    static func journey(_ reading: ChipReading) async throws -> WorkflowExecutionDetails {
        var options = StationHarness.Options()
        options.chipReading = reading
        options.issuer = issuer
        return try await StationHarness.with(options) { station in
            try await station.display.waitForScreen("decision") { if case .decision(_, .some) = $0 { true } else { false } }
            guard case .decision(let reference, _) = station.display.screens.last(where: { if case .decision(_, .some) = $0 { true } else { false } })
            else { throw TestFailure("no decision") }
            let row = try #require(try await station.store.execution(clientId: station.clientId, executionId: reference))
            return try JSONDecoder().decode(WorkflowExecutionDetails.self, from: try #require(row.result))
        }
    }

    static func check(_ details: WorkflowExecutionDetails, _ id: String) -> CapabilityResult? {
        details.capabilities.chipAuthentication.first { $0.id == id }
    }

    @Test func aGenuineChipsActiveAndChipAuthenticationPassAtTheBackend() async throws {
        let details = try await Self.journey(try await Self.reading(keys: PassportKeys.make(activeAuthentication: true, chipAuthentication: true)))
        #expect(Self.check(details, "activeAuthentication")?.decision == .PASSED, "\(details.capabilities.chipAuthentication)")
        #expect(Self.check(details, "chipAuthentication")?.decision == .PASSED)
        #expect(Self.check(details, "passiveAuthentication")?.decision == .PASSED)
    }

    /// A clone: the genuine chip's data groups (passive authentication passes), other keys.
    @Test func aClonedChipIsRejected() async throws {
        let genuine = try PassportKeys.make(activeAuthentication: true, chipAuthentication: true)
        let details = try await Self.journey(try await Self.reading(keys: genuine.cloned()))
        #expect(Self.check(details, "passiveAuthentication")?.decision == .PASSED)
        #expect(Self.check(details, "activeAuthentication")?.decision == .REJECTED)
        #expect(Self.check(details, "activeAuthentication")?.reason == "ACTIVE_AUTHENTICATION_FAILED")
        #expect(Self.check(details, "chipAuthentication")?.decision == .REJECTED)
        #expect(Self.check(details, "chipAuthentication")?.reason == "CHIP_AUTHENTICATION_FAILED")
        #expect(details.decision.type == .REJECTED)
    }

    /// Only the Active Authentication key is wrong: that alone rejects.
    @Test func aChipWhoseAAKeyDoesNotMatchDG15IsRejected() async throws {
        let genuine = try PassportKeys.make(activeAuthentication: true, chipAuthentication: true)
        let details = try await Self.journey(try await Self.reading(keys: genuine.cloned(activeAuthentication: true, chipAuthentication: false)))
        #expect(Self.check(details, "activeAuthentication")?.reason == "ACTIVE_AUTHENTICATION_FAILED")
        #expect(Self.check(details, "chipAuthentication")?.decision == .PASSED)
        #expect(details.decision.type == .REJECTED)
    }

    @Test func aChipWithoutTheChecksIsRecordedAsNotSupported() async throws {
        let details = try await Self.journey(try await Self.reading(keys: PassportKeys.make(activeAuthentication: false, chipAuthentication: false)))
        for id in ["activeAuthentication", "chipAuthentication"] {
            #expect(Self.check(details, id)?.decision == .NOT_EXECUTED)
            #expect(Self.check(details, id)?.reason == "NOT_SUPPORTED_BY_CHIP")
        }
    }

    /// The chip's DG11 and DG12 become the result's place of birth, address, city, date of
    /// issue and issuing authority; the full date of birth replaces the MRZ's.
    @Test func theChipsAdditionalDetailsAreInTheIDResult() async throws {
        let dg11 = LDSEncoder.dataGroup11(fullDateOfBirth: "19900101", placeOfBirth: "ZENITH<UTOPIA", address: "1 HARBOUR ROAD<ZENITH<9999")
        let dg12 = LDSEncoder.dataGroup12(issuingAuthority: "UTOPIA<PASSPORT OFFICE", dateOfIssue: "20241231")
        let details = try await Self.journey(
            try await Self.reading(keys: PassportKeys.make(activeAuthentication: false, chipAuthentication: false), dataGroup11: dg11, dataGroup12: dg12))
        let id = try #require(details.idResult)
        #expect(id.extractionMethod == "nfc")
        #expect(id.placeOfBirth == "ZENITH, UTOPIA")
        #expect(id.address == "1 HARBOUR ROAD")
        #expect(id.city == "ZENITH")
        #expect(id.issuingDate == "2024-12-31")
        #expect(id.issuingAuthority == "UTOPIA, PASSPORT OFFICE")
        #expect(id.dateOfBirth == "1990-01-01")
        // Personal data never in a description.
        #expect(!"\(id)".contains("ZENITH"))
    }
}
