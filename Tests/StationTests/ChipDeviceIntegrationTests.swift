import Foundation
import KioskTestKit
import Logging
import MRTD
import ScanFlow
import SmartCard
import Station
import Synchronization
import Testing
import VirtualCard
import VirtualPassport

/// The station's chip device through the real stack: pcscd, vpcd and the virtual passport
/// on the second vpcd slot (port 35964).
@Suite(.serialized, .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)))
struct ChipDeviceIntegrationTests {
    static let port: UInt16 = 35964
    let logger = StationHarness.logger

    final class Reports: Sendable {
        let list = Mutex<[ChipReport]>([])
        func add(_ report: ChipReport) { list.withLock { $0.append(report) } }
        var all: [ChipReport] { list.withLock { $0 } }
    }

    struct Document {
        let passport: VirtualPassport
        let issuer: TestIssuer
    }

    static func document(quirks: PassportQuirks = PassportQuirks()) throws -> Document {
        let issuer = try TestIssuer(signerValidity: 1_600_000_000...2_100_000_000)
        let set = try PassportDataSet.make(mrz: DemoPassport.mrz.joined(), faceSize: 12_000) { try issuer.securityObject($0) }
        let passport = VirtualPassport(key: try set.key(), files: set.files, cardAccess: PassportDataSet.paceCardAccess(), quirks: quirks)
        return Document(passport: passport, issuer: issuer)
    }

    func device(_ document: Document) -> PCSCChipDevice {
        PCSCChipDevice(
            settings: .init(readerPattern: PCSCTestEnvironment.secondSlotReader, returnTimeout: .seconds(20)),
            trustStore: TrustStore(certificates: [document.issuer.cscaCertificate]), metrics: StationMetrics(), logger: logger)
    }

    func waitForAbsence() async throws {
        let context = try PCSCContext(logger: logger)
        for _ in 0..<100 {
            if try !context.state(of: PCSCTestEnvironment.secondSlotReader).cardPresent { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func aDocumentPlacedOnTheReaderIsSeenAndReadWithPACEAndVerified() async throws {
        let document = try Self.document()
        let chip = device(document)
        let presence = chip.presence()
        try await waitForAbsence()
        let card = PCSCTestEnvironment.card(document.passport, port: Self.port)
        try card.insert()
        defer { card.remove() }
        var iterator = presence.makeAsyncIterator()
        var sawCard = false
        for _ in 0..<10 {
            guard let event = await iterator.next() else { break }
            if event == .cardPresent(true) {
                sawCard = true
                break
            }
        }
        #expect(sawCard)
        let reports = Reports()
        let outcome = try await chip.read(key: StationHarness.chipKey) { reports.add($0) }
        #expect(outcome.chipData.stationVerification.accessControl == "PACE")
        #expect(outcome.chipData.stationVerification.passiveAuthentication == .PASSED)
        #expect(Set(outcome.chipData.dataGroups.keys).isSuperset(of: ["DG1", "DG2", "SOD"]))
        #expect(reports.all.first == .waitingForCard)
        #expect(reports.all.contains(.progress(percent: 100)))
        #expect(!outcome.summary.contains("D23145890"))  // the summary is for logs: no personal data
    }

    @Test func aDocumentLiftedMidReadIsWaitedForAndTheReadResumes() async throws {
        var quirks = PassportQuirks()
        quirks.maxReadLength = 1000
        let document = try Self.document(quirks: quirks)
        let chip = device(document)
        try await waitForAbsence()
        let card = PCSCTestEnvironment.card(document.passport, port: Self.port)
        try card.insert()
        defer { card.remove() }
        var faults = CardFaults()
        faults.vanishAfterCommands = card.commandsAnswered + 20
        card.faults = faults
        let reports = Reports()
        let outcome = try await chip.read(key: StationHarness.chipKey) { report in
            reports.add(report)
            if report == .cardLost {
                // The person lifts the document and puts it back.
                Task {
                    card.remove()
                    card.faults = CardFaults()
                    do {
                        try await waitForAbsence()
                        try card.insert()
                    } catch {
                        Issue.record("could not put the document back: \(error)")
                    }
                }
            }
        }
        #expect(reports.all.contains(.cardLost))
        #expect(reports.all.contains(.resumed))
        #expect(outcome.chipData.stationVerification.passiveAuthentication == .PASSED)
        #expect(document.passport.sessionsEstablished == 2)
    }

    @Test func theWrongKeyIsAccessDenied() async throws {
        let document = try Self.document()
        let chip = device(document)
        try await waitForAbsence()
        let card = PCSCTestEnvironment.card(document.passport, port: Self.port)
        try card.insert()
        defer { card.remove() }
        let error = await #expect(throws: ChipDeviceError.self) {
            _ = try await chip.read(key: .mrz(documentNumber: "X00000000", dateOfBirth: "900101", dateOfExpiry: "341231")) { _ in }
        }
        #expect(error?.kind == .accessDenied)
    }

    @Test func probeNamesAReaderThatIsNotThere() async {
        let chip = PCSCChipDevice(settings: .init(readerPattern: "No Such Reader"), trustStore: nil, metrics: StationMetrics(), logger: logger)
        let health = await chip.probe()
        #expect(!health.ready)
        #expect(health.detail.contains("No Such Reader"))
    }
}
