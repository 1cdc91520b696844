import Backend
import Foundation

/// What a new workflow execution writes, decided before any store writes it: the same
/// ids, token and answer whichever database holds them.
struct InitiationPlan {
    /// Seconds a session token lives when the request does not say.
    static let defaultTokenLifetime = 1800

    struct Credential {
        var id: String
        var filter: CredentialFilter
        /// The filter as JSON, stored for the consistency check at finalize.
        var filterJSON: Data?
    }

    var accountId: String
    var isNewAccount: Bool
    var executionId: String
    var sessionToken: String
    var sessionTokenHash: [UInt8]
    var definitionKey: Int
    /// An Authentication's enrollment (checked by the server before).
    var enrollmentId: String?
    var tokenExpiresAt: Double
    var createdAt: Double
    var credentials: [Credential]

    init(request: AccountRequest, existingAccountId: String?, now: Date) {
        accountId = existingAccountId ?? UUID().uuidString.lowercased()
        isNewAccount = existingAccountId == nil
        executionId = UUID().uuidString.lowercased()
        sessionToken = StoreSecrets.randomToken()
        sessionTokenHash = StoreSecrets.hash(Array(sessionToken.utf8))
        definitionKey = request.workflowDefinition.key
        enrollmentId = request.enrollmentTransactionReference
        createdAt = now.timeIntervalSince1970
        tokenExpiresAt = createdAt + Double(request.tokenLifetime ?? Self.defaultTokenLifetime)
        credentials = WorkflowRequirements.credentials(for: request.workflowDefinition).map {
            Credential(id: UUID().uuidString.lowercased(), filter: $0, filterJSON: try? JSONEncoder().encode($0))
        }
    }

    /// The API's answer: ids, part URLs under `baseURL`, consent items and the session token.
    func response(baseURL: String, now: Date) -> AccountResponse {
        Self.response(
            accountId: accountId, executionId: executionId, sessionToken: sessionToken, credentials: credentials, baseURL: baseURL, now: now)
    }

    /// The answer for an execution: a new one, or an Authentication the integrator's server
    /// created and a station now takes (with a new session token).
    static func response(
        accountId: String, executionId: String, sessionToken: String, credentials: [Credential], baseURL: String, now: Date
    ) -> AccountResponse {
        let executionURL = "\(baseURL)/api/v1/accounts/\(accountId)/workflow-executions/\(executionId)"
        let credentialResponses = credentials.map { credential in
            var parts: [String: String] = [:]
            for classifier in WorkflowRequirements.classifiers(for: credential.filter.category) {
                parts[classifier] = "\(executionURL)/credentials/\(credential.id)/parts/\(classifier)"
            }
            return CredentialResponse(
                id: credential.id, category: credential.filter.category, country: credential.filter.country, type: credential.filter.type,
                api: .init(parts: parts, workflowExecution: executionURL)
            )
        }
        return AccountResponse(
            timestamp: ISO8601DateFormatter().string(from: now),
            account: Ref(id: accountId),
            sdk: .init(token: sessionToken),
            consentItems: ConsentOffer.passive.items(baseURL: baseURL),
            workflowExecution: .init(id: executionId, credentials: credentialResponses)
        )
    }
}
