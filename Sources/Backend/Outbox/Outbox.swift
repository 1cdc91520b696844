import Crypto
public import Foundation
import KioskTime
public import Logging
import Metrics
import SQLite

/// The durable queue of part uploads not yet acknowledged by the backend.
///
/// One SQLite file in WAL mode with `synchronous = FULL`, so a committed record
/// survives kill -9 and power loss. Each record is the upload encrypted with AES-GCM
/// under the station's key, its idempotency key bound as associated data. A record is
/// overwritten with zeros and deleted (`secure_delete`) only after the backend
/// acknowledged it; the backend's idempotency makes a repeat after a crash harmless,
/// so a delivery is neither lost nor duplicated.
public actor Outbox {
    public struct Limits: Sendable, Hashable {
        public var maxRecords: Int
        public var maxBytes: Int
        /// Records older than this are purged: personal data is not kept forever.
        public var maxAge: Duration

        public init(maxRecords: Int = 10_000, maxBytes: Int = 2 << 30, maxAge: Duration = .seconds(72 * 3600)) {
            self.maxRecords = maxRecords
            self.maxBytes = maxBytes
            self.maxAge = maxAge
        }
    }

    /// A record due for sending.
    public struct Record: Sendable, CustomStringConvertible {
        public let id: Int64
        public let item: OutboxItem
        public let attempts: Int
        public var description: String { "Outbox.Record(\(id), \(item.kind), attempt \(attempts + 1))" }
    }

    private let db: SQLiteDatabase
    private let key: SymmetricKey
    private let limits: Limits
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let recordsGauge = Gauge(label: "idkiosk_outbox_records")
    private let bytesGauge = Gauge(label: "idkiosk_outbox_bytes")
    private let refusedCounter = Counter(label: "idkiosk_outbox_refused_total")
    private let expiredCounter = Counter(label: "idkiosk_outbox_expired_total")
    private let rejectedCounter = Counter(label: "idkiosk_outbox_rejected_total")
    private let quarantinedCounter = Counter(label: "idkiosk_outbox_quarantined_total")

    /// Opens (or creates) the outbox.
    ///
    /// - Throws: ``OutboxError/corrupted(path:keptAt:cause:)`` when the file is damaged:
    ///   it is renamed aside, never deleted, and the next open starts an empty outbox.
    public init(path: String, key: OutboxKey, limits: Limits = .init(), logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) throws(OutboxError) {
        self.key = key.key
        self.limits = limits
        self.logger = logger
        self.now = now
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA secure_delete = ON;")
            try db.checkIntegrity()
            try db.migrate(Self.migrations)
            self.db = db
        } catch where error.isCorruption {
            let keptAt = "\(path).corrupt-\(Int(now().timeIntervalSince1970))"
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try? FileManager.default.moveItem(atPath: path + suffix, toPath: keptAt + suffix)
            }
            logger.critical("outbox database damaged, kept aside", metadata: ["path": "\(path)", "keptAt": "\(keptAt)", "sqlite": "\(error.code)"])
            throw .corrupted(path: path, keptAt: keptAt, cause: error.description)
        } catch {
            throw .storage(error.description)
        }
    }

    static let migrations = [
        """
        CREATE TABLE records (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            idempotency_key TEXT NOT NULL UNIQUE,
            created_at REAL NOT NULL,
            size INTEGER NOT NULL,
            sealed BLOB NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL NOT NULL
        );
        CREATE INDEX records_due ON records(next_attempt_at);
        """,
        // Finalize records, and the execution id (not personal data) to order and wipe by.
        """
        ALTER TABLE records ADD COLUMN kind TEXT NOT NULL DEFAULT 'part';
        ALTER TABLE records ADD COLUMN workflow_execution_id TEXT NOT NULL DEFAULT '';
        CREATE INDEX records_execution ON records(workflow_execution_id, id);
        """,
    ]

    // MARK: Queue

    /// Stores an upload durably; it is on disk when this returns.
    ///
    /// - Throws: ``OutboxError/full(records:bytes:)`` at the limits (logged, counted).
    public func enqueue(_ upload: PartUpload) throws(OutboxError) {
        try enqueue(.part(upload))
    }

    /// Stores a delivery durably; a finalize is sent only after the earlier records of
    /// its workflow execution were acknowledged.
    ///
    /// - Throws: ``OutboxError/full(records:bytes:)`` at the limits (logged, counted).
    public func enqueue(_ item: OutboxItem) throws(OutboxError) {
        let plaintext: Data
        do { plaintext = try JSONEncoder().encode(item) } catch { throw .storage("cannot encode the record") }
        let (records, bytes) = try stats()
        if records + 1 > limits.maxRecords || bytes + plaintext.count > limits.maxBytes {
            refusedCounter.increment()
            logger.warning("outbox full, upload refused", metadata: ["records": "\(records)", "bytes": "\(bytes)"])
            throw .full(records: records, bytes: bytes)
        }
        let sealed: Data
        do {
            sealed = try AES.GCM.seal(plaintext, using: key, authenticating: Data(item.idempotencyKey.utf8)).combined ?? Data()
        } catch { throw .storage("cannot encrypt the record") }
        let time = now().timeIntervalSince1970
        try storage { () throws(SQLiteError) in
            // The same idempotency key twice is the same delivery: keep the first.
            try db.query(
                """
                INSERT OR IGNORE INTO records (idempotency_key, created_at, size, sealed, next_attempt_at, kind, workflow_execution_id)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(item.idempotencyKey), .real(time), .integer(Int64(plaintext.count)), .blob(Array(sealed)), .real(time),
                 .text(item.kind), .text(item.workflowExecutionId)]
            )
        }
        try publishStats()
    }

    /// The records due now, oldest first; a finalize waits for the earlier records of its execution.
    public func due(limit: Int = 8) throws(OutboxError) -> [Record] {
        let rows = try storage { () throws(SQLiteError) in
            try db.query(
                """
                SELECT id, idempotency_key, sealed, attempts FROM records AS r
                WHERE next_attempt_at <= ? AND kind != 'quarantined'
                  AND NOT (kind = 'finalize' AND EXISTS (
                      SELECT 1 FROM records AS e WHERE e.workflow_execution_id = r.workflow_execution_id AND e.id < r.id))
                ORDER BY id LIMIT ?
                """,
                [.real(now().timeIntervalSince1970), .integer(Int64(limit))]
            )
        }
        var records: [Record] = []
        for row in rows {
            let id = row[0].int ?? 0
            guard let box = try? AES.GCM.SealedBox(combined: row[2].bytes ?? []),
                  let plaintext = try? AES.GCM.open(box, using: key, authenticating: Data((row[1].string ?? "").utf8)),
                  let item = Self.decode(plaintext)
            else {
                // One unreadable record must not stall the queue, nor vanish: it stays,
                // set apart, until the age limit wipes it.
                try storage { () throws(SQLiteError) in
                    try db.query("UPDATE records SET kind = 'quarantined' WHERE id = ?", [.integer(id)])
                }
                quarantinedCounter.increment()
                logger.critical("outbox record cannot be decrypted, set apart", metadata: ["record": "\(id)"])
                continue
            }
            records.append(Record(id: id, item: item, attempts: Int(row[3].int ?? 0)))
        }
        return records
    }

    /// Records of the first version held a bare `PartUpload`.
    private static func decode(_ plaintext: Data) -> OutboxItem? {
        if let item = try? JSONDecoder().decode(OutboxItem.self, from: plaintext) { return item }
        return (try? JSONDecoder().decode(PartUpload.self, from: plaintext)).map(OutboxItem.part)
    }

    /// Wipes what is queued for a workflow execution (a cancelled journey: ScanFlow's
    /// `wipeSession`); returns how many records.
    @discardableResult
    public func wipe(workflowExecutionId: String) throws(OutboxError) -> Int {
        let count = try storage { () throws(SQLiteError) -> Int in
            try db.transaction { () throws(SQLiteError) -> Int in
                try db.query("UPDATE records SET sealed = zeroblob(length(sealed)) WHERE workflow_execution_id = ?", [.text(workflowExecutionId)])
                try db.query("DELETE FROM records WHERE workflow_execution_id = ?", [.text(workflowExecutionId)])
                return db.changes
            }
        }
        if count > 0 { logger.info("outbox records of a cancelled session wiped", metadata: ["records": "\(count)"]) }
        try publishStats()
        return count
    }

    /// The backend acknowledged the record: overwrite its bytes, then delete it.
    public func acknowledge(_ id: Int64) throws(OutboxError) {
        try storage { () throws(SQLiteError) in
            try db.transaction { () throws(SQLiteError) in
                try db.query("UPDATE records SET sealed = zeroblob(length(sealed)) WHERE id = ?", [.integer(id)])
                try db.query("DELETE FROM records WHERE id = ?", [.integer(id)])
            }
        }
        try publishStats()
    }

    /// The backend refused the record for good (J: transaction finished, ...): it can
    /// never be delivered, so it is wiped like an acknowledged one, with a log line.
    public func discard(_ id: Int64, code: String) throws(OutboxError) {
        rejectedCounter.increment()
        logger.warning("outbox record refused by the backend, wiped", metadata: ["record": "\(id)", "code": "\(code)"])
        try acknowledge(id)
    }

    /// The delivery failed and will be tried again after `delay`.
    public func retryLater(_ id: Int64, after delay: Duration) throws(OutboxError) {
        let seconds = delay.inSeconds
        try storage { () throws(SQLiteError) in
            try db.query("UPDATE records SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?",
                         [.real(now().timeIntervalSince1970 + seconds), .integer(id)])
        }
    }

    /// Wipes records older than the age limit; logs and counts them.
    @discardableResult
    public func purgeExpired() throws(OutboxError) -> Int {
        let seconds = limits.maxAge.inSeconds
        let cutoff = now().timeIntervalSince1970 - seconds
        let count = try storage { () throws(SQLiteError) -> Int in
            try db.transaction { () throws(SQLiteError) -> Int in
                try db.query("UPDATE records SET sealed = zeroblob(length(sealed)) WHERE created_at < ?", [.real(cutoff)])
                try db.query("DELETE FROM records WHERE created_at < ?", [.real(cutoff)])
                return db.changes
            }
        }
        if count > 0 {
            expiredCounter.increment(by: count)
            logger.warning("outbox records older than the age limit wiped", metadata: ["records": "\(count)"])
        }
        try publishStats()
        return count
    }

    /// Records set apart because they could not be decrypted (wrong key, damaged record).
    public func quarantinedCount() throws(OutboxError) -> Int {
        Int(try storage { () throws(SQLiteError) in try db.query("SELECT COUNT(*) FROM records WHERE kind = 'quarantined'").first?.first?.int } ?? 0)
    }

    /// Records and bytes (plaintext sizes) in the queue.
    public func stats() throws(OutboxError) -> (records: Int, bytes: Int) {
        let row = try storage { () throws(SQLiteError) in try db.query("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM records").first }
        return (Int(row?[0].int ?? 0), Int(row?[1].int ?? 0))
    }

    /// How long the oldest record has waited; `nil` when the queue is empty.
    public func oldestAge() throws(OutboxError) -> Duration? {
        let row = try storage { () throws(SQLiteError) in try db.query("SELECT MIN(created_at) FROM records").first }
        guard let oldest = row?[0].double else { return nil }
        return .milliseconds(Int64(max(0, now().timeIntervalSince1970 - oldest) * 1000))
    }

    /// The records' counts by kind and delivery state, and the oldest's age; never a
    /// record's contents (nothing is decrypted).
    public func counts() throws(OutboxError) -> OutboxCounts {
        let (records, bytes) = try stats()
        let time = now().timeIntervalSince1970
        let kinds = try storage { () throws(SQLiteError) in try db.query("SELECT kind, COUNT(*) FROM records GROUP BY kind") }
        let state = try storage { () throws(SQLiteError) in
            try db.query(
                """
                SELECT COALESCE(SUM(attempts = 0), 0), COALESCE(SUM(attempts > 0 AND next_attempt_at > ?), 0),
                       COALESCE(SUM(next_attempt_at <= ? AND kind != 'quarantined'), 0), COUNT(DISTINCT workflow_execution_id)
                FROM records
                """, [.real(time), .real(time)]
            ).first
        }
        var byKind: [String: Int] = [:]
        for row in kinds { byKind[row[0].string ?? "?", default: 0] += Int(row[1].int ?? 0) }
        let column = { (index: Int) -> Int in Int(state?[index].int ?? 0) }
        let age: Duration? = try oldestAge()
        return OutboxCounts(
            records: records, bytes: bytes, oldestAgeSeconds: age.map { Int($0.components.seconds) }, byKind: byKind,
            byState: ["new": column(0), "retrying": column(1), "due": column(2)], journeys: column(3))
    }

    /// Moves the WAL's pages into the database and truncates it, so wiped bytes leave the WAL too.
    public func checkpoint() throws(OutboxError) {
        try storage { () throws(SQLiteError) in try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    private func publishStats() throws(OutboxError) {
        let (records, bytes) = try stats()
        recordsGauge.record(records)
        bytesGauge.record(bytes)
    }

    @discardableResult
    private func storage<T>(_ body: () throws(SQLiteError) -> T) throws(OutboxError) -> T {
        do { return try body() } catch { throw .storage(error.description) }
    }
}
