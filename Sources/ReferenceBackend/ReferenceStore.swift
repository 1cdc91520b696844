import Backend
import Crypto
public import Foundation
public import SQLite

/// A station provisioned with `idkiosk-backend clients add`; the secrets are shown once.
public struct ProvisionedClient: Sendable, CustomStringConvertible {
    public let id: String
    public let secret: String
    /// The key of the callbacks' HMAC signature.
    public let callbackSecret: String

    public var description: String { "ProvisionedClient(\(id), <secrets redacted>)" }
}

/// One workflow execution as the store holds it.
struct ExecutionRow: Sendable {
    var id: String
    var accountId: String
    var definitionKey: Int
    var status: WorkflowStatus
    var sessionTokenHash: [UInt8]
    var tokenExpiresAt: Double
    var createdAt: Double
    var completedAt: Double?
    var result: Data?
    var customerReference: String
    var userReference: String?
    var callbackURL: String?
}

/// A stored part of a credential.
struct StoredPart: Sendable {
    var credentialId: String
    var category: CredentialCategory
    var classifier: PartClassifier
    var body: Data
    /// The countries and document types the workflow accepts for the credential.
    var filter: CredentialFilter?
}

/// A callback waiting for delivery.
public struct PendingCallback: Sendable {
    public var id: Int64
    public var clientId: String
    public var url: String
    public var body: Data
    public var attempts: Int
}

/// The reference backend's SQLite file: clients, tokens, accounts, executions, parts,
/// idempotency records and the callback queue. Secrets and tokens are stored as hashes.
public actor ReferenceStore {
    private let db: SQLiteDatabase
    /// The backend's time; tests move it to expire tokens.
    nonisolated let now: @Sendable () -> Date

    /// Opens (and migrates) the database file.
    /// - Throws: ``SQLiteError`` when the file cannot be opened, is damaged or a migration fails.
    public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws(SQLiteError) {
        let db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
        try db.checkIntegrity()
        try db.migrate(Self.migrations)
        self.db = db
        self.now = now
    }

    private var timestamp: Double { now().timeIntervalSince1970 }

    // MARK: Clients and tokens

    /// Provisions a station; its secret is returned once and stored as a salted hash.
    public func addClient(name: String) throws(SQLiteError) -> ProvisionedClient {
        let id = UUID().uuidString.lowercased()
        let secret = Self.randomToken()
        let callbackSecret = Self.randomToken()
        let salt = Self.randomBytes(16)
        try db.query(
            "INSERT INTO clients (id, name, salt, secret_hash, callback_secret, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(id), .text(name), .blob(salt), .blob(Self.hash(salt + Array(secret.utf8))), .blob(Array(callbackSecret.utf8)), .real(timestamp)]
        )
        return ProvisionedClient(id: id, secret: secret, callbackSecret: callbackSecret)
    }

    /// The provisioned clients: id and name only.
    public func listClients() throws(SQLiteError) -> [(id: String, name: String)] {
        try db.query("SELECT id, name FROM clients ORDER BY created_at").map { ($0[0].string ?? "", $0[1].string ?? "") }
    }

    /// Whether `secret` is the client's; compared in constant time.
    func authenticate(clientId: String, secret: String) throws(SQLiteError) -> Bool {
        guard let row = try db.query("SELECT salt, secret_hash FROM clients WHERE id = ?", [.text(clientId)]).first,
              let salt = row[0].bytes, let stored = row[1].bytes
        else { return false }
        return Self.constantTimeEqual(Self.hash(salt + Array(secret.utf8)), stored)
    }

    func issueToken(clientId: String, lifetime: Int) throws(SQLiteError) -> String {
        let token = Self.randomToken()
        try db.query("DELETE FROM access_tokens WHERE expires_at < ?", [.real(timestamp)])
        try db.query(
            "INSERT INTO access_tokens (token_hash, client_id, expires_at) VALUES (?, ?, ?)",
            [.blob(Self.hash(Array(token.utf8))), .text(clientId), .real(timestamp + Double(lifetime))]
        )
        return token
    }

    /// The client an unexpired access token belongs to.
    func client(forToken token: String) throws(SQLiteError) -> String? {
        try db.query(
            "SELECT client_id FROM access_tokens WHERE token_hash = ? AND expires_at > ?",
            [.blob(Self.hash(Array(token.utf8))), .real(timestamp)]
        ).first?.first?.string
    }

    /// Revokes every access token of a client (an operator's action; tests use it too).
    public func revokeTokens(clientId: String) throws(SQLiteError) {
        try db.query("DELETE FROM access_tokens WHERE client_id = ?", [.text(clientId)])
    }

    func callbackSecret(clientId: String) throws(SQLiteError) -> [UInt8]? {
        try db.query("SELECT callback_secret FROM clients WHERE id = ?", [.text(clientId)]).first?.first?.bytes
    }

    // MARK: Accounts and executions

    /// Creates an account (or a new execution of the client's existing one) with its credentials.
    /// - Returns: nil when `existingAccountId` is not this client's.
    func initiate(
        clientId: String, request: AccountRequest, existingAccountId: String?, baseURL: String
    ) throws(SQLiteError) -> AccountResponse? {
        try db.transaction { () throws(SQLiteError) -> AccountResponse? in
            let accountId: String
            if let existingAccountId {
                guard try ownsAccount(clientId: clientId, accountId: existingAccountId) else { return nil }
                accountId = existingAccountId
                try db.query(
                    "UPDATE accounts SET customer_ref = ?, user_ref = ?, reporting = ?, callback_url = ? WHERE id = ?",
                    [.text(request.customerInternalReference), Self.optional(request.userReference), Self.optional(request.reportingCriteria),
                     Self.optional(request.callbackUrl), .text(accountId)]
                )
            } else {
                accountId = UUID().uuidString.lowercased()
                try db.query(
                    "INSERT INTO accounts (id, client_id, customer_ref, user_ref, reporting, callback_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [.text(accountId), .text(clientId), .text(request.customerInternalReference), Self.optional(request.userReference),
                     Self.optional(request.reportingCriteria), Self.optional(request.callbackUrl), .real(timestamp)]
                )
            }
            let executionId = UUID().uuidString.lowercased()
            let sessionToken = Self.randomToken()
            let lifetime = Double(request.tokenLifetime ?? 1800)
            try db.query(
                "INSERT INTO executions (id, account_id, definition_key, status, session_token_hash, token_expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.text(executionId), .text(accountId), .integer(Int64(request.workflowDefinition.key)), .text(WorkflowStatus.INITIATED.rawValue),
                 .blob(Self.hash(Array(sessionToken.utf8))), .real(timestamp + lifetime), .real(timestamp)]
            )
            let executionURL = "\(baseURL)/api/v1/accounts/\(accountId)/workflow-executions/\(executionId)"
            var credentials: [CredentialResponse] = []
            for filter in WorkflowRequirements.credentials(for: request.workflowDefinition) {
                let credentialId = UUID().uuidString.lowercased()
                try db.query(
                    "INSERT INTO credentials (id, execution_id, category, filter) VALUES (?, ?, ?, ?)",
                    [.text(credentialId), .text(executionId), .text(filter.category.rawValue),
                     (try? JSONEncoder().encode(filter)).map { .blob(Array($0)) } ?? .null]
                )
                var parts: [String: String] = [:]
                for classifier in WorkflowRequirements.classifiers(for: filter.category) {
                    parts[classifier] = "\(executionURL)/credentials/\(credentialId)/parts/\(classifier)"
                }
                credentials.append(CredentialResponse(
                    id: credentialId, category: filter.category, country: filter.country, type: filter.type,
                    api: .init(parts: parts, workflowExecution: executionURL)
                ))
            }
            return AccountResponse(
                timestamp: ISO8601DateFormatter().string(from: now()),
                account: Ref(id: accountId),
                sdk: .init(token: sessionToken),
                consentItems: [ConsentItemResponse(
                    id: "privacy", type: "PASSIVE", text: "By continuing you agree to the processing of your identity document.",
                    url: "\(baseURL)/privacy"
                )],
                workflowExecution: .init(id: executionId, credentials: credentials)
            )
        }
    }

    func ownsAccount(clientId: String, accountId: String) throws(SQLiteError) -> Bool {
        try !db.query("SELECT 1 FROM accounts WHERE id = ? AND client_id = ?", [.text(accountId), .text(clientId)]).isEmpty
    }

    /// The execution when it belongs to this client's account, else nil.
    func execution(clientId: String, accountId: String, executionId: String) throws(SQLiteError) -> ExecutionRow? {
        guard let row = try db.query(
            """
            SELECT e.id, e.account_id, e.definition_key, e.status, e.session_token_hash, e.token_expires_at, e.created_at,
                   e.completed_at, e.result, a.customer_ref, a.user_ref, a.callback_url
            FROM executions e JOIN accounts a ON a.id = e.account_id
            WHERE e.id = ? AND e.account_id = ? AND a.client_id = ?
            """,
            [.text(executionId), .text(accountId), .text(clientId)]
        ).first else { return nil }
        return ExecutionRow(
            id: row[0].string ?? "", accountId: row[1].string ?? "", definitionKey: Int(row[2].int ?? 0),
            status: WorkflowStatus(rawValue: row[3].string ?? "") ?? .INITIATED, sessionTokenHash: row[4].bytes ?? [],
            tokenExpiresAt: row[5].double ?? 0, createdAt: row[6].double ?? 0, completedAt: row[7].double,
            result: row[8].bytes.map { Data($0) }, customerReference: row[9].string ?? "", userReference: row[10].string,
            callbackURL: row[11].string
        )
    }

    func setStatus(executionId: String, _ status: WorkflowStatus) throws(SQLiteError) {
        try db.query("UPDATE executions SET status = ? WHERE id = ?", [.text(status.rawValue), .text(executionId)])
    }

    func credentialCategory(executionId: String, credentialId: String) throws(SQLiteError) -> CredentialCategory? {
        try db.query("SELECT category FROM credentials WHERE id = ? AND execution_id = ?", [.text(credentialId), .text(executionId)])
            .first?.first?.string.flatMap(CredentialCategory.init(rawValue:))
    }

    /// A stored idempotent answer: the request's hash, status and body.
    func idempotentAnswer(clientId: String, key: String) throws(SQLiteError) -> (requestHash: [UInt8], status: Int, body: Data)? {
        guard let row = try db.query(
            "SELECT request_hash, status, response FROM idempotency WHERE client_id = ? AND key = ?", [.text(clientId), .text(key)]
        ).first else { return nil }
        return (row[0].bytes ?? [], Int(row[1].int ?? 0), Data(row[2].bytes ?? []))
    }

    /// Stores the part and its idempotent answer in one transaction, and moves the execution to ACQUIRED.
    func storePart(
        clientId: String, key: String, requestHash: [UInt8], executionId: String, credentialId: String,
        classifier: PartClassifier, body: Data, answer: Data
    ) throws(SQLiteError) {
        try db.transaction { () throws(SQLiteError) in
            try db.query(
                "INSERT OR REPLACE INTO parts (credential_id, classifier, execution_id, body) VALUES (?, ?, ?, ?)",
                [.text(credentialId), .text(classifier.rawValue), .text(executionId), .blob(Array(body))]
            )
            try db.query(
                "INSERT INTO idempotency (client_id, key, request_hash, status, response) VALUES (?, ?, ?, 200, ?)",
                [.text(clientId), .text(key), .blob(requestHash), .blob(Array(answer))]
            )
            try db.query("UPDATE executions SET status = ? WHERE id = ? AND status = ?",
                         [.text(WorkflowStatus.ACQUIRED.rawValue), .text(executionId), .text(WorkflowStatus.INITIATED.rawValue)])
        }
    }

    func parts(executionId: String) throws(SQLiteError) -> [StoredPart] {
        try db.query(
            "SELECT p.credential_id, c.category, p.classifier, p.body, c.filter FROM parts p JOIN credentials c ON c.id = p.credential_id WHERE p.execution_id = ? ORDER BY p.classifier",
            [.text(executionId)]
        ).compactMap { row in
            guard let category = row[1].string.flatMap(CredentialCategory.init(rawValue:)),
                  let classifier = row[2].string.flatMap(PartClassifier.init(rawValue:)) else { return nil }
            let filter = row[4].bytes.flatMap { try? JSONDecoder().decode(CredentialFilter.self, from: Data($0)) }
            return StoredPart(credentialId: row[0].string ?? "", category: category, classifier: classifier, body: Data(row[3].bytes ?? []), filter: filter)
        }
    }

    /// Records the result, marks the execution PROCESSED and queues its callback, in one transaction.
    func complete(executionId: String, result: Data, callback: (clientId: String, url: String, body: Data)?) throws(SQLiteError) {
        try db.transaction { () throws(SQLiteError) in
            try db.query(
                "UPDATE executions SET status = ?, completed_at = ?, result = ? WHERE id = ?",
                [.text(WorkflowStatus.PROCESSED.rawValue), .real(timestamp), .blob(Array(result)), .text(executionId)]
            )
            if let callback {
                try db.query(
                    "INSERT INTO callbacks (client_id, url, body, next_attempt_at) VALUES (?, ?, ?, ?)",
                    [.text(callback.clientId), .text(callback.url), .blob(Array(callback.body)), .real(timestamp)]
                )
            }
        }
    }

    // MARK: Callbacks

    public func dueCallbacks(limit: Int = 20) throws(SQLiteError) -> [PendingCallback] {
        try db.query(
            "SELECT id, client_id, url, body, attempts FROM callbacks WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?",
            [.real(timestamp), .integer(Int64(limit))]
        ).map { PendingCallback(id: $0[0].int ?? 0, clientId: $0[1].string ?? "", url: $0[2].string ?? "", body: Data($0[3].bytes ?? []), attempts: Int($0[4].int ?? 0)) }
    }

    public func pendingCallbackCount() throws(SQLiteError) -> Int {
        Int(try db.query("SELECT COUNT(*) FROM callbacks").first?.first?.int ?? 0)
    }

    func callbackDelivered(id: Int64) throws(SQLiteError) {
        try db.query("DELETE FROM callbacks WHERE id = ?", [.integer(id)])
    }

    func callbackFailed(id: Int64, retryIn: Duration) throws(SQLiteError) {
        let seconds = Double(retryIn.components.seconds) + Double(retryIn.components.attoseconds) / 1e18
        try db.query("UPDATE callbacks SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?", [.real(timestamp + seconds), .integer(id)])
    }

    // MARK: Helpers

    static func optional(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }

    static func hash(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// 32 random bytes, base64url without padding.
    static func randomToken() -> String {
        Data(randomBytes(32)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

extension ReferenceStore {
    /// The idempotency keys of the uploads stored for a client: one per delivered part.
    public func deliveredKeys(clientId: String) throws(SQLiteError) -> [String] {
        try db.query("SELECT key FROM idempotency WHERE client_id = ? ORDER BY key", [.text(clientId)]).compactMap { $0.first?.string }
    }

    /// How many parts a workflow execution holds.
    public func partCount(executionId: String) throws(SQLiteError) -> Int {
        Int(try db.query("SELECT COUNT(*) FROM parts WHERE execution_id = ?", [.text(executionId)]).first?.first?.int ?? 0)
    }
}
