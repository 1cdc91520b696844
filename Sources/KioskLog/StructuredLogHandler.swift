import Foundation
public import Logging
import Synchronization

/// A swift-log handler that writes one structured line per record, with personal
/// data removed, to standard error (which journald captures under systemd).
///
/// `.journal` lines start with the syslog priority in angle brackets (`<6>`), which
/// journald turns into the entry's priority, followed by `label: message key=value`;
/// `.json` lines are one JSON object each, for log shippers.
public struct StructuredLogHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable, Codable {
        case journal
        case json
    }

    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public let label: String
    private let format: Format
    private let sink: LogSink
    private let redactor = Redactor()

    public init(label: String, level: Logger.Level = .info, format: Format = .journal, sink: LogSink = .standardError) {
        self.label = label
        self.logLevel = level
        self.format = format
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let fields = merged.sorted { $0.key < $1.key }.map { key, value in
            (key, redactor.isPersonal(key: key) ? Redactor.replacement : redactor.redact(Self.flatten(value)))
        }
        let message = redactor.redact(event.message.description)
        switch format {
        case .journal:
            var line = "<\(Self.priority(event.level))>\(label): \(message)"
            for (key, value) in fields { line += " \(key)=\(Self.quotedIfNeeded(value))" }
            sink.write(line)
        case .json:
            var object: [String: String] = [
                "level": event.level.rawValue, "label": label, "message": message, "source": event.source,
                "time": Self.timestamp(),
            ]
            for (key, value) in fields where object[key] == nil { object[key] = value }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            sink.write(String(decoding: data, as: UTF8.self))
        }
    }

    /// The syslog priority journald reads from the `<N>` prefix (sd-daemon(3)).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    static func flatten(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let s): return s
        case .stringConvertible(let c): return c.description
        case .array(let a): return "[" + a.map(flatten).joined(separator: ",") + "]"
        case .dictionary(let d): return "{" + d.sorted { $0.key < $1.key }.map { "\($0.key):\(flatten($0.value))" }.joined(separator: ",") + "}"
        }
    }

    static func quotedIfNeeded(_ value: String) -> String {
        value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) || value.isEmpty
            ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value
    }

    static func timestamp() -> String {
        Date().formatted(.iso8601)
    }
}

/// Where log lines go: standard error by default, anything in tests.
public struct LogSink: Sendable {
    private let writeLine: @Sendable (String) -> Void

    public init(_ writeLine: @escaping @Sendable (String) -> Void) { self.writeLine = writeLine }

    func write(_ line: String) { writeLine(line) }

    private static let stderrLock = Mutex(())

    public static let standardError = LogSink { line in
        stderrLock.withLock { _ in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// A sink that keeps lines in memory, for tests.
    public static func memory() -> (LogSink, @Sendable () -> [String]) {
        let lines = Mutex<[String]>([])
        return (LogSink { line in lines.withLock { $0.append(line) } }, { lines.withLock { $0 } })
    }
}
