/// A failed SQLite call: which call, SQLite's (extended) result code and its message.
///
/// SQLite's messages name tables and columns, never bound values, so they hold no
/// personal data.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `sqlite3_prepare_v2`.
    public let call: String
    /// The extended result code (`SQLITE_CORRUPT` = 11, `SQLITE_NOTADB` = 26, ...).
    public let code: Int32
    public let message: String

    public init(call: String, code: Int32, message: String) {
        self.call = call
        self.code = code
        self.message = message
    }

    /// The primary result code.
    public var primaryCode: Int32 { code & 0xff }

    /// Whether the file is damaged or not a database (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    public var isCorruption: Bool { primaryCode == 11 || primaryCode == 26 }

    /// A constraint was violated (`SQLITE_CONSTRAINT`).
    public var isConstraint: Bool { primaryCode == 19 }

    public var description: String { "\(call) failed: \(message) (SQLite code \(code))" }
}

/// A value bound to or read from a statement.
public enum SQLiteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var int: Int64? { if case .integer(let v) = self { v } else { nil } }
    public var string: String? { if case .text(let v) = self { v } else { nil } }
    public var bytes: [UInt8]? {
        switch self {
        case .blob(let v): v
        case .null: nil
        case .text(let v): Array(v.utf8)
        default: nil
        }
    }
    public var double: Double? {
        switch self {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }
}
