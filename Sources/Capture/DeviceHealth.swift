/// How a device is, for `/health`, the out-of-service screen and `STATUS=`.
public struct DeviceHealth: Hashable, Sendable, Codable {
    public var name: String
    public var ready: Bool
    /// What is wrong and what to do, for a technician; empty when ready.
    public var detail: String

    public init(name: String, ready: Bool, detail: String = "") {
        self.name = name
        self.ready = ready
        self.detail = detail
    }
}
