public import APDU

/// A transport that protects every command and unprotects every response with secure
/// messaging, over another transport.
///
/// Higher layers (file reading, Chip and Active Authentication) use it like any
/// `APDUTransport`. It carries one exchange at a time, as the chip does; a second
/// concurrent call is refused rather than queued, because its SSC would otherwise be
/// consumed out of order. After any secure messaging failure the channel closes: the
/// chip has dropped its session keys, and a new BAC or PACE is needed.
public actor SecureChannel: APDUTransport {
    private enum State {
        case ready(SecureMessaging)
        case busy
        case closed(reason: String)
    }

    private let transport: any APDUTransport
    private var state: State

    /// Wraps `transport` with an established session.
    public init(over transport: any APDUTransport, messaging: SecureMessaging) {
        self.transport = transport
        self.state = .ready(messaging)
    }

    /// Whether commands can still be sent.
    public var isOpen: Bool {
        if case .closed = state { return false }
        return true
    }

    /// The session state, for handing over to a protocol that continues it (Chip
    /// Authentication replaces the keys) and for tests; `nil` while busy or closed.
    public var messaging: SecureMessaging? {
        if case .ready(let messaging) = state { return messaging }
        return nil
    }

    public nonisolated var supportsExtendedLength: Bool? { transport.supportsExtendedLength }

    /// Protects `command`, sends it and unprotects the answer.
    /// - Throws: ``MRTDError``: `.channelClosed` after an earlier failure, `.channelBusy`
    ///   during another exchange, `.transportFailure`, or any error of ``SecureMessaging/unprotect(_:)``.
    public func transmit(_ command: CommandAPDU) async throws -> ResponseAPDU {
        var messaging: SecureMessaging
        switch state {
        case .ready(let current): messaging = current
        case .busy: throw MRTDError(code: .channelBusy, message: "another command is in progress on this secure channel")
        case .closed(let reason): throw MRTDError(code: .channelClosed, message: "the secure channel is closed: \(reason)")
        }
        // A command that cannot be protected never reaches the chip, so the session survives it.
        let protected = try messaging.protect(command)
        state = .busy
        let response: ResponseAPDU
        do {
            response = try await transport.transmit(protected)
        } catch {
            state = .closed(reason: "the transport failed mid-exchange")
            throw MRTDError.transport(error, during: "a secure messaging exchange")
        }
        do {
            let plain = try messaging.unprotect(response)
            state = .ready(messaging)
            return plain
        } catch {
            state = .closed(reason: error.code.rawValue)
            throw error
        }
    }

    /// Ends the session; later commands fail with `.channelClosed`.
    public func close() {
        state = .closed(reason: "closed by the reader")
    }
}
