public import ScanFlow

/// A failed backend call, with the seeds' error code the journey shows.
///
/// Codes follow the seeds' `[letter][xx][yyyy]`: `xx` is the call (``Call``), `yyyy`
/// the HTTP status or 0000. The message and cause never hold personal data or tokens.
public struct BackendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as the station must react to it.
    public enum Kind: String, Hashable, Sendable {
        /// The backend could not be reached at all: connect refused, no route, DNS (E, retryable).
        case noConnection
        /// The exchange failed after connecting: timeout, reset, 5xx, 429 after the retries (A, retryable).
        case network
        /// TLS could not be established, or the pinned key did not match (B).
        case secureConnection
        /// The client credentials were refused (C, 401).
        case credentials
        /// The resource is not this station's or does not exist (D, 403/404).
        case forbidden
        /// The backend no longer accepts the encryption key (I).
        case encryptionKeyInvalid
        /// The transaction finished or its session expired (J, 410).
        case transactionFinished
        /// The backend refused the request as invalid (M, 400/409/413/422).
        case rejected
        /// The station's configuration lacks what the call needs (F).
        case notConfigured
    }

    /// Which call failed; the `xx` of the code.
    public enum Call: Int, Hashable, Sendable, CustomStringConvertible {
        case token = 10
        case createAccount = 20
        case updateAccount = 21
        case uploadPart = 30
        case finalize = 40
        case status = 50
        case retrieve = 51
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

    /// The journey error, with the seeds' family and retryability.
    public var flowError: FlowError {
        let status = httpStatus ?? 0
        func detail(_ yyyy: Int) -> String {
            let digits = String(min(max(yyyy, 0), 9999))
            return String(call.rawValue) + String(repeating: "0", count: 4 - digits.count) + digits
        }
        switch kind {
        case .noConnection: return FlowError(.E, detail: detail(0))
        case .network: return FlowError(.A, detail: detail(status))
        case .secureConnection: return FlowError(.B, detail: detail(status))
        case .credentials: return FlowError(.C, detail: detail(401))
        case .forbidden: return FlowError(.D, detail: detail(status == 0 ? 403 : status))
        case .encryptionKeyInvalid: return FlowError(.I)
        case .transactionFinished: return FlowError(.J)
        case .rejected: return FlowError(.M, detail: detail(status))
        case .notConfigured: return FlowError(.F)
        }
    }

    /// Whether the station may try the same call again later.
    public var isRetryable: Bool { flowError.isRetryable }

    public var description: String {
        var text = "\(flowError.code) \(call): \(message)"
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        if let cause { text += " cause: \(cause)" }
        return text
    }
}
