import AsyncHTTPClient
import Backend
import Foundation
import KioskLog
import Logging
import NIOCore
import Station
#if canImport(Glibc)
import Glibc
#endif

/// What `idkiosk support-bundle` puts in its archive: each part's text and how it was made,
/// or why it could not be had. Never personal data or a secret (docs/cli.md lists what is
/// never inside, and why).
struct SupportBundle {
    /// One file of the bundle.
    struct Part: Codable {
        enum Status: String, Codable { case collected, missing }
        /// The file's name inside the bundle.
        var file: String
        var status: Status
        /// How it was made: the command, the file or the address it came from.
        var source: String
        /// What was removed from it, or why it is missing.
        var notes: [String] = []
        /// What to do about a missing part.
        var hint: String?
        /// The text (not in the manifest).
        var text: String = ""

        enum CodingKeys: String, CodingKey { case file, status, source, notes, hint }

        static func missing(_ file: String, source: String, _ why: String, hint: String?) -> Part {
            Part(file: file, status: .missing, source: source, notes: [why], hint: hint)
        }
    }

    /// `manifest.json`: the bundle's table of contents.
    struct Manifest: Codable {
        var format = 1
        var created: String
        var idkiosk = BuildInfo.version
        var station: String
        var parts: [Part]
        /// What a support bundle never holds, whatever the station's state.
        var neverIncluded = [
            "personal data: MRZ, names, dates, document numbers, images, face data, chip data",
            "the outbox's records (only their counts)",
            "the client secret, the outbox key, the display token, access tokens (the files that hold them are named, never read into the bundle)",
        ]
    }

    /// The journal's or log file's last lines the bundle takes by default.
    static let defaultLines = 2000

    // MARK: Versions

    /// idkiosk, the OS and kernel, the libraries this process loaded and the Debian packages
    /// the station relies on.
    static func versions() -> Part {
        var lines = ["idkiosk \(BuildInfo.version)"]
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            let pretty = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            lines.append("os " + (pretty.map { String($0.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "unknown"))
        }
        var names = utsname()
        if uname(&names) == 0 {
            func text<T>(_ field: T) -> String { withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
            lines.append("kernel \(text(names.sysname)) \(text(names.release)) \(text(names.version)) \(text(names.machine))")
        }
        var notes: [String] = []
        lines += ["", "libraries loaded by idkiosk (/proc/self/maps):"]
        if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) {
            let libraries = Set(maps.split(separator: "\n").compactMap { line -> String? in
                guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.hasPrefix("/"), path.contains(".so") else { return nil }
                return String(path)
            })
            lines += libraries.sorted().map { "  " + $0 }
        }
        lines += ["", "Debian packages (dpkg-query):"]
        do {
            let outcome = try SystemCommand.run("dpkg-query", ["-W", "-f", "${Package} ${Version} ${db:Status-Abbrev}\\n"] + Self.packages)
            lines += String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n").map { "  " + $0 }
            let absent = outcome.stderr.split(separator: "\n").filter { $0.contains("no packages found") }.count
            if absent > 0 { lines.append("  (\(absent) of the packages listed are not installed)") }
        } catch {
            notes.append("no package versions: \(error)")
        }
        return Part(file: "versions.txt", status: .collected, source: "idkiosk, /etc/os-release, uname(2), /proc/self/maps, dpkg-query -W", notes: notes, text: lines.joined(separator: "\n") + "\n")
    }

    /// The packages whose versions matter to support: the station's peers and the libraries it links.
    static let packages = [
        "idkiosk", "pcscd", "libpcsclite1", "libccid", "vsmartcard-vpcd", "libturbojpeg0", "libjpeg62-turbo", "libopenjp2-7", "libgpiod2",
        "libsqlite3-0", "libssl3", "libopencv-core406", "libdlib19.1", "libqrencode4", "libzxing2", "systemd", "udev", "linux-image-amd64",
        "linux-image-arm64",
    ]

    // MARK: Configuration

    /// The configuration file with secrets removed, and what was removed; the secret files
    /// are named with their mode, never read.
    static func configuration(path: String, configuration: Configuration?) -> Part {
        let source = "\(path), comments and secrets removed"
        guard FileManager.default.fileExists(atPath: path) else {
            return Part(file: "configuration.yaml", status: .collected, source: source, notes: ["no file at \(path): the station runs on the defaults"], text: "# no file at \(path): the defaults\n")
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            return .missing("configuration.yaml", source: source, "cannot read \(path): \(error.localizedDescription)", hint: "run as root, or check the path given with --config")
        }
        let redaction = ConfigurationRedaction(text)
        var header = ["# \(path) as support sees it. Removed: " + (redaction.removed.isEmpty ? "nothing (no comment, no secret)" : redaction.removed.joined(separator: "; ")) + "."]
        if let configuration {
            header.append("# Secret files (named, never read into the bundle):")
            for (key, file) in [("backend.client-secret-file", configuration.backend.clientSecretFile), ("backend.outbox-key-file", configuration.backend.outboxKeyFile),
                                ("display.token-file", configuration.display.tokenFile)] where !file.isEmpty {
                header.append("#   \(key) \(file): " + Self.describeFile(file))
            }
        } else {
            header.append("# The file is not valid: diag-all.json says why.")
        }
        return Part(file: "configuration.yaml", status: .collected, source: source, notes: redaction.removed, text: header.joined(separator: "\n") + "\n" + redaction.text + "\n")
    }

    /// A file's presence, mode and owner, which is what goes wrong with secret files.
    static func describeFile(_ path: String) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        let owner = (attributes[.ownerAccountID] as? NSNumber)?.intValue ?? -1
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        return String(format: "present, mode %o, owner uid %d, %d bytes", mode, owner, size)
    }

    /// The values the scrubber removes from every part: the client secret, the display token
    /// and the outbox key (hex or raw), when this process can read them.
    static func secrets(_ configuration: Configuration?) -> SecretScrubber {
        guard let configuration else { return SecretScrubber([]) }
        var secrets: [(name: String, value: String)] = []
        if let client = try? StationApp.backendConfiguration(configuration) { secrets.append(("client secret", client.clientSecret)) }
        func file(_ path: String) -> String? {
            path.isEmpty ? nil : (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let token = file(configuration.display.tokenFile) { secrets.append(("display token", token)) }
        if let key = FileManager.default.contents(atPath: configuration.backend.outboxKeyFile) {
            let text = String(decoding: key, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            secrets.append(("outbox key", text))
            secrets.append(("outbox key", key.map { String(format: "%02x", $0) }.joined()))
        }
        return SecretScrubber(secrets)
    }

    // MARK: Logs

    /// The journal's last lines for `unit`, or the last lines of `logFile`, each through the redactor.
    static func logs(unit: String, logFile: String?, lines: Int) -> Part {
        let redactor = Redactor()
        let raw: String
        let source: String
        if let logFile {
            source = "the last \(lines) lines of \(logFile), through the redactor"
            guard let data = FileManager.default.contents(atPath: logFile) else {
                return .missing("log.txt", source: source, "cannot read \(logFile)", hint: "check the path given with --log-file")
            }
            var all = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if all.last?.isEmpty == true { all.removeLast() }
            raw = all.suffix(lines).joined(separator: "\n") + "\n"
        } else {
            source = "journalctl -u \(unit) -n \(lines) -o short-iso, through the redactor"
            // journalctl on a machine without journald answers "No journal files were found" and
            // exits 0: look for the running journal first, so the manifest says what is wrong.
            guard FileManager.default.fileExists(atPath: "/run/systemd/journal") else {
                return .missing(
                    "log.txt", source: source, "no journald on this machine (/run/systemd/journal is missing)",
                    hint: "give the station's log file with --log-file FILE")
            }
            do {
                let outcome = try SystemCommand.run("journalctl", ["-u", unit, "-n", "\(lines)", "-o", "short-iso", "--no-pager", "-q"])
                guard outcome.status == 0 else {
                    return .missing(
                        "log.txt", source: source, "journalctl exited \(outcome.status): \(outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines))",
                        hint: "run as root or as a member of systemd-journal or adm")
                }
                raw = String(decoding: outcome.stdout, as: UTF8.self)
            } catch let failure as CommandFailure {
                return .missing("log.txt", source: source, failure.message, hint: "give the station's log file with --log-file FILE")
            } catch {
                return .missing("log.txt", source: source, "\(error)", hint: nil)
            }
        }
        let redacted = raw.split(separator: "\n", omittingEmptySubsequences: false).map { redactor.redact(logLine: String($0)) }
        var notes: [String] = []
        let changed = zip(redacted, raw.split(separator: "\n", omittingEmptySubsequences: false)).filter { $0 != $1 }.count
        if changed > 0 { notes.append("the redactor changed \(changed) lines") }
        if raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { notes.append("no lines") }
        return Part(file: "log.txt", status: .collected, source: source, notes: notes, text: redacted.joined(separator: "\n"))
    }

    // MARK: Metrics and outbox

    /// `/metrics` from the running station's status port.
    static func metrics(_ configuration: Configuration) async -> Part {
        let host = ["0.0.0.0", "::", ""].contains(configuration.status.host) ? "127.0.0.1" : configuration.status.host
        let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(configuration.status.port)/metrics"
        let source = "GET \(url)"
        // A refused connection is the usual answer of a stopped station: say so at once (the
        // HTTP client would try to connect again until its deadline).
        if let failure = BackendDiagnostics.tcpProbe(host: host, port: configuration.status.port) {
            return .missing(
                "metrics.txt", source: source, "the station is not running, or not on this port: nothing listens on \(host):\(configuration.status.port) (\(failure))",
                hint: "`systemctl status idkiosk`; start it and make the bundle again to include its metrics")
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let part: Part
        do {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
            let body = try await response.body.collect(upTo: 8 << 20)
            part = response.status == .ok
                ? Part(file: "metrics.txt", status: .collected, source: source, text: String(buffer: body))
                : .missing("metrics.txt", source: source, "the status port answered \(response.status.code)", hint: "is status.port the station's? `idkiosk diag all`")
        } catch {
            part = .missing(
                "metrics.txt", source: source, "the station is not running, or not on this port: no answer from \(url) (\(error))",
                hint: "`systemctl status idkiosk`; start it and make the bundle again to include its metrics")
        }
        try? await client.shutdown()
        return part
    }

    /// The outbox's counts by kind and state, as JSON; never a record.
    static func outbox(_ configuration: Configuration, logger: Logger) async -> Part {
        let source = "\(configuration.backend.outbox): counts by kind and state, no record read"
        do {
            let counts = try await OutboxDiagnostics.counts(configuration, logger: logger)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let text = String(decoding: (try? encoder.encode(counts)) ?? Data(), as: UTF8.self)
            return Part(file: "outbox.json", status: .collected, source: source, text: text + "\n")
        } catch {
            return .missing("outbox.json", source: source, error.message, hint: error.hint)
        }
    }
}
