/// A failed backend call: what went wrong (``Kind``), in which call, with which HTTP status.
///
/// The backend's own vocabulary; the station maps it to the seeds' error codes. ``code``
/// names the failure in logs and the outbox's records. The message and cause never hold
/// personal data or tokens.
public struct BackendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as the station must react to it.
    public enum Kind: String, Hashable, Sendable {
        /// The backend could not be reached at all: connect refused, no route, DNS (retryable).
        case noConnection
        /// The exchange failed after connecting: timeout, reset, 5xx, 429 after the retries (retryable).
        case network
        /// TLS could not be established, or the pinned key did not match.
        case secureConnection
        /// The client credentials were refused (401).
        case credentials
        /// The resource is not this station's or does not exist (403/404).
        case forbidden
        /// The backend no longer accepts the encryption key.
        case encryptionKeyInvalid
        /// The transaction finished or its session expired (410).
        case transactionFinished
        /// The backend refused the request as invalid (400/409/413/422).
        case rejected
        /// The enrollment or authentication transaction reference of an Authentication
        /// cannot be used (no such finished verification, or its face is gone).
        case referenceInvalid
        /// The station's configuration lacks what the call needs.
        case notConfigured
    }

    /// Which call failed. The raw value is the call's stable number (the seeds' codes carry it).
    public enum Call: Int, Hashable, Sendable, CustomStringConvertible {
        case token = 10
        case createAccount = 20
        case updateAccount = 21
        case uploadPart = 30
        case finalize = 40
        case status = 50
        case retrieve = 51
        case digitalIdentity = 52
        case encryptionKey = 60

        public var description: String {
            switch self {
            case .token: "token"
            case .createAccount: "createAccount"
            case .updateAccount: "updateAccount"
            case .uploadPart: "uploadPart"
            case .finalize: "finalize"
            case .status: "status"
            case .retrieve: "retrieve"
            case .digitalIdentity: "digitalIdentity"
            case .encryptionKey: "encryptionKey"
            }
        }
    }

    public let kind: Kind
    public let call: Call
    /// The HTTP status, when an answer came.
    public let httpStatus: Int?
    /// A plain message for a technician.
    public let message: String
    /// The underlying error's description (transport errors carry no personal data).
    public let cause: String?

    public init(_ kind: Kind, call: Call, httpStatus: Int? = nil, message: String, cause: String? = nil) {
        self.kind = kind
        self.call = call
        self.httpStatus = httpStatus
        self.message = message
        self.cause = cause
    }

    /// The failure as a stable name for logs and records: `kind.call`, then `.status`
    /// when an answer came, e.g. `network.uploadPart.503` or `noConnection.token`.
    public var code: String {
        var code = "\(kind.rawValue).\(call)"
        if let httpStatus { code += ".\(httpStatus)" }
        return code
    }

    /// Whether the station may try the same call again later: the backend was not
    /// reached, or the exchange failed on the way.
    public var isRetryable: Bool {
        switch kind {
        case .noConnection, .network: true
        case .secureConnection, .credentials, .forbidden, .encryptionKeyInvalid, .transactionFinished, .rejected, .referenceInvalid, .notConfigured: false
        }
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let cause { text += " cause: \(cause)" }
        return text
    }
}
