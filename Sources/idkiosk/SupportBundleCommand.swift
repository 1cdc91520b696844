import ArgumentParser
import Foundation
import KioskLog
import Logging
import Station
#if canImport(Glibc)
import Glibc
#endif

/// `idkiosk support-bundle`: one tar.gz a technician sends to support, with what support asks
/// for first and nothing personal or secret.
struct SupportBundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "support-bundle",
        abstract: "Write a tar.gz for support: versions, the configuration without secrets, diag all, logs, metrics, outbox counts.",
        discussion: """
            Inside: manifest.json (each file and how it was made, or why it is missing), \
            versions.txt, configuration.yaml (comments, secret values and URL passwords \
            removed), diag-all.json, log.txt (the journal's last lines of the unit, or of \
            --log-file, through the redactor), metrics.txt (the running station's /metrics) and \
            outbox.json (counts only). Never personal data, the outbox's records, the client \
            secret, the outbox key, the display token or an access token. The file is created \
            with mode 0600. Exits 0 when every part is inside, 1 when the bundle was written \
            without a part (the manifest says why), 73 when the file cannot be written.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: [.short, .customLong("output")], help: "The bundle's file (default: idkiosk-support-<station>-<UTC time>.tar.gz here).")
    var output: String?

    @Option(name: .long, help: "Take the log lines from this file instead of the journal (a station without journald).")
    var logFile: String?

    @Option(name: .long, help: "How many of the last log lines to take (1-100000).")
    var lines = SupportBundle.defaultLines

    @Option(name: .long, help: "The systemd unit whose journal to read.")
    var unit = "idkiosk"

    func validate() throws {
        guard (1...100_000).contains(lines) else { throw ValidationError("--lines must be between 1 and 100000") }
        if let output, output.isEmpty { throw ValidationError("-o needs a file name") }
    }

    func run() async throws {
        try await reportingFailures {
            let progress = Progress.terminal(json: global.json)
            let steps = 7
            let file = global.config ?? Configuration.defaultPath
            // A configuration that does not load is worth a bundle too: use the defaults for
            // where things are, and say so.
            var parsed: Configuration?
            var configurationProblem: String?
            do throws(ConfigurationError) {
                parsed = try Configuration.resolve(explicitPath: global.config)
            } catch {
                configurationProblem = error.description
            }
            let configuration = parsed ?? Configuration()
            let level = global.logLevel.flatMap(Logger.Level.init(rawValue:)) ?? configuration.log.level
            LoggingBootstrap.once {
                LoggingSystem.bootstrap { StructuredLogHandler(label: $0, level: level, format: configuration.log.format == .json ? .json : .journal) }
            }
            let logger = Logger(label: "idkiosk")

            let now = Date()
            let stamp = Self.stamp(now)
            let path = output ?? "idkiosk-support-\(configuration.station.name)-\(stamp).tar.gz"
            // Open the output first: a technician learns at once that the place is wrong, not
            // after a minute of checks.
            let archive = try Self.create(path)

            var parts: [SupportBundle.Part] = []
            progress.step("support-bundle: versions", 1, of: steps)
            parts.append(SupportBundle.versions())
            progress.step("support-bundle: the configuration, without secrets", 2, of: steps)
            parts.append(SupportBundle.configuration(path: file, configuration: parsed))
            progress.step("support-bundle: diag all", 3, of: steps)
            let checks: [DiagnosticCheck]
            if let configurationProblem {
                checks = [DiagnosticCheck("configuration", .fail, configurationProblem, hint: "fix the file; the bundle used the defaults for the rest")]
            } else {
                checks = await DiagAllCommand.checks(configuration, file: file, logger: logger, progress: progress)
            }
            parts.append(SupportBundle.Part(
                file: "diag-all.json", status: .collected, source: "idkiosk diag all --json, in this process",
                notes: configurationProblem.map { _ in ["the configuration is not valid: only its row; metrics and outbox looked where the defaults say"] } ?? [],
                text: try Self.json(checks)))
            progress.step("support-bundle: the last \(lines) log lines", 4, of: steps)
            parts.append(SupportBundle.logs(unit: unit, logFile: logFile, lines: lines))
            progress.step("support-bundle: the station's /metrics", 5, of: steps)
            parts.append(await SupportBundle.metrics(configuration))
            progress.step("support-bundle: the outbox's counts", 6, of: steps)
            parts.append(await SupportBundle.outbox(configuration, logger: logger))

            // The second line behind each part's own redaction: URL passwords and known
            // secrets, wherever they are.
            let scrubber = SupportBundle.secrets(parsed)
            for index in parts.indices {
                // A URL's password can reach a diagnostic's detail or a log line too.
                let stripped = ConfigurationRedaction.removingURLCredentials(parts[index].text)
                if stripped != parts[index].text, parts[index].file != "configuration.yaml" { parts[index].notes.append("the user and password of URLs removed") }
                let (text, found) = scrubber.scrub(stripped)
                parts[index].text = text
                for (name, count) in found.sorted(by: { $0.key < $1.key }) {
                    parts[index].notes.append("\(count) occurrences of the \(name) removed")
                }
            }
            let manifest = SupportBundle.Manifest(created: ISO8601DateFormatter().string(from: now), station: configuration.station.name, parts: parts)
            let manifestText = try Self.json(manifest)

            progress.step("support-bundle: writing \(path)", 7, of: steps)
            do {
                // A missing part is in the manifest only: an empty file would read as "nothing there".
                try SupportBundle.write(parts.filter { $0.status == .collected } + [SupportBundle.Part(file: "manifest.json", status: .collected, source: "idkiosk support-bundle", text: manifestText)],
                                        folder: "idkiosk-support-\(stamp)", to: archive)
            } catch {
                progress.finish()
                try? archive.close()
                unlink(path)
                throw error
            }
            progress.finish()

            if global.json {
                try Output.json(manifest)
            } else {
                var text = ["support bundle written: \(path) (mode 0600)"]
                for part in parts {
                    text.append("  \(part.status == .collected ? "ok     " : "MISSING") \(part.file)" + (part.status == .missing ? ": " + part.notes.joined(separator: "; ") : ""))
                    if part.status == .missing, let hint = part.hint { text.append("          hint: \(hint)") }
                }
                Output.text(text)
            }
            if parts.contains(where: { $0.status == .missing }) { throw ExitCode(1) }
        }
    }

    /// `20261127T224501Z`: sorts, and has no character a file name minds.
    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// Creates (or empties) the bundle's file with mode 0600, whatever the umask.
    /// - Throws: `CommandFailure` (exit 73) naming the file and the system's reason.
    static func create(_ path: String) throws -> FileHandle {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CommandFailure(.cannotCreate, "cannot write the bundle to \(path): \(reason)", hint: "give a writable place with -o FILE (a folder that exists, not a folder itself)")
        }
        // An existing file keeps its mode through O_TRUNC: make it the bundle's.
        guard fchmod(fd, 0o600) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CommandFailure(.cannotCreate, "cannot make \(path) private (chmod 600): \(reason)", hint: "give a new file with -o FILE")
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }
}
