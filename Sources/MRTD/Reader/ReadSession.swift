import APDU

/// The recovery of one chip read as a value: what to do after each answer to a READ
/// BINARY, each failed protected command, and each step of bringing a session or the card
/// back.
///
/// ``ChipReader`` performs the returned ``Action``s (it runs access control again, waits
/// for the card, sends the step's command again) and reports their outcome as the next
/// event; the machine does no I/O. A failed protected command has consumed its SSC steps
/// on both sides, and a chip that answers in plain has dropped the session, so a session
/// that lost sync is never continued: it is established again. Establishing a session may
/// itself send protected commands (PACE reads EF.CardSecurity under the new keys) that
/// fail and need a recovery of their own; the state then keeps the recovery it interrupted
/// and returns to it.
struct ReadSession: Sendable {
    enum Action: Sendable {
        /// Use the chip's answer.
        case useAnswer
        /// The chip refuses the read for good, with this status word.
        case refuse(StatusWord)
        /// Go on: send the step's command again (the read length changed, or the session is back).
        case resume
        /// Establish the session again on the same card, after a failure with this code
        /// (`nil`: an extended exchange failed); report `authenticated()` or `authenticationFailed(_:)`.
        case restartSession(after: MRTDError.Code?)
        /// Wait for the card through the caller's `reconnect`; report `reconnected()` or `reconnectFailed(_:)`.
        case reconnect
        /// The card is back on a new transport: establish a session on it; report
        /// `authenticated()` or `authenticationFailed(_:)`.
        case authenticateReturnedCard
        /// Give up: the step fails with this error.
        case fail(MRTDError)
    }

    /// Why a session is being established again, which decides what its failure means.
    private enum Restart: Sendable {
        /// Secure messaging lost sync: a failure to restart ends the step.
        case lostSync
        /// An extended exchange failed before any had succeeded: the reader may not carry
        /// them. A failure to restart means the card left, after `cause`.
        case extendedRefused(cause: MRTDError)
    }

    private indirect enum State: Sendable {
        /// Commands go through; nothing is being recovered.
        case reading
        /// Access control runs again on the same card; `then` is what it interrupted.
        case restartingSession(Restart, then: State)
        /// Waiting for the card to come back after `cause`.
        case reconnecting(cause: MRTDError, then: State)
        /// The card is back: access control runs on its new transport.
        case authenticatingReturnedCard(cause: MRTDError, then: State)
    }

    private var state = State.reading
    /// The read length to ask for next.
    private(set) var policy: ReadLengthPolicy
    /// Sessions established again after lost sync or a refused extended exchange,
    /// counting the one refused for exceeding the limit.
    private(set) var restarts = 0
    /// Times the card was waited for, counting the one refused for exceeding the limit.
    private(set) var reconnects = 0
    let maximumSessionRestarts: Int
    let maximumReconnects: Int
    /// Whether the caller can bring a lost card back; without, a lost card ends the read.
    let canReconnect: Bool

    init(policy: ReadLengthPolicy, maximumSessionRestarts: Int, maximumReconnects: Int, canReconnect: Bool) {
        self.policy = policy
        self.maximumSessionRestarts = maximumSessionRestarts
        self.maximumReconnects = maximumReconnects
        self.canReconnect = canReconnect
    }

    /// The chip answered a READ BINARY of `le` bytes with `status`.
    /// - Returns: `.useAnswer`, `.refuse` (the file is protected or missing, or no smaller
    ///   length is left), or `.resume` after stepping the length down.
    mutating func readAnswered(_ status: StatusWord, length le: Int) -> Action {
        switch status {
        case .success, .endOfFileReached:
            policy.succeeded(with: le)
            return .useAnswer
        case .securityStatusNotSatisfied, .fileNotFound, .conditionsNotSatisfied:
            return .refuse(status)
        default:
            // 6700, 6Cxx and other errors: the chip or reader would not give this many bytes.
            return policy.reduce(to: status.correctLength) ? .resume : .refuse(status)
        }
    }

    /// A protected command failed with `error`; `extended` when it was an extended APDU.
    mutating func commandFailed(_ error: MRTDError, extended: Bool) -> Action {
        switch error.code {
        case .transportFailure, .channelClosed:
            if extended && !policy.extendedConfirmed {
                // The reader may refuse extended APDUs by failing the exchange: try short ones
                // on the same card before concluding it left.
                policy.dropExtended()
                restarts += 1
                guard restarts <= maximumSessionRestarts else { return waitForCard(after: error) }
                state = .restartingSession(.extendedRefused(cause: error), then: state)
                return .restartSession(after: nil)
            }
            return waitForCard(after: error)
        case .unprotectedResponse, .macMismatch, .secureMessagingObjectMissing, .malformedSecureMessaging:
            // A plain 6700/6Cxx means the length was refused before the chip unwrapped it.
            if let status = error.statusWord, status == .wrongLength || status.correctLength != nil {
                _ = policy.reduce(to: status.correctLength)
            }
            restarts += 1
            guard restarts <= maximumSessionRestarts else { return .fail(error) }
            state = .restartingSession(.lostSync, then: state)
            return .restartSession(after: error.code)
        case .accessDenied, .cardRefused, .malformedCardResponse, .chipAuthenticationFailed, .channelBusy, .invalidCommand,
            .cryptoFailure, .cardLost, .malformedFile:
            return .fail(error)
        }
    }

    /// The card could not be reached outside a protected command: during access control
    /// or Chip Authentication.
    mutating func cardLost(_ error: MRTDError) -> Action {
        waitForCard(after: error)
    }

    /// The session asked for by `.restartSession` or `.authenticateReturnedCard` is established.
    mutating func authenticated() -> Action {
        switch state {
        case .restartingSession(_, let then), .authenticatingReturnedCard(_, let then):
            state = then
            return .resume
        case .reading, .reconnecting:
            preconditionFailure("authenticated() while no session was being established")
        }
    }

    /// The session asked for by `.restartSession` or `.authenticateReturnedCard` could not
    /// be established.
    mutating func authenticationFailed(_ error: MRTDError) -> Action {
        switch state {
        case .restartingSession(.lostSync, let then):
            state = then
            return .fail(error)
        case .restartingSession(.extendedRefused(let cause), let then):
            state = then
            return waitForCard(after: cause)
        case .authenticatingReturnedCard(let cause, let then):
            state = then
            // Lost again while authenticating: wait again, within the same budget.
            return error.code == .transportFailure ? waitForCard(after: cause) : .fail(error)
        case .reading, .reconnecting:
            preconditionFailure("authenticationFailed(_:) while no session was being established")
        }
    }

    /// The card is back on the reader.
    mutating func reconnected() -> Action {
        switch state {
        case .reconnecting(let cause, let then):
            state = .authenticatingReturnedCard(cause: cause, then: then)
            return .authenticateReturnedCard
        case .reading, .restartingSession, .authenticatingReturnedCard:
            preconditionFailure("reconnected() while no card was waited for")
        }
    }

    /// The caller's `reconnect` gave up with `error`.
    mutating func reconnectFailed(_ error: any Error) -> Action {
        switch state {
        case .reconnecting(_, let then):
            state = then
            return .fail(MRTDError(code: .cardLost, message: "the card did not come back", cause: error))
        case .reading, .restartingSession, .authenticatingReturnedCard:
            preconditionFailure("reconnectFailed(_:) while no card was waited for")
        }
    }

    /// Waits for the card after `cause`, when the caller can bring it back and the budget allows.
    private mutating func waitForCard(after cause: MRTDError) -> Action {
        guard canReconnect else { return .fail(MRTDError(code: .cardLost, message: "the card left the reader", cause: cause)) }
        reconnects += 1
        guard reconnects <= maximumReconnects else {
            return .fail(MRTDError(code: .cardLost, message: "the card left the reader \(reconnects - 1) times", cause: cause))
        }
        state = .reconnecting(cause: cause, then: state)
        return .reconnect
    }
}
