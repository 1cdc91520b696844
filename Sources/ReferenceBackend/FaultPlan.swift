import Backend
import HTTPTypes
import Hummingbird

/// Failures the reference backend injects on purpose, for fault tests and demos of the
/// station's error handling: error statuses (with Retry-After) and slow answers.
public actor FaultPlan {
    public enum Fault: Sendable, Hashable {
        /// Answer with this status (and Retry-After seconds) instead of handling the request.
        case status(Int, retryAfter: Int? = nil)
        /// Handle the request after this delay.
        case delay(Duration)
    }

    private struct Rule {
        var pathContains: String
        var method: String?
        var fault: Fault
        var remaining: Int
    }

    private var rules: [Rule] = []
    private var paths: [String] = []
    private var sealed: [String] = []

    public init() {}

    /// Injects `fault` into the next `times` requests whose path contains `pathContains`.
    public func inject(_ fault: Fault, times: Int = 1, pathContains: String, method: String? = nil) {
        rules.append(Rule(pathContains: pathContains, method: method, fault: fault, remaining: times))
    }

    /// Removes every injected fault not yet used: the backend is well again.
    public func clear() {
        rules.removeAll()
    }

    /// How many requests reached the server whose path contains the text.
    public func requestCount(pathContains: String) -> Int {
        paths.filter { $0.contains(pathContains) }.count
    }

    /// How many requests whose path contains the text came sealed with application-layer encryption.
    public func sealedRequestCount(pathContains: String) -> Int {
        sealed.filter { $0.contains(pathContains) }.count
    }

    func take(path: String, method: String, isSealed: Bool) -> Fault? {
        paths.append("\(method) \(path)")
        if isSealed { sealed.append("\(method) \(path)") }
        guard let index = rules.firstIndex(where: { path.contains($0.pathContains) && ($0.method == nil || $0.method == method) && $0.remaining > 0 }) else {
            return nil
        }
        rules[index].remaining -= 1
        return rules[index].fault
    }
}

struct FaultMiddleware<Context: RequestContext>: RouterMiddleware {
    let plan: FaultPlan

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let isSealed = request.headers[HTTPField.Name("X-Encryption")!] != nil
        switch await plan.take(path: request.uri.path, method: request.method.rawValue, isSealed: isSealed) {
        case .none:
            return try await next(request, context)
        case .delay(let duration):
            try await Task.sleep(for: duration)
            return try await next(request, context)
        case .status(let code, let retryAfter):
            let failure = APIFailure(
                HTTPResponse.Status(code: code), code == 429 ? .RATE_LIMITED : .INTERNAL, "injected fault", retryAfter: retryAfter
            )
            return ReferenceServer.failure(failure)
        }
    }
}
