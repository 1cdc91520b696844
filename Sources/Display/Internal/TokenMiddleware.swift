import HTTPTypes
import Hummingbird

/// Lets a request through only when it presents the display token: `Authorization: Bearer`,
/// `?token=`, or the cookie set when the page was opened with `?token=` (so the page's
/// scripts, styles, images and WebSocket need not repeat it).
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    static var cookieName: String { "idkiosk_display_token" }

    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else { return try await next(request, context) }
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            Self.constantTimeEqual(String(header.dropFirst(7)), token)
        {
            return try await next(request, context)
        }
        if let query = request.uri.queryParameters["token"], Self.constantTimeEqual(String(query), token) {
            var response = try await next(request, context)
            response.headers[.setCookie] = "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            return response
        }
        if let cookie = request.cookies[Self.cookieName], Self.constantTimeEqual(cookie.value, token) {
            return try await next(request, context)
        }
        context.logger.info("display request without a valid token", metadata: ["path": "\(request.uri.path)"])
        return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
    }

    /// Compares without an early exit, so the time taken says nothing about the token.
    static func constantTimeEqual(_ presented: String, _ expected: String) -> Bool {
        let a = Array(presented.utf8)
        let b = Array(expected.utf8)
        var difference = a.count ^ b.count
        for index in b.indices {
            difference |= Int((index < a.count ? a[index] : 0) ^ b[index])
        }
        return difference == 0
    }
}
