public import APDU

/// An error from talking to an eMRTD chip: access control, secure messaging or crypto.
///
/// Like NIOFS's `FileSystemError`, it has a broad ``Code`` to switch on, a plain message
/// for a technician, and where it applies the card's status word and the underlying
/// cause (a transport error, an ``OpenSSLError``, a ``TLVError``). Messages never carry
/// personal data: no MRZ, no keys, no decrypted bytes.
public struct MRTDError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Hashable, Sendable {
        /// The chip refused the access key: for BAC, the MRZ (or what was typed) is wrong.
        case accessDenied
        /// The chip answered a protocol step with an unexpected status word.
        case cardRefused
        /// The chip's answer has the wrong length or structure for the protocol step.
        case malformedCardResponse
        /// The chip's authentication cryptogram did not verify: not the chip we hold keys for,
        /// or a corrupted exchange.
        case chipAuthenticationFailed
        /// A secure messaging response MAC (DO'8E') did not verify.
        case macMismatch
        /// A secure messaging response lacks a mandatory data object (DO'99' or DO'8E').
        case secureMessagingObjectMissing
        /// The chip answered a protected command with a plain status word: it has dropped
        /// the secure messaging session.
        case unprotectedResponse
        /// A secure messaging response is not well formed (TLV, padding, unexpected objects).
        case malformedSecureMessaging
        /// The secure channel can no longer be used after an earlier failure or `close()`.
        case channelClosed
        /// Another command is still in progress on the secure channel; nothing was sent.
        case channelBusy
        /// A command cannot be protected (too long for any APDU form).
        case invalidCommand
        /// libcrypto failed; the cause is an ``OpenSSLError``.
        case cryptoFailure
        /// The transport under the protocol failed; the cause is its error.
        case transportFailure
        /// The card left the reader and did not come back within the recovery budget.
        case cardLost
        /// A file read from the chip is not what the LDS says; the cause is an ``LDSError``.
        case malformedFile
    }

    public var code: Code
    /// What went wrong and, where possible, what to do about it.
    public var message: String
    /// The status word the chip answered, when the error comes from one.
    public var statusWord: StatusWord?
    /// The underlying error, when there is one.
    public var cause: (any Error)?

    public init(code: Code, message: String, statusWord: StatusWord? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.statusWord = statusWord
        self.cause = cause
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let statusWord { text += " (SW \(statusWord): \(statusWord.meaning))" }
        if let cause { text += " (cause: \(cause))" }
        return text
    }
}

extension MRTDError {
    package static func crypto(_ error: OpenSSLError) -> MRTDError {
        MRTDError(code: .cryptoFailure, message: "a cryptographic operation failed", cause: error)
    }

    package static func transport(_ error: any Error, during step: String) -> MRTDError {
        MRTDError(code: .transportFailure, message: "the card could not be reached during \(step)", cause: error)
    }
}
