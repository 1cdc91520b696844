import Backend
import Foundation
import Hummingbird
import HTTPTypes
import NIOCore

/// A Digital Identity's outcome as a finalisation reads it.
struct DigitalIdentityOutcome: Sendable {
    var credentialId: String
    var status: DigitalIdentityStatus
}

extension ReferenceServer {
    /// Offers the configured providers to each ID credential whose filter accepts a Digital
    /// Identity, with a new hand-off address.
    func offerDigitalIdentities(_ response: inout AccountResponse, request: AccountRequest, baseURL: String) async throws(APIFailure) {
        let providers = configuration.digitalIdentityProviders
        guard !providers.isEmpty else { return }
        // The answer's credentials are the requirements' filters, in order.
        let filters = WorkflowRequirements.credentials(for: request.workflowDefinition)
        let now = store.now()
        for (index, filter) in zip(response.workflowExecution.credentials.indices, filters)
        where filter.category == .ID && filter.digitalIdentity == true {
            let credential = response.workflowExecution.credentials[index]
            let token = await handoffs.open(executionId: response.workflowExecution.id, credentialId: credential.id, providers: providers, now: now)
            response.workflowExecution.credentials[index].digitalIdentities = providers.map { provider in
                DigitalIdentityOffer(
                    provider: provider.id, title: provider.title,
                    countries: provider.countries.isEmpty ? (credential.country?.values ?? []) : provider.countries,
                    handoffUrl: "\(baseURL)/handoff/\(token)?provider=\(provider.id)")
            }
        }
    }

    /// `GET …/credentials/{credentialId}/digital-identity`: where the credential's hand-off stands.
    func digitalIdentity(_ request: Request, _ context: BasicRequestContext) async throws(APIFailure) -> Response {
        let clientId = try await authorize(request)
        let (row, _) = try await ownedExecution(clientId, context)
        try await checkSession(request, row)
        let credentialId = try parameter("credentialId", context)
        guard let status = await handoffs.status(executionId: row.id, credentialId: credentialId, now: store.now()) else {
            throw APIFailure(.notFound, .NOT_FOUND, "the credential has no Digital Identity hand-off")
        }
        return try json(status)
    }

    // MARK: The phone's side

    /// `GET /handoff/{token}`: the person's phone opened the address; the page asks what the
    /// provider would (share the identity, or not).
    func handoffPage(_ request: Request, _ context: BasicRequestContext) async -> Response {
        guard let token = context.parameters.get("token"), let entry = await handoffs.opened(token: token, now: store.now()) else {
            return Self.page(status: .notFound, "Unknown address", "<p>This address is not (or no longer) valid. Go back to the station.</p>")
        }
        let chosen = request.uri.queryParameters.get("provider").flatMap { id in entry.providers.first { $0.id == id } } ?? entry.providers.first
        switch entry.state {
        case .OPENED:
            let title = chosen?.title ?? "Digital Identity"
            return Self.page(status: .ok, title, """
                <p>The station asks for your identity. Share it?</p>
                <form method="post">
                <input type="hidden" name="provider" value="\(chosen?.id ?? "")">
                <button name="outcome" value="verify" data-outcome="verify">Share my identity</button>
                <button name="outcome" value="fail" data-outcome="fail">Verification fails (test)</button>
                <button name="outcome" value="cancel" data-outcome="cancel">Decline</button>
                </form>
                """)
        default:
            return Self.page(status: .gone, "Already used", "<p>This address was used already or has expired. Go back to the station.</p>")
        }
    }

    /// `POST /handoff/{token}`: what the person did at the provider (form field `outcome`:
    /// `verify`, `fail` or `cancel`; `provider` the one chosen).
    func handoffAnswer(_ request: Request, _ context: BasicRequestContext) async -> Response {
        guard let token = context.parameters.get("token"),
            let body = try? await request.body.collect(upTo: 4096)
        else { return Self.page(status: .badRequest, "Not understood", "<p>The answer could not be read.</p>") }
        var fields: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard let outcome = fields["outcome"].flatMap(HandoffRegistry.Outcome.init(rawValue:)) else {
            return Self.page(status: .badRequest, "Not understood", "<p>The answer names no outcome (verify, fail or cancel).</p>")
        }
        guard let entry = await handoffs.finish(token: token, provider: fields["provider"], outcome: outcome, now: store.now()) else {
            return Self.page(status: .notFound, "Unknown address", "<p>This address is not (or no longer) valid. Go back to the station.</p>")
        }
        let text = switch entry.state {
        case .VERIFIED: "Done: your identity was shared. Go back to the station."
        case .FAILED: "Your identity could not be verified. The station lets you try again."
        case .CANCELLED: "You declined. Go back to the station."
        case .EXPIRED: "This address has expired. Go back to the station."
        case .PENDING, .OPENED: "Open the address again to answer."
        }
        return Self.page(status: .ok, "Digital Identity", "<p data-state=\"\(entry.state.rawValue)\">\(text)</p>")
    }

    static func page(status: HTTPResponse.Status, _ title: String, _ body: String) -> Response {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title></head><body><h1>\(title)</h1>\(body)</body></html>
            """
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .contentSecurityPolicy: "default-src 'none'; form-action 'self'"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
