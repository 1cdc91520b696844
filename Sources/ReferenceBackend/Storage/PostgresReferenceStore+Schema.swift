import Logging
import PostgresNIO

extension PostgresReferenceStore {
    /// The schema, one list of statements per version (recorded in `idkiosk_schema`).
    /// Never edit a shipped version: add the next one. It holds what the SQLite
    /// schema's versions 1 and 2 hold, with PostgreSQL's types.
    public static let migrations: [[String]] = [
        [
            """
            CREATE TABLE clients (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                salt BYTEA NOT NULL,
                secret_hash BYTEA NOT NULL,
                callback_secret BYTEA NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE access_tokens (
                token_hash BYTEA PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES clients(id),
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE accounts (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES clients(id),
                customer_ref TEXT NOT NULL,
                user_ref TEXT,
                reporting TEXT,
                callback_url TEXT,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE executions (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts(id),
                definition_key BIGINT NOT NULL,
                status TEXT NOT NULL,
                session_token_hash BYTEA NOT NULL,
                token_expires_at DOUBLE PRECISION NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                completed_at DOUBLE PRECISION,
                result BYTEA
            )
            """,
            """
            CREATE TABLE credentials (
                id TEXT PRIMARY KEY,
                execution_id TEXT NOT NULL REFERENCES executions(id),
                category TEXT NOT NULL,
                filter BYTEA
            )
            """,
            """
            CREATE TABLE parts (
                credential_id TEXT NOT NULL REFERENCES credentials(id),
                classifier TEXT NOT NULL,
                execution_id TEXT NOT NULL REFERENCES executions(id),
                body BYTEA NOT NULL,
                PRIMARY KEY (credential_id, classifier)
            )
            """,
            """
            CREATE TABLE idempotency (
                client_id TEXT NOT NULL,
                key TEXT NOT NULL,
                request_hash BYTEA NOT NULL,
                status BIGINT NOT NULL,
                response BYTEA NOT NULL,
                PRIMARY KEY (client_id, key)
            )
            """,
            """
            CREATE TABLE callbacks (
                id BIGSERIAL PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES clients(id),
                url TEXT NOT NULL,
                body BYTEA NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                next_attempt_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX executions_account ON executions(account_id)",
            "CREATE INDEX parts_execution ON parts(execution_id)",
            "CREATE INDEX callbacks_due ON callbacks(next_attempt_at)",
        ],
        // An Authentication's enrollment: the execution whose face it is compared with.
        ["ALTER TABLE executions ADD COLUMN enrollment_id TEXT"],
    ]

    /// Applies the migrations not yet applied, each in its own transaction, under an
    /// advisory lock so that backends starting together do not race.
    func migrate() async throws {
        let logger = self.logger
        for (index, statements) in Self.migrations.enumerated() {
            let version = index + 1
            try await client.withTransaction(logger: logger) { connection in
                // The key is arbitrary: "idkiosk" in ASCII.
                try await connection.query("SELECT pg_advisory_xact_lock(\(Int64(0x69_64_6B_69_6F_73_6B)))", logger: logger)
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS idkiosk_schema (version BIGINT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)",
                    logger: logger
                )
                let applied = try await connection.query("SELECT 1 FROM idkiosk_schema WHERE version = \(version)", logger: logger).collect()
                guard applied.isEmpty else { return }
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO idkiosk_schema (version, applied_at) VALUES (\(version), \(now().timeIntervalSince1970))", logger: logger
                )
                logger.info("PostgreSQL schema migrated", metadata: ["version": "\(version)"])
            }
        }
    }
}
