public import APDU
import KioskTime
public import Logging
public import SmartCard

/// What `idkiosk diag nfc` finds: pcscd, the readers, the cards on them and how fast
/// they answer.
public struct NFCReport: Codable, Hashable, Sendable {
    public struct Service: Codable, Hashable, Sendable {
        public var reachable: Bool
        public var error: String?
        public var hint: String?
    }

    public struct Reader: Codable, Hashable, Sendable {
        public var name: String
        public var cardPresent: Bool
        public var cardMute: Bool
        public var heldExclusively: Bool
        public var card: Card?
    }

    public struct Card: Codable, Hashable, Sendable {
        /// The ATR in hex; an ATR identifies a card model, not a person.
        public var atr: String
        public var atrExplanation: [String]
        public var activeProtocol: String?
        public var extendedLengthAnnounced: Bool?
        public var vendor: String?
        public var features: [String]
        public var roundTrip: RoundTrip?
        public var error: String?
        public var hint: String?
    }

    /// Timing of a harmless command, repeated.
    public struct RoundTrip: Codable, Hashable, Sendable {
        public var command: String
        public var status: String
        public var meaning: String
        public var samples: Int
        public var minimumMilliseconds: Double
        public var medianMilliseconds: Double
        public var maximumMilliseconds: Double
    }

    public var service: Service
    public var readers: [Reader]

    /// The most serious finding, for the command's exit status.
    public var problem: SmartCardError? {
        guard service.reachable else {
            return SmartCardError(kind: .serviceUnavailable, message: service.error ?? "pcscd unreachable")
        }
        return readers.isEmpty ? SmartCardError(kind: .readerNotFound, message: "no reader attached") : nil
    }
}

/// Gathers an `NFCReport` from the live PC/SC stack.
public struct NFCDiagnostics: Sendable {
    /// SELECT of the eMRTD application with no answer data (P2 = 0C): harmless on any
    /// card, answered 9000 by a passport and 6A82 by most other cards.
    public static let probe = CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01])

    public var readerPattern: String?
    public var samples: Int
    public var timeout: Duration
    let logger: Logger

    public init(readerPattern: String?, samples: Int = 5, timeout: Duration = .seconds(5), logger: Logger) {
        self.readerPattern = readerPattern
        self.samples = max(1, samples)
        self.timeout = timeout
        self.logger = logger
    }

    public func run() async -> NFCReport {
        let context: PCSCContext
        let names: [String]
        do {
            context = try PCSCContext(logger: logger)
            names = try context.readers(matching: readerPattern)
        } catch {
            return NFCReport(service: .init(reachable: false, error: error.description, hint: error.hint), readers: [])
        }
        var readers: [NFCReport.Reader] = []
        for name in names {
            readers.append(await inspect(name, context: context))
        }
        return NFCReport(service: .init(reachable: true), readers: readers)
    }

    private func inspect(_ name: String, context: PCSCContext) async -> NFCReport.Reader {
        guard let state = try? context.state(of: name) else {
            return NFCReport.Reader(name: name, cardPresent: false, cardMute: false, heldExclusively: false, card: nil)
        }
        var reader = NFCReport.Reader(
            name: name, cardPresent: state.cardPresent, cardMute: state.mute, heldExclusively: state.exclusive, card: nil)
        guard state.cardPresent else { return reader }
        let parsed = try? ATR(bytes: state.atr)
        var card = NFCReport.Card(
            atr: state.atr.hexString,
            atrExplanation: parsed?.explanation ?? ["ATR does not parse"],
            extendedLengthAnnounced: parsed?.extendedLengthAnnounced, features: [])
        do throws(SmartCardError) {
            let connection = try await context.connect(reader: name, share: .shared, timeout: timeout)
            card.activeProtocol = connection.activeProtocol.description
            card.vendor = await connection.vendorName()
            card.features = await connection.features().map(\.name)
            card.roundTrip = try await measure(connection)
            await connection.disconnect()
        } catch {
            card.error = error.description
            card.hint = error.hint
        }
        reader.card = card
        return reader
    }

    private func measure(_ connection: CardConnection) async throws(SmartCardError) -> NFCReport.RoundTrip {
        let clock = ContinuousClock()
        var times: [Double] = []
        var status = StatusWord.success
        for _ in 0..<samples {
            let start = clock.now
            status = try await connection.transmit(Self.probe).status
            let elapsed = start.duration(to: clock.now)
            times.append(elapsed.inMilliseconds)
        }
        times.sort()
        return NFCReport.RoundTrip(
            command: "SELECT eMRTD application (\(Self.probe))", status: status.description, meaning: status.meaning,
            samples: times.count, minimumMilliseconds: times.first!, medianMilliseconds: times[times.count / 2],
            maximumMilliseconds: times.last!)
    }
}
