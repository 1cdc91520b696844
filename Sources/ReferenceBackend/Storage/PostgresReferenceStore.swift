public import Backend
public import Foundation
import KioskTime
public import Logging
import PostgresNIO

/// The reference backend's storage on a PostgreSQL server, for deployments that serve
/// many stations: several backend processes can share one database.
///
/// It holds a `PostgresClient` (a connection pool) that must run while the store is
/// used: ``run(url:logger:now:_:)`` runs it, migrates the schema and hands out the store.
public final class PostgresReferenceStore: ReferenceStore {
    let client: PostgresClient
    let logger: Logger
    public let now: @Sendable () -> Date

    private var timestamp: Double { now().timeIntervalSince1970 }

    init(client: PostgresClient, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.client = client
        self.logger = logger
        self.now = now
    }

    /// Connects to `url`, migrates the schema, runs `body` with the store and closes the
    /// connections afterwards.
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database` (``PostgresURL``).
    /// - Throws: ``PostgresURL/Invalid`` for a malformed URL, the server's errors
    ///   (connection, authentication, a failed migration), or what `body` throws.
    public static func run<T: Sendable>(
        url: String, logger: Logger, now: @escaping @Sendable () -> Date = { Date() },
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresReferenceStore) async throws -> T
    ) async throws -> T {
        let configuration = try PostgresURL(url).configuration
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let (started, starting) = AsyncStream.makeStream(of: Void.self)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                starting.finish()
                // run() marks the client running before its first suspension point.
                await client.run()
            }
            defer { tasks.cancelAll() }
            // Leasing a connection before run() began logs a warning: wait for the task to start.
            for await _ in started {}
            let store = PostgresReferenceStore(client: client, logger: logger, now: now)
            try await store.migrate()
            return try await body(store)
        }
    }

    // MARK: Clients and tokens

    public func addClient(name: String) async throws -> ProvisionedClient {
        let (client, salt, secretHash) = StoreSecrets.newClient()
        try await self.client.query(
            """
            INSERT INTO clients (id, name, salt, secret_hash, callback_secret, created_at)
            VALUES (\(client.id), \(name), \(Data(salt)), \(Data(secretHash)), \(Data(client.callbackSecret.utf8)), \(timestamp))
            """, logger: logger
        )
        return client
    }

    public func listClients() async throws -> [(id: String, name: String)] {
        try await rows("SELECT id, name FROM clients ORDER BY created_at, id", as: (String, String).self).map { (id: $0.0, name: $0.1) }
    }

    public func authenticate(clientId: String, secret: String) async throws -> Bool {
        guard let row = try await rows(
            "SELECT salt, secret_hash FROM clients WHERE id = \(clientId)", as: (Data, Data).self
        ).first else { return false }
        let (salt, stored) = row
        return StoreSecrets.constantTimeEqual(StoreSecrets.hash(Array(salt) + Array(secret.utf8)), Array(stored))
    }

    public func issueToken(clientId: String, lifetime: Int) async throws -> String {
        let token = StoreSecrets.randomToken()
        try await client.query("DELETE FROM access_tokens WHERE expires_at < \(timestamp)", logger: logger)
        try await client.query(
            """
            INSERT INTO access_tokens (token_hash, client_id, expires_at)
            VALUES (\(Data(StoreSecrets.hash(Array(token.utf8)))), \(clientId), \(timestamp + Double(lifetime)))
            """, logger: logger
        )
        return token
    }

    public func client(forToken token: String) async throws -> String? {
        try await rows(
            "SELECT client_id FROM access_tokens WHERE token_hash = \(Data(StoreSecrets.hash(Array(token.utf8)))) AND expires_at > \(timestamp)",
            as: String.self
        ).first
    }

    public func revokeTokens(clientId: String) async throws {
        try await client.query("DELETE FROM access_tokens WHERE client_id = \(clientId)", logger: logger)
    }

    public func callbackSecret(clientId: String) async throws -> [UInt8]? {
        try await rows("SELECT callback_secret FROM clients WHERE id = \(clientId)", as: Data.self).first.map { Array($0) }
    }

    // MARK: Accounts and executions

    public func initiate(clientId: String, request: AccountRequest, existingAccountId: String?, baseURL: String) async throws -> AccountResponse? {
        let plan = InitiationPlan(request: request, existingAccountId: existingAccountId, now: now())
        let logger = self.logger
        let created = try await client.withTransaction(logger: logger) { connection -> Bool in
            if plan.isNewAccount {
                try await connection.query(
                    """
                    INSERT INTO accounts (id, client_id, customer_ref, user_ref, reporting, callback_url, created_at)
                    VALUES (\(plan.accountId), \(clientId), \(request.customerInternalReference), \(request.userReference),
                            \(request.reportingCriteria), \(request.callbackUrl), \(plan.createdAt))
                    """, logger: logger
                )
            } else {
                // Only the client's own account is updated; another's matches no row.
                let updated = try await connection.query(
                    """
                    UPDATE accounts SET customer_ref = \(request.customerInternalReference), user_ref = \(request.userReference),
                        reporting = \(request.reportingCriteria), callback_url = \(request.callbackUrl)
                    WHERE id = \(plan.accountId) AND client_id = \(clientId) RETURNING id
                    """, logger: logger
                ).collect()
                guard !updated.isEmpty else { return false }
            }
            try await connection.query(
                """
                INSERT INTO executions (id, account_id, definition_key, status, session_token_hash, token_expires_at, created_at, enrollment_id)
                VALUES (\(plan.executionId), \(plan.accountId), \(plan.definitionKey), \(WorkflowStatus.INITIATED.rawValue),
                        \(Data(plan.sessionTokenHash)), \(plan.tokenExpiresAt), \(plan.createdAt), \(plan.enrollmentId))
                """, logger: logger
            )
            for credential in plan.credentials {
                try await connection.query(
                    """
                    INSERT INTO credentials (id, execution_id, category, filter)
                    VALUES (\(credential.id), \(plan.executionId), \(credential.filter.category.rawValue), \(credential.filterJSON))
                    """, logger: logger
                )
            }
            return true
        }
        return created ? plan.response(baseURL: baseURL, now: now()) : nil
    }

    public func execution(clientId: String, accountId: String, executionId: String) async throws -> ExecutionRow? {
        try await executionRow(client.query(
            """
            SELECT e.id, e.account_id, e.definition_key, e.status, e.session_token_hash, e.token_expires_at, e.created_at,
                   e.completed_at, e.result, a.customer_ref, a.user_ref, a.callback_url, e.enrollment_id
            FROM executions e JOIN accounts a ON a.id = e.account_id
            WHERE e.id = \(executionId) AND e.account_id = \(accountId) AND a.client_id = \(clientId)
            """, logger: logger
        ).collect().first)
    }

    public func execution(clientId: String, executionId: String) async throws -> ExecutionRow? {
        try await executionRow(client.query(
            """
            SELECT e.id, e.account_id, e.definition_key, e.status, e.session_token_hash, e.token_expires_at, e.created_at,
                   e.completed_at, e.result, a.customer_ref, a.user_ref, a.callback_url, e.enrollment_id
            FROM executions e JOIN accounts a ON a.id = e.account_id
            WHERE e.id = \(executionId) AND a.client_id = \(clientId)
            """, logger: logger
        ).collect().first)
    }

    private func executionRow(_ row: PostgresRow?) throws -> ExecutionRow? {
        guard let row else { return nil }
        let (id, account, key, status, tokenHash, expires, created, completed, result, customer, user, callback, enrollment) =
            try row.decode((String, String, Int, String, Data, Double, Double, Double?, Data?, String, String?, String?, String?).self)
        return ExecutionRow(
            id: id, accountId: account, definitionKey: key, status: WorkflowStatus(rawValue: status) ?? .INITIATED,
            sessionTokenHash: Array(tokenHash), tokenExpiresAt: expires, createdAt: created, completedAt: completed, result: result,
            customerReference: customer, userReference: user, callbackURL: callback, enrollmentId: enrollment
        )
    }

    public func takeAuthentication(clientId: String, executionId: String, lifetime: Int, baseURL: String) async throws -> AccountResponse? {
        let token = StoreSecrets.randomToken()
        let (logger, timestamp) = (self.logger, self.timestamp)
        let taken = try await client.withTransaction(logger: logger) { connection -> (accountId: String, credentials: [InitiationPlan.Credential])? in
            // Only an INITIATED Authentication of this client's accounts matches; the row stays locked until the commit.
            guard let account = try await connection.query(
                """
                UPDATE executions e SET session_token_hash = \(Data(StoreSecrets.hash(Array(token.utf8)))), token_expires_at = \(timestamp + Double(lifetime))
                FROM accounts a
                WHERE e.id = \(executionId) AND a.id = e.account_id AND a.client_id = \(clientId)
                  AND e.definition_key = \(WorkflowDefinition.authenticationKey) AND e.status = \(WorkflowStatus.INITIATED.rawValue)
                RETURNING e.account_id
                """, logger: logger
            ).collect().first?.decode(String.self) else { return nil }
            var credentials: [InitiationPlan.Credential] = []
            for try await (id, category, filter) in try await connection.query(
                "SELECT id, category, filter FROM credentials WHERE execution_id = \(executionId) ORDER BY id", logger: logger
            ).decode((String, String, Data?).self) {
                guard let category = CredentialCategory(rawValue: category) else { continue }
                let decoded = filter.flatMap { try? JSONDecoder().decode(CredentialFilter.self, from: $0) }
                credentials.append(InitiationPlan.Credential(id: id, filter: decoded ?? CredentialFilter(category: category)))
            }
            return (account, credentials)
        }
        guard let taken else { return nil }
        return InitiationPlan.response(
            accountId: taken.accountId, executionId: executionId, sessionToken: token, credentials: taken.credentials, baseURL: baseURL, now: now())
    }

    public func setStatus(executionId: String, _ status: WorkflowStatus) async throws {
        try await client.query("UPDATE executions SET status = \(status.rawValue) WHERE id = \(executionId)", logger: logger)
    }

    public func credentialCategory(executionId: String, credentialId: String) async throws -> CredentialCategory? {
        try await rows(
            "SELECT category FROM credentials WHERE id = \(credentialId) AND execution_id = \(executionId)", as: String.self
        ).first.flatMap(CredentialCategory.init(rawValue:))
    }

    public func idempotentAnswer(clientId: String, key: String) async throws -> IdempotentAnswer? {
        try await rows(
            "SELECT request_hash, status, response FROM idempotency WHERE client_id = \(clientId) AND key = \(key)",
            as: (Data, Int, Data).self
        ).first.map { IdempotentAnswer(requestHash: Array($0.0), status: $0.1, body: $0.2) }
    }

    public func storePart(
        clientId: String, key: String, requestHash: [UInt8], executionId: String, credentialId: String,
        classifier: PartClassifier, body: Data, answer: Data
    ) async throws {
        let logger = self.logger
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO parts (credential_id, classifier, execution_id, body)
                VALUES (\(credentialId), \(classifier.rawValue), \(executionId), \(body))
                ON CONFLICT (credential_id, classifier) DO UPDATE SET execution_id = EXCLUDED.execution_id, body = EXCLUDED.body
                """, logger: logger
            )
            try await connection.query(
                """
                INSERT INTO idempotency (client_id, key, request_hash, status, response)
                VALUES (\(clientId), \(key), \(Data(requestHash)), 200, \(answer))
                """, logger: logger
            )
            try await connection.query(
                """
                UPDATE executions SET status = \(WorkflowStatus.ACQUIRED.rawValue)
                WHERE id = \(executionId) AND status = \(WorkflowStatus.INITIATED.rawValue)
                """, logger: logger
            )
        }
    }

    public func parts(executionId: String) async throws -> [StoredPart] {
        try await rows(
            """
            SELECT p.credential_id, c.category, p.classifier, p.body, c.filter
            FROM parts p JOIN credentials c ON c.id = p.credential_id
            WHERE p.execution_id = \(executionId) ORDER BY p.classifier COLLATE "C"
            """,
            as: (String, String, String, Data, Data?).self
        ).compactMap { StoredPart(credentialId: $0.0, category: $0.1, classifier: $0.2, body: $0.3, filterJSON: $0.4) }
    }

    public func complete(executionId: String, result: Data, callback: QueuedCallback?) async throws {
        let (logger, timestamp) = (self.logger, self.timestamp)
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                UPDATE executions SET status = \(WorkflowStatus.PROCESSED.rawValue), completed_at = \(timestamp), result = \(result)
                WHERE id = \(executionId)
                """, logger: logger
            )
            if let callback {
                try await connection.query(
                    """
                    INSERT INTO callbacks (client_id, url, body, next_attempt_at)
                    VALUES (\(callback.clientId), \(callback.url), \(callback.body), \(timestamp))
                    """, logger: logger
                )
            }
        }
    }

    // MARK: Callbacks

    public func claimDueCallbacks(limit: Int, lease: Duration) async throws -> [PendingCallback] {
        // SKIP LOCKED: a row another backend is claiming right now is left to it.
        try await rows(
            """
            UPDATE callbacks SET next_attempt_at = \(timestamp + lease.inSeconds)
            WHERE id IN (
                SELECT id FROM callbacks WHERE next_attempt_at <= \(timestamp)
                ORDER BY next_attempt_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED
            )
            RETURNING id, client_id, url, body, attempts
            """,
            as: (Int64, String, String, Data, Int).self
        ).map { PendingCallback(id: $0.0, clientId: $0.1, url: $0.2, body: $0.3, attempts: $0.4) }.sorted { $0.id < $1.id }
    }

    public func pendingCallbackCount() async throws -> Int {
        try await rows("SELECT COUNT(*) FROM callbacks", as: Int.self).first ?? 0
    }

    public func callbackDelivered(id: Int64) async throws {
        try await client.query("DELETE FROM callbacks WHERE id = \(id)", logger: logger)
    }

    public func callbackFailed(id: Int64, retryIn: Duration) async throws {
        try await client.query(
            "UPDATE callbacks SET attempts = attempts + 1, next_attempt_at = \(timestamp + retryIn.inSeconds) WHERE id = \(id)",
            logger: logger
        )
    }

    // MARK: Inspection

    public func deliveredKeys(clientId: String) async throws -> [String] {
        try await rows("SELECT key FROM idempotency WHERE client_id = \(clientId) ORDER BY key COLLATE \"C\"", as: String.self)
    }

    public func partCount(executionId: String) async throws -> Int {
        try await rows("SELECT COUNT(*) FROM parts WHERE execution_id = \(executionId)", as: Int.self).first ?? 0
    }

    /// The schema version (the highest migration applied).
    public func schemaVersion() async throws -> Int {
        try await rows("SELECT COALESCE(MAX(version), 0) FROM idkiosk_schema", as: Int.self).first ?? 0
    }

    // MARK: Helpers

    private func rows<each Column: PostgresDecodable>(_ query: PostgresQuery, as type: (repeat each Column).Type) async throws -> [(repeat each Column)] {
        var decoded: [(repeat each Column)] = []
        for try await row in try await client.query(query, logger: logger) {
            decoded.append(try row.decode(type))
        }
        return decoded
    }
}
