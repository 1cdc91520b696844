/// Why the outbox could not do what was asked. Messages hold no personal data.
public enum OutboxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The database file is damaged; it was moved aside to `keptAt` (with its -wal and
    /// -shm files) for inspection, and nothing in it was deleted.
    case corrupted(path: String, keptAt: String, cause: String)
    /// The key file is missing, unreadable, of the wrong size or readable by others.
    case key(path: String, reason: String)
    /// The queue is at its record or byte limit; the journey must be refused or wait.
    case full(records: Int, bytes: Int)
    /// SQLite failed.
    case storage(String)

    public var description: String {
        switch self {
        case .corrupted(let path, let keptAt, let cause):
            "outbox database \(path) is damaged (\(cause)); it was kept aside as \(keptAt) and a new, empty outbox can be opened"
        case .key(let path, let reason): "outbox key \(path): \(reason)"
        case .full(let records, let bytes): "outbox full: \(records) records, \(bytes) bytes"
        case .storage(let message): "outbox storage failed: \(message)"
        }
    }
}
