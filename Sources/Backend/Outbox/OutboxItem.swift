/// One delivery the outbox holds: a part upload, or the finalize that must follow the
/// parts of its workflow execution.
public enum OutboxItem: Hashable, Sendable, Codable, CustomStringConvertible {
    case part(PartUpload)
    case finalize(ExecutionRef)

    /// Makes a repeated delivery harmless; unique in the outbox.
    public var idempotencyKey: String {
        switch self {
        case .part(let upload): upload.idempotencyKey
        case .finalize(let execution): "finalize-\(execution.workflowExecutionId)"
        }
    }

    public var workflowExecutionId: String {
        switch self {
        case .part(let upload): upload.execution.workflowExecutionId
        case .finalize(let execution): execution.workflowExecutionId
        }
    }

    /// `part` or `finalize`, as stored.
    public var kind: String {
        switch self {
        case .part: "part"
        case .finalize: "finalize"
        }
    }

    public var description: String {
        switch self {
        case .part(let upload): "OutboxItem.part(\(upload))"
        case .finalize(let execution): "OutboxItem.finalize(\(execution))"
        }
    }
}
