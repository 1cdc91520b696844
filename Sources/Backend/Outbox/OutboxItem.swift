/// One delivery the outbox holds: a part upload, or the finalize that must follow the
/// parts of its workflow execution.
public enum OutboxItem: Hashable, Sendable, Codable, CustomStringConvertible {
    case part(PartUpload)
    /// `extractionOnly`: a Fastfill journey's finalize (the backend extracts, decides nothing).
    case finalize(ExecutionRef, extractionOnly: Bool = false)

    /// Makes a repeated delivery harmless; unique in the outbox.
    public var idempotencyKey: String {
        switch self {
        case .part(let upload): upload.idempotencyKey
        case .finalize(let execution, _): "finalize-\(execution.workflowExecutionId)"
        }
    }

    public var workflowExecutionId: String {
        switch self {
        case .part(let upload): upload.execution.workflowExecutionId
        case .finalize(let execution, _): execution.workflowExecutionId
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
        case .finalize(let execution, let extractionOnly): "OutboxItem.finalize(\(execution)\(extractionOnly ? ", extractionOnly" : ""))"
        }
    }

    // MARK: Codable
    //
    // Stored as Swift's own enum coding wrote it before `extractionOnly` existed
    // (`{"finalize":{"_0":{…}}}`), so records an older station queued still decode; the flag
    // is written only when set.

    private enum CodingKeys: String, CodingKey { case part, finalize }
    private enum PayloadKeys: String, CodingKey {
        case value = "_0"
        case extractionOnly
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.part) {
            let payload = try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .part)
            self = .part(try payload.decode(PartUpload.self, forKey: .value))
        } else {
            let payload = try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .finalize)
            self = .finalize(
                try payload.decode(ExecutionRef.self, forKey: .value),
                extractionOnly: try payload.decodeIfPresent(Bool.self, forKey: .extractionOnly) ?? false)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .part(let upload):
            var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .part)
            try payload.encode(upload, forKey: .value)
        case .finalize(let execution, let extractionOnly):
            var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .finalize)
            try payload.encode(execution, forKey: .value)
            if extractionOnly { try payload.encode(true, forKey: .extractionOnly) }
        }
    }
}
