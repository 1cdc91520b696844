public import Backend
public import Foundation
import KioskTime
public import SQLite

/// The reference backend's storage in one SQLite file (the default: no set-up).
public actor SQLiteReferenceStore: ReferenceStore {
    private let db: SQLiteDatabase
    public nonisolated let now: @Sendable () -> Date

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

    /// The schema version (`PRAGMA user_version`).
    public func schemaVersion() throws(SQLiteError) -> Int {
        Int(try db.query("PRAGMA user_version").first?.first?.int ?? 0)
    }

    // MARK: Clients and tokens

    public func addClient(name: String) throws(SQLiteError) -> ProvisionedClient {
        let (client, salt, secretHash) = StoreSecrets.newClient()
        try db.query(
            "INSERT INTO clients (id, name, salt, secret_hash, callback_secret, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(client.id), .text(name), .blob(salt), .blob(secretHash), .blob(Array(client.callbackSecret.utf8)), .real(timestamp)]
        )
        return client
    }

    public func listClients() throws(SQLiteError) -> [(id: String, name: String)] {
        try db.query("SELECT id, name FROM clients ORDER BY created_at, id").map { ($0[0].string ?? "", $0[1].string ?? "") }
    }

    public func authenticate(clientId: String, secret: String) throws(SQLiteError) -> Bool {
        guard let row = try db.query("SELECT salt, secret_hash FROM clients WHERE id = ?", [.text(clientId)]).first,
              let salt = row[0].bytes, let stored = row[1].bytes
        else { return false }
        return StoreSecrets.constantTimeEqual(StoreSecrets.hash(salt + Array(secret.utf8)), stored)
    }

    public func issueToken(clientId: String, lifetime: Int) throws(SQLiteError) -> String {
        let token = StoreSecrets.randomToken()
        try db.query("DELETE FROM access_tokens WHERE expires_at < ?", [.real(timestamp)])
        try db.query(
            "INSERT INTO access_tokens (token_hash, client_id, expires_at) VALUES (?, ?, ?)",
            [.blob(StoreSecrets.hash(Array(token.utf8))), .text(clientId), .real(timestamp + Double(lifetime))]
        )
        return token
    }

    public func client(forToken token: String) throws(SQLiteError) -> String? {
        try db.query(
            "SELECT client_id FROM access_tokens WHERE token_hash = ? AND expires_at > ?",
            [.blob(StoreSecrets.hash(Array(token.utf8))), .real(timestamp)]
        ).first?.first?.string
    }

    public func revokeTokens(clientId: String) throws(SQLiteError) {
        try db.query("DELETE FROM access_tokens WHERE client_id = ?", [.text(clientId)])
    }

    public func callbackSecret(clientId: String) throws(SQLiteError) -> [UInt8]? {
        try db.query("SELECT callback_secret FROM clients WHERE id = ?", [.text(clientId)]).first?.first?.bytes
    }

    // MARK: Accounts and executions

    public func initiate(
        clientId: String, request: AccountRequest, existingAccountId: String?, baseURL: String
    ) throws(SQLiteError) -> AccountResponse? {
        try db.transaction { () throws(SQLiteError) -> AccountResponse? in
            let plan = InitiationPlan(request: request, existingAccountId: existingAccountId, now: now())
            let references: [SQLiteValue] = [
                .text(request.customerInternalReference), Self.optional(request.userReference), Self.optional(request.reportingCriteria),
                Self.optional(request.callbackUrl),
            ]
            if plan.isNewAccount {
                try db.query(
                    "INSERT INTO accounts (customer_ref, user_ref, reporting, callback_url, id, client_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    references + [.text(plan.accountId), .text(clientId), .real(plan.createdAt)]
                )
            } else {
                guard try ownsAccount(clientId: clientId, accountId: plan.accountId) else { return nil }
                try db.query(
                    "UPDATE accounts SET customer_ref = ?, user_ref = ?, reporting = ?, callback_url = ? WHERE id = ?",
                    references + [.text(plan.accountId)]
                )
            }
            try db.query(
                """
                INSERT INTO executions (id, account_id, definition_key, status, session_token_hash, token_expires_at, created_at, enrollment_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(plan.executionId), .text(plan.accountId), .integer(Int64(plan.definitionKey)), .text(WorkflowStatus.INITIATED.rawValue),
                 .blob(plan.sessionTokenHash), .real(plan.tokenExpiresAt), .real(plan.createdAt), Self.optional(plan.enrollmentId)]
            )
            for credential in plan.credentials {
                try db.query(
                    "INSERT INTO credentials (id, execution_id, category, filter) VALUES (?, ?, ?, ?)",
                    [.text(credential.id), .text(plan.executionId), .text(credential.filter.category.rawValue),
                     credential.filterJSON.map { .blob(Array($0)) } ?? .null]
                )
            }
            return plan.response(baseURL: baseURL, now: now())
        }
    }

    private func ownsAccount(clientId: String, accountId: String) throws(SQLiteError) -> Bool {
        try !db.query("SELECT 1 FROM accounts WHERE id = ? AND client_id = ?", [.text(accountId), .text(clientId)]).isEmpty
    }

    public func execution(clientId: String, accountId: String, executionId: String) throws(SQLiteError) -> ExecutionRow? {
        try executionRow(where: "e.id = ? AND e.account_id = ? AND a.client_id = ?", [.text(executionId), .text(accountId), .text(clientId)])
    }

    public func execution(clientId: String, executionId: String) throws(SQLiteError) -> ExecutionRow? {
        try executionRow(where: "e.id = ? AND a.client_id = ?", [.text(executionId), .text(clientId)])
    }

    private func executionRow(where condition: String, _ values: [SQLiteValue]) throws(SQLiteError) -> ExecutionRow? {
        guard let row = try db.query(
            """
            SELECT e.id, e.account_id, e.definition_key, e.status, e.session_token_hash, e.token_expires_at, e.created_at,
                   e.completed_at, e.result, a.customer_ref, a.user_ref, a.callback_url, e.enrollment_id
            FROM executions e JOIN accounts a ON a.id = e.account_id
            WHERE \(condition)
            """,
            values
        ).first else { return nil }
        return ExecutionRow(
            id: row[0].string ?? "", accountId: row[1].string ?? "", definitionKey: Int(row[2].int ?? 0),
            status: WorkflowStatus(rawValue: row[3].string ?? "") ?? .INITIATED, sessionTokenHash: row[4].bytes ?? [],
            tokenExpiresAt: row[5].double ?? 0, createdAt: row[6].double ?? 0, completedAt: row[7].double,
            result: row[8].bytes.map { Data($0) }, customerReference: row[9].string ?? "", userReference: row[10].string,
            callbackURL: row[11].string, enrollmentId: row[12].string
        )
    }

    public func takeAuthentication(clientId: String, executionId: String, lifetime: Int, baseURL: String) throws(SQLiteError) -> AccountResponse? {
        try db.transaction { () throws(SQLiteError) -> AccountResponse? in
            guard let row = try executionRow(where: "e.id = ? AND a.client_id = ?", [.text(executionId), .text(clientId)]),
                row.definitionKey == WorkflowDefinition.authenticationKey, row.status == .INITIATED
            else { return nil }
            let token = StoreSecrets.randomToken()
            try db.query(
                "UPDATE executions SET session_token_hash = ?, token_expires_at = ? WHERE id = ?",
                [.blob(StoreSecrets.hash(Array(token.utf8))), .real(timestamp + Double(lifetime)), .text(executionId)]
            )
            let credentials = try db.query("SELECT id, category, filter FROM credentials WHERE execution_id = ? ORDER BY rowid", [.text(executionId)])
                .compactMap { row -> InitiationPlan.Credential? in
                    guard let category = row[1].string.flatMap(CredentialCategory.init(rawValue:)) else { return nil }
                    let filter = row[2].bytes.flatMap { try? JSONDecoder().decode(CredentialFilter.self, from: Data($0)) }
                    return InitiationPlan.Credential(id: row[0].string ?? "", filter: filter ?? CredentialFilter(category: category))
                }
            return InitiationPlan.response(
                accountId: row.accountId, executionId: executionId, sessionToken: token, credentials: credentials, baseURL: baseURL, now: now())
        }
    }

    public func setStatus(executionId: String, _ status: WorkflowStatus) throws(SQLiteError) {
        try db.query("UPDATE executions SET status = ? WHERE id = ?", [.text(status.rawValue), .text(executionId)])
    }

    public func credentialCategory(executionId: String, credentialId: String) throws(SQLiteError) -> CredentialCategory? {
        try db.query("SELECT category FROM credentials WHERE id = ? AND execution_id = ?", [.text(credentialId), .text(executionId)])
            .first?.first?.string.flatMap(CredentialCategory.init(rawValue:))
    }

    public func idempotentAnswer(clientId: String, key: String) throws(SQLiteError) -> IdempotentAnswer? {
        guard let row = try db.query(
            "SELECT request_hash, status, response FROM idempotency WHERE client_id = ? AND key = ?", [.text(clientId), .text(key)]
        ).first else { return nil }
        return IdempotentAnswer(requestHash: row[0].bytes ?? [], status: Int(row[1].int ?? 0), body: Data(row[2].bytes ?? []))
    }

    public func storePart(
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

    public func parts(executionId: String) throws(SQLiteError) -> [StoredPart] {
        try db.query(
            "SELECT p.credential_id, c.category, p.classifier, p.body, c.filter FROM parts p JOIN credentials c ON c.id = p.credential_id WHERE p.execution_id = ? ORDER BY p.classifier",
            [.text(executionId)]
        ).compactMap { row in
            StoredPart(
                credentialId: row[0].string ?? "", category: row[1].string, classifier: row[2].string,
                body: Data(row[3].bytes ?? []), filterJSON: row[4].bytes.map { Data($0) }
            )
        }
    }

    public func complete(executionId: String, result: Data, callback: QueuedCallback?) throws(SQLiteError) {
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

    public func claimDueCallbacks(limit: Int, lease: Duration) throws(SQLiteError) -> [PendingCallback] {
        try db.query(
            """
            UPDATE callbacks SET next_attempt_at = ?
            WHERE id IN (SELECT id FROM callbacks WHERE next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?)
            RETURNING id, client_id, url, body, attempts
            """,
            [.real(timestamp + lease.inSeconds), .real(timestamp), .integer(Int64(limit))]
        ).sorted { ($0[0].int ?? 0) < ($1[0].int ?? 0) }.map { PendingCallback(id: $0[0].int ?? 0, clientId: $0[1].string ?? "", url: $0[2].string ?? "", body: Data($0[3].bytes ?? []), attempts: Int($0[4].int ?? 0)) }
    }

    public func pendingCallbackCount() throws(SQLiteError) -> Int {
        Int(try db.query("SELECT COUNT(*) FROM callbacks").first?.first?.int ?? 0)
    }

    public func callbackDelivered(id: Int64) throws(SQLiteError) {
        try db.query("DELETE FROM callbacks WHERE id = ?", [.integer(id)])
    }

    public func callbackFailed(id: Int64, retryIn: Duration) throws(SQLiteError) {
        try db.query("UPDATE callbacks SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?",
                     [.real(timestamp + retryIn.inSeconds), .integer(id)])
    }

    // MARK: Inspection

    public func deliveredKeys(clientId: String) throws(SQLiteError) -> [String] {
        try db.query("SELECT key FROM idempotency WHERE client_id = ? ORDER BY key", [.text(clientId)]).compactMap { $0.first?.string }
    }

    public func partCount(executionId: String) throws(SQLiteError) -> Int {
        Int(try db.query("SELECT COUNT(*) FROM parts WHERE execution_id = ?", [.text(executionId)]).first?.first?.int ?? 0)
    }

    static func optional(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
}
