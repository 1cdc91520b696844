/// Where the station's accounts live (seeds: `JumioDataCenter`); configuration, not code.
public enum DataCenter: String, Hashable, Sendable, Codable, CaseIterable {
    case US, EU, SG
}

/// The base URL of each data center, as the station's configuration sets them.
public struct DataCenterEndpoints: Hashable, Sendable {
    public var urls: [DataCenter: String]

    public init(_ urls: [DataCenter: String]) { self.urls = urls }

    /// - Throws: ``BackendError`` (F: not configured) when the data center has no URL.
    public func baseURL(for dataCenter: DataCenter) throws(BackendError) -> String {
        guard let url = urls[dataCenter] else {
            throw BackendError(.notConfigured, call: .token, message: "no base URL for data center \(dataCenter.rawValue)")
        }
        return url
    }
}
