extension SQLiteReferenceStore {
    /// The schema, one script per version (`PRAGMA user_version`). Never edit a shipped
    /// script: add the next one.
    public static let migrations: [String] = [
        """
        CREATE TABLE clients (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            salt BLOB NOT NULL,
            secret_hash BLOB NOT NULL,
            callback_secret BLOB NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE access_tokens (
            token_hash BLOB PRIMARY KEY,
            client_id TEXT NOT NULL REFERENCES clients(id),
            expires_at REAL NOT NULL
        );
        CREATE TABLE accounts (
            id TEXT PRIMARY KEY,
            client_id TEXT NOT NULL REFERENCES clients(id),
            customer_ref TEXT NOT NULL,
            user_ref TEXT,
            reporting TEXT,
            callback_url TEXT,
            created_at REAL NOT NULL
        );
        CREATE TABLE executions (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts(id),
            definition_key INTEGER NOT NULL,
            status TEXT NOT NULL,
            session_token_hash BLOB NOT NULL,
            token_expires_at REAL NOT NULL,
            created_at REAL NOT NULL,
            completed_at REAL,
            result BLOB
        );
        CREATE TABLE credentials (
            id TEXT PRIMARY KEY,
            execution_id TEXT NOT NULL REFERENCES executions(id),
            category TEXT NOT NULL
        );
        CREATE TABLE parts (
            credential_id TEXT NOT NULL REFERENCES credentials(id),
            classifier TEXT NOT NULL,
            execution_id TEXT NOT NULL REFERENCES executions(id),
            body BLOB NOT NULL,
            PRIMARY KEY (credential_id, classifier)
        );
        CREATE TABLE idempotency (
            client_id TEXT NOT NULL,
            key TEXT NOT NULL,
            request_hash BLOB NOT NULL,
            status INTEGER NOT NULL,
            response BLOB NOT NULL,
            PRIMARY KEY (client_id, key)
        );
        CREATE TABLE callbacks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            client_id TEXT NOT NULL REFERENCES clients(id),
            url TEXT NOT NULL,
            body BLOB NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL NOT NULL
        );
        CREATE INDEX executions_account ON executions(account_id);
        CREATE INDEX callbacks_due ON callbacks(next_attempt_at);
        """,
        // The credential's filter (countries, document types) as JSON, for the consistency check.
        """
        ALTER TABLE credentials ADD COLUMN filter BLOB;
        """,
        // An Authentication's enrollment: the execution whose face it is compared with.
        """
        ALTER TABLE executions ADD COLUMN enrollment_id TEXT;
        """,
    ]
}
