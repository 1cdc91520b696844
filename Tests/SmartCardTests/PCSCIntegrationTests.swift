import APDU
import KioskTestKit
import Logging
import SmartCard
import Testing
import VirtualCard

/// Through the real stack: libpcsclite -> pcscd -> vpcd -> our virtual card.
@Suite(.serialized, .enabled(if: PCSCTestEnvironment.isAvailable, Comment(rawValue: PCSCTestEnvironment.skipReason)))
struct PCSCIntegrationTests {
    let logger = Logger(label: "test.smartcard")
    let reader = PCSCTestEnvironment.firstReader

    @Test func listsTheVirtualReaders() throws {
        let context = try PCSCContext(logger: logger)
        let readers = try context.readers()
        #expect(readers.contains(PCSCTestEnvironment.firstReader))
        #expect(readers.contains(PCSCTestEnvironment.secondSlotReader))
        #expect(try context.readers(matching: "pcd 00 01") == [PCSCTestEnvironment.secondSlotReader])
        #expect(try context.readers(matching: "no such reader").isEmpty)
    }

    @Test func monitorReportsInsertionAndRemoval() async throws {
        let card = PCSCTestEnvironment.card()
        let probe = EventProbe(ReaderMonitor.events(logger: logger))
        defer { Task { await probe.cancel() } }
        // The first events describe what is there: both slots, no card.
        let first = await probe.next()
        let second = await probe.next()
        #expect(first == .readerAdded(PCSCTestEnvironment.firstReader))
        #expect(second == .readerAdded(PCSCTestEnvironment.secondSlotReader), "got \(String(describing: second))")

        try await insert(card)
        #expect(await probe.first { if case .cardInserted = $0 { true } else { false } }
            == .cardInserted(reader: reader, atr: FileSystemCard.defaultATR))
        card.remove()
        #expect(await probe.first { if case .cardRemoved = $0 { true } else { false } } == .cardRemoved(reader: reader))
    }

    @Test func connectsAndTransmits() async throws {
        let card = PCSCTestEnvironment.card()
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        #expect(connection.activeProtocol == .t1)
        #expect(connection.atrBytes == FileSystemCard.defaultATR)
        #expect(connection.supportsExtendedLength == true)

        let select = try await connection.transmit(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0, 0, 2, 0x47, 0x10, 1]))
        #expect(select.status == .success)
        let read = try await connection.transmit(CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0, le: 256))
        #expect(read.status == .success)
        #expect(read.data == (0..<256).map { UInt8($0) })
        // Extended length: the whole 600-byte file in one response.
        let long = try await connection.transmit(CommandAPDU(ins: 0xB0, le: 65536))
        #expect(long.data.count == 600)
        let missing = try await connection.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x99]))
        #expect(missing.status == .fileNotFound)
        #expect(connection.commandCount == 4)
        await connection.disconnect()
    }

    @Test func exclusiveConnectionKeepsOthersOut() async throws {
        let card = PCSCTestEnvironment.card()
        try await insert(card)
        defer { card.remove() }
        let first = try await connectWhenPresent()
        let context = try PCSCContext(logger: logger)
        let error = await #expect(throws: SmartCardError.self) {
            try await context.connect(reader: reader, share: .shared)
        }
        #expect(error?.kind == .sharingViolation)
        #expect(error?.status == .sharingViolation)
        #expect(try context.state(of: reader).exclusive)
        await first.disconnect()
        let second = try await context.connect(reader: reader, share: .shared)
        #expect(try await second.transmit(CommandAPDU(ins: 0x84, le: 8)).status == .success)
        await second.disconnect()
    }

    @Test func stoppingTheMonitorEndsTheStream() async throws {
        let events = ReaderMonitor.events(logger: logger)
        let consumer = Task {
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(300))
        consumer.cancel()
        // The monitor thread is woken from SCardGetStatusChange by SCardCancel; the
        // stream ends and the consumer returns the events it saw (the two readers).
        let seen = await consumer.value
        #expect(seen >= 2)
        // And the thread has left libpcsclite before a command exits.
        #expect(ReaderMonitor.waitUntilStopped(limit: .seconds(5)))
    }

    @Test func statusWordsFromTheCardPassThrough() async throws {
        let card = PCSCTestEnvironment.card()
        var faults = CardFaults()
        faults.forcedStatus = .conditionsNotSatisfied
        card.faults = faults
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        let response = try await connection.transmit(CommandAPDU(ins: 0x84, le: 8))
        #expect(response.status == .conditionsNotSatisfied)
        #expect(response.data.isEmpty)
    }

    @Test func responseLengthCapTruncatesOrRefuses() async throws {
        let card = PCSCTestEnvironment.card()
        var faults = CardFaults()
        faults.maxResponseLength = 100
        card.faults = faults
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        _ = try await connection.transmit(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0, 0, 2, 0x47, 0x10, 1]))
        let truncated = try await connection.transmit(CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0, le: 256))
        #expect(truncated.data.count == 100)
        #expect(truncated.status == .success)

        faults.overLengthStatus = .wrongLength
        card.faults = faults
        let refused = try await connection.transmit(CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0, le: 256))
        #expect(refused == ResponseAPDU(status: .wrongLength))
        let small = try await connection.transmit(CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0, le: 100))
        #expect(small.data.count == 100)
    }

    @Test func cardVanishingMidCommandBreaksTheConnectionUntilReconnect() async throws {
        let card = PCSCTestEnvironment.card()
        try await insert(card)
        defer { card.remove() }
        let connection = try await connectWhenPresent()
        #expect(try await connection.transmit(CommandAPDU(ins: 0x84, le: 8)).data.count == 8)

        var faults = CardFaults()
        faults.vanishOnNextCommand = true
        card.faults = faults
        let error = await #expect(throws: SmartCardError.self) {
            try await connection.transmit(CommandAPDU(ins: 0x84, le: 8))
        }
        // vpcd passes the lost answer on as success with no bytes (every run here), or
        // as SCARD_E_NOT_TRANSACTED when the card is already gone as the command arrives.
        #expect(error?.kind == .cardRemoved || error?.kind == .emptyResponse, "got \(String(describing: error))")
        if error?.kind == .cardRemoved { #expect(error?.status == .notTransacted) }
        #expect(error?.isRetryable == true)

        // Nothing more goes through the broken connection, even if a card is back.
        let refused = await #expect(throws: SmartCardError.self) {
            try await connection.transmit(CommandAPDU(ins: 0x84, le: 8))
        }
        #expect(refused?.kind == .connectionClosed)

        card.remove()
        try await insert(card)
        try await waitForCard()
        try await connection.reconnect()
        #expect(try await connection.transmit(CommandAPDU(ins: 0x84, le: 8)).status == .success)
    }

    /// A card that answers with a message of no bytes: vpcd then waits for more and
    /// pcscd never returns. Our time limit ends the wait, and nothing is taken as success.
    @Test func answerOfNoBytesIsBoundedAndNeverSuccess() async throws {
        let card = PCSCTestEnvironment.card()
        try await insert(card)
        defer { card.remove() }
        try await waitForCard()
        let connection = try await PCSCContext(logger: logger).connect(reader: reader, timeout: .milliseconds(500))
        var faults = CardFaults()
        faults.emptyAnswerOnNextCommand = true
        card.faults = faults
        let error = await #expect(throws: SmartCardError.self) {
            try await connection.transmit(CommandAPDU(ins: 0x84, le: 8))
        }
        #expect([.timeout, .emptyResponse, .cardRemoved].contains(error?.kind), "got \(String(describing: error))")
        #expect(error?.reader == reader)
        #expect(error?.isRetryable == true)
    }

    /// The card leaves and a command follows at once, before pcscd's next look at the
    /// reader: the reader driver cannot transmit and pcscd says SCARD_E_NOT_TRANSACTED.
    @Test func commandRightAfterRemovalIsNotTransacted() async throws {
        let card = PCSCTestEnvironment.card()
        try await insert(card)
        let connection = try await connectWhenPresent()
        card.remove()
        let error = await #expect(throws: SmartCardError.self) {
            try await connection.transmit(CommandAPDU(ins: 0x84, le: 8))
        }
        #expect(error?.kind == .cardRemoved, "got \(String(describing: error))")
        // NOT_TRANSACTED every time here; REMOVED_CARD only if pcscd's 400 ms poll
        // happens to fall between the removal and the command.
        #expect([.notTransacted, .removedCard].contains(error?.status), "got \(String(describing: error))")
        if error?.status == .notTransacted { #expect(error?.description.contains("SCARD_E_NOT_TRANSACTED") == true) }
    }

    @Test func removedCardBetweenCommands() async throws {
        let card = PCSCTestEnvironment.card()
        try await insert(card)
        let connection = try await connectWhenPresent()
        card.remove()
        try await waitForCard(present: false)
        let error = await #expect(throws: SmartCardError.self) {
            try await connection.transmit(CommandAPDU(ins: 0x84, le: 8))
        }
        // pcscd knows the card left: SCARD_W_REMOVED_CARD.
        #expect(error?.kind == .cardRemoved, "got \(String(describing: error))")
        #expect(error?.status == .removedCard, "got \(String(describing: error))")
    }

    @Test func transmitThatNeverReturnsIsBoundedByOurTimeout() async throws {
        let card = PCSCTestEnvironment.card()
        var faults = CardFaults()
        faults.answerDelay = .seconds(3)
        try await insert(card)
        defer { card.remove() }
        try await waitForCard()
        let context = try PCSCContext(logger: logger)
        let connection = try await context.connect(reader: reader, timeout: .milliseconds(300))
        card.faults = faults
        let error = await #expect(throws: SmartCardError.self) {
            try await connection.transmit(CommandAPDU(ins: 0x84, le: 8))
        }
        #expect(error?.kind == .timeout)
        #expect(error?.call == "SCardTransmit")
    }

    @Test func connectingToAnEmptyReaderSaysNoCard() async throws {
        let context = try PCSCContext(logger: logger)
        let error = await #expect(throws: SmartCardError.self) {
            try await context.connect(reader: PCSCTestEnvironment.secondSlotReader)
        }
        #expect(error?.kind == .noCard)
        #expect(error?.status == .noSmartcard)
        #expect(error?.description.contains("SCARD_E_NO_SMARTCARD") == true)
    }

    @Test func unknownReaderIsNamedAsSuch() async throws {
        let context = try PCSCContext(logger: logger)
        let error = await #expect(throws: SmartCardError.self) {
            try await context.connect(reader: "No Such Reader 00 00")
        }
        #expect(error?.kind == .readerNotFound)
        #expect(error?.status == .unknownReader)
    }

    @Test func readerStateWithoutWaiting() throws {
        let context = try PCSCContext(logger: logger)
        let state = try context.state(of: PCSCTestEnvironment.secondSlotReader)
        #expect(!state.cardPresent)
        #expect(state.atr.isEmpty)
    }

    /// pcscd stops and comes back with a second reader configured: the monitor reports
    /// the loss, the return and the new reader, without being restarted itself.
    @Test func hotPlugOfASecondReaderAndPcscdAbsent() async throws {
        let probe = EventProbe(ReaderMonitor.events(logger: logger, retryInterval: .milliseconds(200)))
        defer { Task { await probe.cancel() } }
        #expect(await probe.first { $0 == .readerAdded(PCSCTestEnvironment.secondSlotReader) } != nil)

        #expect(PCSCTestEnvironment.pcscdScript("stop") == 0)
        let lost = await probe.first { if case .serviceLost = $0 { true } else { false } }
        guard case .serviceLost(let error)? = lost else {
            Issue.record("no serviceLost event")
            return
        }
        #expect(error.kind == .serviceUnavailable)
        // With pcscd absent, opening a context is a clear, retryable error.
        let absent = #expect(throws: SmartCardError.self) { try PCSCContext(logger: logger) }
        #expect(absent?.status == .noService)
        #expect(absent?.kind == .serviceUnavailable)
        #expect(absent?.hint.contains("pcscd") == true)

        #expect(PCSCTestEnvironment.pcscdScript("start", "--readers", "2") == 0)
        #expect(await probe.first { $0 == .serviceRestored } != nil)
        #expect(await probe.first { $0 == .readerAdded("Virtual PCD #2 00 00") } != nil)

        #expect(PCSCTestEnvironment.pcscdScript("restart", "--readers", "1") == 0)
        #expect(await probe.first { $0 == .readerRemoved("Virtual PCD #2 00 00") } != nil)
        #expect(await probe.first { $0 == .serviceRestored } != nil)
        let readers = try PCSCContext(logger: logger).readers()
        #expect(!readers.contains("Virtual PCD #2 00 00"))
    }

    // MARK: helpers

    /// Puts `card` on the reader once pcscd has noticed the previous card left: pcscd
    /// polls vpcd, and a card swapped faster than that looks like the same card.
    private func insert(_ card: VirtualCard) async throws {
        try await waitForCard(present: false)
        try card.insert()
    }

    /// Waits (bounded) until pcscd reports the card on `reader`, then connects.
    private func connectWhenPresent() async throws -> CardConnection {
        try await waitForCard()
        return try await PCSCContext(logger: logger).connect(reader: reader)
    }

    private func waitForCard(present: Bool = true) async throws {
        let context = try PCSCContext(logger: logger)
        for _ in 0..<100 {
            if try context.state(of: reader).cardPresent == present { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("card present=\(present) never reported on \(reader)")
    }
}
