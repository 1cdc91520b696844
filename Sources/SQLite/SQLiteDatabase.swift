import CSQLite

/// One SQLite connection to one file. Not Sendable: its owner (an actor) serialises
/// every use.
public final class SQLiteDatabase {
    private let handle: OpaquePointer
    public let path: String

    /// Opens or creates the database file.
    /// - Throws: ``SQLiteError`` when the file cannot be opened.
    public init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(call: "sqlite3_open_v2", code: rc, message: message)
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
        self.handle = db
        self.path = path
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without bindings (schema, pragmas).
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(call: "sqlite3_exec", code: sqlite3_extended_errcode(handle), message: message)
        }
    }

    /// Runs a statement and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            throw SQLiteError(call: "sqlite3_prepare_v2", code: sqlite3_extended_errcode(handle), message: lastMessage)
        }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .real(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v): rc = sqlite3_bind_text(statement, index, v, -1, csqlite_transient())
            case .blob(let v):
                rc = v.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient()) }
            }
            guard rc == SQLITE_OK else {
                throw SQLiteError(call: "sqlite3_bind", code: rc, message: lastMessage)
            }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw SQLiteError(call: "sqlite3_step", code: sqlite3_extended_errcode(handle), message: lastMessage)
            }
            let count = sqlite3_column_count(statement)
            var row: [SQLiteValue] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_TEXT: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
                case SQLITE_BLOB:
                    let length = Int(sqlite3_column_bytes(statement, column))
                    if length == 0 {
                        row.append(.blob([]))
                    } else {
                        let pointer = sqlite3_column_blob(statement, column)!
                        row.append(.blob(Array(UnsafeRawBufferPointer(start: pointer, count: length))))
                    }
                default: row.append(.null)
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction; rolls back when it throws.
    public func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Applies the migrations not yet applied, tracked in `PRAGMA user_version`; each in its own transaction.
    ///
    /// - Parameter migrations: SQL scripts in order; their index + 1 is their version.
    public func migrate(_ migrations: [String]) throws(SQLiteError) {
        let current = try query("PRAGMA user_version").first?.first?.int ?? 0
        for (index, script) in migrations.enumerated() where Int64(index + 1) > current {
            try transaction { () throws(SQLiteError) in
                try execute(script)
                try execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    /// `PRAGMA quick_check`; throws a corruption error when it finds damage.
    public func checkIntegrity() throws(SQLiteError) {
        let rows = try query("PRAGMA quick_check")
        let verdict = rows.first?.first?.string ?? ""
        if verdict != "ok" {
            throw SQLiteError(call: "PRAGMA quick_check", code: 11, message: "database damaged")
        }
    }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}
