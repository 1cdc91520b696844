import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The person's phone at a Digital Identity hand-off: opens the address the station showed
/// (GET, the reference backend's simulated provider page) and answers as that page asks (POST).
public enum HandoffPhone {
    /// Opens the address; the HTTP status and the page.
    public static func open(_ url: String) async throws -> (status: Int, page: String) {
        guard let address = URL(string: url) else { throw ChildProcessError("not a URL") }
        let (data, response) = try await URLSession.shared.data(from: address)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Answers at the provider: `verify`, `fail` or `cancel`, for the provider the address names.
    /// - Returns: the HTTP status.
    public static func answer(_ url: String, outcome: String) async throws -> Int {
        guard var components = URLComponents(string: url) else { throw ChildProcessError("not a URL") }
        let provider = components.queryItems?.first { $0.name == "provider" }?.value ?? ""
        components.query = nil
        guard let address = components.url else { throw ChildProcessError("not a URL") }
        var request = URLRequest(url: address)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("outcome=\(outcome)&provider=\(provider)".utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
