/// An error from the PC/SC layer, carrying what a technician needs to act on it.
///
/// `kind` says what went wrong in station terms; `call` and `status` name the
/// PC/SC function and its return code when one was involved.
public struct SmartCardError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// pcscd is not running or not reachable.
        case serviceUnavailable
        /// No reader is attached, or the named reader does not exist.
        case readerNotFound
        /// The reader exists but cannot be used now.
        case readerUnavailable
        /// No card is on the reader.
        case noCard
        /// The card was removed, or the field lost it, during use.
        case cardRemoved
        /// The card was reset by someone else; reconnect before going on.
        case cardReset
        /// The card does not answer.
        case cardUnresponsive
        /// Another program holds the card exclusively.
        case sharingViolation
        /// A call of ours did not complete within its time limit.
        case timeout
        /// The reader reported success with no response bytes (the card has gone).
        case emptyResponse
        /// The operation was cancelled.
        case cancelled
        /// The connection is closed or unusable after an earlier failure.
        case connectionClosed
        /// Anything else pcsc-lite reports.
        case failed
    }

    public var kind: Kind
    /// The PC/SC function involved, e.g. `SCardTransmit`.
    public var call: String?
    /// The PC/SC return code, when there was one.
    public var status: PCSCStatus?
    /// What happened, in plain words.
    public var message: String
    /// The reader involved, when there was one.
    public var reader: String?

    public init(kind: Kind, call: String? = nil, status: PCSCStatus? = nil, message: String) {
        self.kind = kind
        self.call = call
        self.status = status
        self.message = message
    }

    /// Maps a PC/SC return code from `call` to a station-level error.
    init(call: String, status: PCSCStatus) {
        let kind: Kind
        switch status {
        case .noService, .serviceStopped, .shutdown, .commError: kind = .serviceUnavailable
        case .unknownReader, .noReadersAvailable: kind = .readerNotFound
        case .readerUnavailable, .notReady, .readerUnsupported: kind = .readerUnavailable
        case .noSmartcard: kind = .noCard
        case .removedCard, .notTransacted, .commDataLost: kind = .cardRemoved
        case .resetCard: kind = .cardReset
        case .unresponsiveCard, .unpoweredCard, .unsupportedCard: kind = .cardUnresponsive
        case .sharingViolation: kind = .sharingViolation
        case .timeout: kind = .timeout
        case .cancelled, .systemCancelled: kind = .cancelled
        case .invalidHandle: kind = .connectionClosed
        default: kind = .failed
        }
        self.init(kind: kind, call: call, status: status, message: status.message)
    }

    /// Whether trying again, possibly after the hint's action, can succeed.
    public var isRetryable: Bool {
        switch kind {
        case .serviceUnavailable, .readerNotFound, .readerUnavailable, .noCard, .cardRemoved, .cardReset,
            .cardUnresponsive, .sharingViolation, .timeout, .emptyResponse, .connectionClosed:
            return true
        case .cancelled:
            return false
        case .failed:
            return status?.isRetryable ?? false
        }
    }

    /// What a technician should do about it.
    public var hint: String {
        switch kind {
        case .serviceUnavailable:
            return "start the PC/SC daemon: `systemctl start pcscd` (or scripts/pcscd-vpcd.sh start for the virtual reader)"
        case .readerNotFound:
            return "check the reader's USB cable; `idkiosk diag nfc` lists the readers pcscd sees"
        case .readerUnavailable:
            return "unplug and replug the reader; if it persists, restart pcscd"
        case .noCard:
            return "place the document on the reader and keep it still"
        case .cardRemoved:
            return "the document left the reader's field: put it back and keep it still"
        case .cardReset:
            return "another program reset the card; reconnect"
        case .cardUnresponsive:
            return "the card does not answer: reposition it, or try another document"
        case .sharingViolation:
            return "another program holds the reader; stop it (e.g. pcsc_scan, another idkiosk)"
        case .timeout:
            return "the card or reader stopped answering: lift the document and place it again"
        case .emptyResponse:
            return "the reader lost the card mid-command: put the document back"
        case .cancelled:
            return "the operation was cancelled; nothing to do"
        case .connectionClosed:
            return "reconnect to the card"
        case .failed:
            return "see the PC/SC code; restarting pcscd clears most internal errors"
        }
    }

    public var description: String {
        var s = message
        if let call { s += " (\(call)" + (status.map { ": \($0.name)" } ?? "") + ")" }
        if let reader { s += " on \"\(reader)\"" }
        return s
    }
}
