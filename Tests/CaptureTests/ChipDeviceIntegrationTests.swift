import Capture
import Foundation
import KioskTestKit
import Logging
import MRTD
import ScanFlow
import SmartCard
import Synchronization
import Testing
import VirtualCard
import VirtualPassport

/// The chip capture through the real stack: pcscd, vpcd and the virtual passport on the
/// second vpcd slot (port 35964).
@Suite(.serialized, .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)))
struct ChipDeviceIntegrationTests {
    static let port: UInt16 = 35964
    /// The key DemoPassport's MRZ makes.
    static let chipKey = ChipAccessKey.mrz(documentNumber: "D23145890", dateOfBirth: "900101", dateOfExpiry: "341231")
    let logger = Logger(label: "capture-test", factory: { _ in SwiftLogNoOpLogHandler() })

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

    func device(_ document: Document, clock: any Clock<Duration> = ContinuousClock()) -> ChipCapture {
        ChipCapture(
            settings: .init(readerPattern: PCSCTestEnvironment.secondSlotReader, returnTimeout: .seconds(20)),
            trustStore: TrustStore(certificates: [document.issuer.cscaCertificate]), clock: clock, logger: logger)
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
        let reading = try await chip.read(key: Self.chipKey) { reports.add($0) }
        #expect(reading.contents.accessControl == .pace)
        #expect(reading.passiveAuthentication?.outcome == .passed)
        #expect(Set(reading.contents.files.keys).isSuperset(of: [.dg1, .dg2, .sod]))
        #expect(reading.reader == PCSCTestEnvironment.secondSlotReader)
        #expect(reading.duration > .zero)
        #expect(reports.all.first == .waitingForCard)
        #expect(reports.all.contains { if case .progress(100, _) = $0 { true } else { false } })
        #expect(!"\(reading)".contains("D23145890"))  // the description is for logs: no personal data
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
        // The person's hands: awaited before the test ends, so a document put back late is not
        // left on the reader for the next suite.
        let putBack = Mutex<[Task<Void, Never>]>([])
        let reading = try await chip.read(key: Self.chipKey) { report in
            reports.add(report)
            if report == .cardLost {
                // The person lifts the document and puts it back.
                putBack.withLock { $0.append(Task {
                    card.remove()
                    card.faults = CardFaults()
                    do {
                        try await waitForAbsence()
                        try card.insert()
                    } catch {
                        Issue.record("could not put the document back: \(error)")
                    }
                }) }
            }
        }
        for hand in putBack.withLock({ $0 }) { await hand.value }
        #expect(reports.all.contains(.cardLost))
        #expect(reports.all.contains(.resumed))
        #expect(reading.passiveAuthentication?.outcome == .passed)
        #expect(reading.statistics.reconnects >= 1)
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

    /// Waiting for a document is on the injected clock: with no document, the read gives up
    /// when the test clock passes the time allowed, not before.
    @Test func noDocumentIsWaitedForOnTheInjectedClock() async throws {
        let document = try Self.document()
        let clock = TestClock()
        let chip = device(document, clock: clock)
        try await waitForAbsence()
        let read = Task { try await chip.read(key: Self.chipKey) { _ in } }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(19))
        try await Task.sleep(for: .milliseconds(200))
        #expect(clock.sleeperCount == 1)  // still waiting
        clock.advance(by: .seconds(1))
        let result = await read.result
        guard case .failure(let error as ChipDeviceError) = result else {
            Issue.record("expected no document, got \(result)")
            return
        }
        #expect(error.kind == .unreadable)
        #expect(error.message.contains("no document"))
    }

    /// `idkiosk read-chip`'s way: the document must be on the reader when the read starts.
    @Test func withoutWaitingNoDocumentIsAPCSCNoCard() async throws {
        try await waitForAbsence()
        let chip = ChipCapture(
            settings: .init(readerPattern: PCSCTestEnvironment.secondSlotReader, waitsForDocument: false), trustStore: nil, logger: logger)
        let error = await #expect(throws: ChipDeviceError.self) { _ = try await chip.read(key: Self.chipKey) { _ in } }
        guard case .smartCard(let cause) = error?.cause else {
            Issue.record("expected a PC/SC cause, got \(String(describing: error))")
            return
        }
        #expect(cause.kind == .noCard)
    }

    @Test func probeNamesAReaderThatIsNotThere() async {
        let chip = ChipCapture(settings: .init(readerPattern: "No Such Reader"), trustStore: nil, logger: logger)
        let health = await chip.probe()
        #expect(!health.isReady)
        #expect(health.fault?.contains("No Such Reader") == true)
    }
}
