import CPCSCLite
public import Logging

/// A connection to the PC/SC resource manager (pcscd): lists readers and connects to cards.
///
/// Each card connection gets a context of its own, because pcsc-lite serialises the
/// calls of one context: a card that hangs in `SCardTransmit` must not block the
/// listing of readers or another connection.
public final class PCSCContext: Sendable {
    private let handle: SCARDCONTEXT
    private let logger: Logger

    /// Establishes a context with pcscd.
    /// - Throws: `SmartCardError` of kind `.serviceUnavailable` when pcscd is not running.
    public init(logger: Logger) throws(SmartCardError) {
        handle = try PCSC.establishContext().get()
        self.logger = logger
    }

    deinit {
        _ = PCSC.releaseContext(handle)
    }

    /// Whether pcscd still knows this context (false after pcscd restarted).
    public var isValid: Bool { PCSC.isValidContext(handle) }

    /// The names of the readers attached now; empty when there are none.
    public func readers() throws(SmartCardError) -> [String] {
        try PCSC.listReaders(handle).get()
    }

    /// The readers whose name contains `pattern` (case-insensitive); all when `pattern` is nil or empty.
    public func readers(matching pattern: String?) throws(SmartCardError) -> [String] {
        let all = try readers()
        guard let pattern, !pattern.isEmpty else { return all }
        return all.filter { $0.lowercased().contains(pattern.lowercased()) }
    }

    /// The card state of a reader right now, without waiting.
    public func state(of reader: String) throws(SmartCardError) -> ReaderState {
        var states = [ReaderStateSnapshot(reader: reader)]
        switch PCSC.getStatusChange(handle, timeout: 0, states: &states) {
        case .success:
            break
        case .failure(let error) where error.status == .timeout:
            break  // nothing changed within 0 ms: the snapshot is still filled in
        case .failure(let error):
            throw error
        }
        return ReaderState(snapshot: states[0])
    }

    /// Connects to the card on `reader`.
    /// - Parameters:
    ///   - reader: the reader's full name, as `readers()` lists it.
    ///   - share: `.exclusive` for reading a document, so no other program interferes.
    ///   - protocols: the protocols to accept.
    ///   - timeout: the limit on each transmit of the new connection.
    /// - Throws: `SmartCardError`, e.g. `.noCard` when the reader is empty.
    public func connect(
        reader: String,
        share: ShareMode = .exclusive,
        protocols: CardProtocols = .any,
        timeout: Duration = .seconds(5)
    ) async throws(SmartCardError) -> CardConnection {
        try await CardConnection.open(reader: reader, share: share, protocols: protocols, timeout: timeout, logger: logger)
    }
}

/// What a reader reports about its slot.
public struct ReaderState: Hashable, Sendable, Codable {
    public var cardPresent: Bool
    /// The card is present but does not answer reset.
    public var mute: Bool
    /// Another program holds the card exclusively.
    public var exclusive: Bool
    public var inUse: Bool
    public var atr: [UInt8]

    init(snapshot: ReaderStateSnapshot) {
        cardPresent = snapshot.isPresent
        mute = snapshot.isMute
        exclusive = snapshot.isExclusive
        inUse = snapshot.isInUse
        atr = snapshot.isPresent ? snapshot.atr : []
    }
}
