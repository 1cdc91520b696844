public import Backend
public import ScanFlow

extension BackendError {
    /// The journey's error for this failure, in the seeds' codes (docs/backend.md):
    /// `[family][xx][yyyy]`, `xx` the call's number, `yyyy` the HTTP status or 0000.
    /// Retryable exactly when the backend error is (families A and E).
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
        case .referenceInvalid: return FlowError(.L)
        case .notConfigured: return FlowError(.F)
        }
    }
}
