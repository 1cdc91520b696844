extension FlowError: Codable {
    private enum CodingKeys: String, CodingKey {
        case code
        case message
        case retryable
    }

    /// `{"code": "A100503", "message": "...", "retryable": true}`; message and retryable
    /// are derived from the code and only informative when decoding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(isRetryable, forKey: .retryable)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code = try container.decode(String.self, forKey: .code)
        guard let letter = code.first, let family = Family(rawValue: String(letter)) else {
            throw DecodingError.dataCorruptedError(forKey: .code, in: container, debugDescription: "unknown error family in \(code)")
        }
        self.init(family, detail: String(code.dropFirst()))
    }
}
