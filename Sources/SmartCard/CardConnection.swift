public import APDU
import CPCSCLite
import Logging
import Synchronization

/// A connection to the card on one reader; sends APDUs through pcscd.
///
/// Every transmit is bounded by `timeout`. After a timeout, a removed card or an
/// empty response the connection refuses further commands until `reconnect()`
/// succeeds, so a caller never continues a secure-messaging session on a card
/// that may have been swapped.
public final class CardConnection: APDUTransport, Sendable {
    public let reader: String
    public let timeout: Duration

    private let context: SCARDCONTEXT
    private let handle: SCARDHANDLE
    private let share: ShareMode
    private let calls: BlockingCallQueue
    private let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var protocols: CardProtocols
        var atr: [UInt8]
        /// Set when the connection can no longer be trusted; commands fail with it.
        var broken: SmartCardError?
        var closed = false
        var commandCount = 0
    }

    static func open(reader: String, share: ShareMode, protocols: CardProtocols, timeout: Duration, logger: Logger)
        async throws(SmartCardError) -> CardConnection
    {
        let context = try PCSC.establishContext().get()
        let calls = BlockingCallQueue(label: "idkiosk.pcsc.\(reader)")
        do {
            let (handle, active) = try await calls.run("SCardConnect", timeout: timeout) {
                PCSC.connect(context, reader: reader, share: share, protocols: protocols)
            }
            let status = try await calls.run("SCardStatus", timeout: timeout) { PCSC.status(handle) }
            return CardConnection(
                reader: reader, context: context, handle: handle, share: share, protocols: active,
                atr: status.atr, timeout: timeout, calls: calls, logger: logger)
        } catch {
            _ = PCSC.releaseContext(context)
            throw error
        }
    }

    private init(
        reader: String, context: SCARDCONTEXT, handle: SCARDHANDLE, share: ShareMode, protocols: CardProtocols,
        atr: [UInt8], timeout: Duration, calls: BlockingCallQueue, logger: Logger
    ) {
        self.reader = reader
        self.context = context
        self.handle = handle
        self.share = share
        self.timeout = timeout
        self.calls = calls
        self.logger = logger
        self.state = Mutex(State(protocols: protocols, atr: atr))
    }

    deinit {
        let closed = state.withLock { $0.closed }
        if !closed {
            // Queued behind any call still blocked (a card that never answered), so the
            // context outlives that call; never waited for, so deinit cannot hang.
            let (handle, context) = (self.handle, self.context)
            calls.async {
                _ = PCSC.disconnect(handle, disposition: .leave)
                _ = PCSC.releaseContext(context)
            }
        }
    }

    /// The protocol in use.
    public var activeProtocol: CardProtocols { state.withLock { $0.protocols } }

    /// The card's ATR as the reader reports it.
    public var atrBytes: [UInt8] { state.withLock { $0.atr } }

    /// The parsed ATR; `nil` when the reader reports one that does not parse.
    public var atr: ATR? { try? ATR(bytes: atrBytes) }

    /// Number of APDUs sent on this connection.
    public var commandCount: Int { state.withLock { $0.commandCount } }

    public var supportsExtendedLength: Bool? { atr?.extendedLengthAnnounced }

    /// Sends one command; fetches `61xx` remainders with GET RESPONSE.
    /// - Throws: `SmartCardError`: `.cardRemoved`, `.emptyResponse`, `.timeout`, ...
    public func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        let bytes: [UInt8]
        do {
            bytes = try command.encoded()
        } catch {
            throw SmartCardError(kind: .failed, call: "SCardTransmit", message: "cannot encode \(command): \(error)")
        }
        var response = try await transmitRaw(bytes)
        var data = response.data
        // T=0 cards (and some readers) hand long answers out in pieces.
        while let remaining = response.status.remainingBytes, data.count < 65536 {
            let getResponse = CommandAPDU(cla: command.cla & 0x03, ins: 0xC0, le: remaining)
            response = try await transmitRaw(try! getResponse.encoded())
            data += response.data
        }
        response.data = data
        return response
    }

    /// Sends raw command bytes and parses the answer.
    public func transmitRaw(_ bytes: [UInt8]) async throws(SmartCardError) -> ResponseAPDU {
        let (active, broken) = state.withLock { s -> (CardProtocols, SmartCardError?) in
            if s.closed {
                return (s.protocols, SmartCardError(kind: .connectionClosed, call: "SCardTransmit", message: "connection is closed"))
            }
            s.commandCount += 1
            return (s.protocols, s.broken)
        }
        if let broken {
            throw SmartCardError(
                kind: .connectionClosed, call: "SCardTransmit", status: broken.status,
                message: "connection unusable after an earlier failure (\(broken.message)); reconnect first")
        }
        let handle = self.handle
        do throws(SmartCardError) {
            let raw = try await calls.run("SCardTransmit", timeout: timeout) {
                PCSC.transmit(handle, protocol: active, command: bytes)
            }
            return try Self.response(from: raw)
        } catch {
            var error = error
            error.reader = reader
            markBroken(error)
            throw error
        }
    }

    /// The response in `raw`; an error when the reader said "success" but brought back
    /// no status word, which is what a reader does when the card left mid-command.
    static func response(from raw: [UInt8]) throws(SmartCardError) -> ResponseAPDU {
        do {
            return try ResponseAPDU(bytes: raw)
        } catch {
            throw SmartCardError(
                kind: .emptyResponse, call: "SCardTransmit",
                message: "the reader returned \(raw.count) byte(s) with success: the card has gone")
        }
    }

    private func markBroken(_ error: SmartCardError) {
        switch error.kind {
        case .cardRemoved, .cardReset, .emptyResponse, .timeout, .cardUnresponsive, .connectionClosed, .noCard,
            .serviceUnavailable, .readerNotFound, .readerUnavailable:
            state.withLock { $0.broken = $0.broken ?? error }
            logger.notice(
                "card connection broken", metadata: ["reader": "\(reader)", "kind": "\(error.kind.rawValue)", "call": "\(error.call ?? "")"])
        case .sharingViolation, .cancelled, .failed:
            break
        }
    }

    /// Re-establishes the connection to the card (after removal and re-insertion, or a reset).
    /// - Parameter reset: warm-reset the card, which ends any session on the chip.
    public func reconnect(reset: Bool = true) async throws(SmartCardError) {
        let (handle, share) = (self.handle, self.share)
        let disposition: Disposition = reset ? .reset : .leave
        let active = try await calls.run("SCardReconnect", timeout: timeout) {
            PCSC.reconnect(handle, share: share, protocols: .any, initialization: disposition)
        }
        let status = try await calls.run("SCardStatus", timeout: timeout) { PCSC.status(handle) }
        state.withLock {
            $0.protocols = active
            $0.atr = status.atr
            $0.broken = nil
        }
    }

    /// The reader's current view of the card.
    public func status() async throws(SmartCardError) -> (cardPresent: Bool, atr: [UInt8]) {
        let handle = self.handle
        let s = try await calls.run("SCardStatus", timeout: timeout) { PCSC.status(handle) }
        return (s.state & DWORD(SCARD_PRESENT) != 0, s.atr)
    }

    /// The PC/SC part 10 features the reader reports (`CM_IOCTL_GET_FEATURE_REQUEST`);
    /// empty when the reader reports none or does not support the request.
    public func features() async -> [ReaderFeature] {
        let handle = self.handle
        let result = try? await calls.run("SCardControl", timeout: timeout) {
            PCSC.control(handle, code: cpcsc_ioctl_get_feature_request(), input: [])
        }
        return ReaderFeature.parse(result ?? [])
    }

    /// A reader attribute as text (vendor name, IFD version), or `nil` when not reported.
    public func vendorName() async -> String? {
        let handle = self.handle
        guard let bytes = try? await calls.run("SCardGetAttrib", timeout: timeout, {
            PCSC.getAttribute(handle, cpcsc_attr_vendor_name())
        }) else { return nil }
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// Ends the connection.
    /// - Parameter disposition: what to do with the card; `.reset` ends the chip's session.
    public func disconnect(_ disposition: Disposition = .leave) async {
        let alreadyClosed = state.withLock { s -> Bool in
            defer { s.closed = true }
            return s.closed
        }
        guard !alreadyClosed else { return }
        let (handle, context) = (self.handle, self.context)
        _ = try? await calls.run("SCardDisconnect", timeout: timeout) {
            let r = PCSC.disconnect(handle, disposition: disposition)
            _ = PCSC.releaseContext(context)
            return r
        }
    }
}
