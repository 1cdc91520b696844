public import Backend
import Foundation
public import Logging

/// The outbox as `diag backend` reports it: how many records wait and for how long. Opening
/// it needs its key (root-only); the records' contents are never read.
public enum OutboxDiagnostics {
    /// Waiting longer than this is a warning: the backend has not taken the station's journeys.
    public static let warnAge = Duration.seconds(3600)

    public static func check(_ configuration: Configuration, logger: Logger) async -> DiagnosticCheck {
        let path = configuration.backend.outbox
        guard FileManager.default.fileExists(atPath: path) else {
            return DiagnosticCheck("outbox", .pass, "no outbox yet at \(path) (the station makes it at its first start)")
        }
        let key: OutboxKey
        do {
            key = try Self.key(configuration)
        } catch {
            return DiagnosticCheck(
                "outbox", .warn, "cannot read the outbox key \(configuration.backend.outboxKeyFile): \(error)",
                hint: "run as root (the key is readable by root only)")
        }
        do {
            let outbox = try Outbox(path: path, key: key, logger: logger)
            let (records, bytes) = try await outbox.stats()
            guard records > 0, let age = try await outbox.oldestAge() else {
                return DiagnosticCheck("outbox", .pass, "empty: every journey was delivered")
            }
            let detail = "\(records) records (\(bytes / 1024) KiB) waiting, the oldest for \(Self.describe(age))"
            if age > warnAge {
                return DiagnosticCheck(
                    "outbox", .warn, detail,
                    hint: "the backend has not taken the station's journeys for a while: see the checks above and `journalctl -u idkiosk`")
            }
            return DiagnosticCheck("outbox", .pass, detail)
        } catch {
            return DiagnosticCheck(
                "outbox", .fail, "cannot open the outbox \(path): \(error)",
                hint: "a damaged outbox is set aside by the station at its next start, never deleted; keep the file for support")
        }
    }

    /// The outbox key as the station reads it: its systemd credential, else `backend.outbox-key-file`.
    static func key(_ configuration: Configuration) throws(OutboxError) -> OutboxKey {
        let credentials = ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"].map { $0 + "/outbox.key" }
        if let credentials, FileManager.default.fileExists(atPath: credentials) {
            return try OutboxKey.loadCredential(name: "outbox.key")
        }
        return try OutboxKey.load(path: configuration.backend.outboxKeyFile)
    }

    /// The outbox's counts for a support bundle; never a record's contents, and never
    /// makes an outbox where there is none.
    /// - Throws: ``OutboxDiagnostics/Unavailable`` saying why there are no counts.
    public static func counts(_ configuration: Configuration, logger: Logger) async throws(Unavailable) -> OutboxCounts {
        let path = configuration.backend.outbox
        guard FileManager.default.fileExists(atPath: path) else {
            throw Unavailable(message: "no outbox at \(path) (the station makes it at its first start)", hint: "check backend.outbox")
        }
        let key: OutboxKey
        do { key = try Self.key(configuration) } catch {
            throw Unavailable(message: "cannot read the outbox key: \(error)", hint: "run as root (the key is readable by root only)")
        }
        do {
            return try await Outbox(path: path, key: key, logger: logger).counts()
        } catch {
            throw Unavailable(
                message: "cannot open the outbox \(path): \(error)",
                hint: "a damaged outbox is set aside by the station at its next start, never deleted; keep the file for support")
        }
    }

    /// Why the outbox's counts could not be had, and what to do.
    public struct Unavailable: Error, CustomStringConvertible {
        public var message: String
        public var hint: String
        public var description: String { message }
    }

    static func describe(_ age: Duration) -> String {
        let seconds = age.components.seconds
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h"
    }
}
