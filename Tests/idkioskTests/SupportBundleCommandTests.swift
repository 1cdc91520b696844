import Foundation
import KioskTestKit
import Testing

/// `idkiosk support-bundle` when parts cannot be had: the bundle is still written, the
/// manifest says what is missing and why, and the exit status is 1; an output that cannot
/// be written is 73 before any work. (The bundle after a journey, and its search for
/// personal data, is StationTests' SupportBundleTests.)
@Suite struct SupportBundleCommandTests {
    struct Manifest: Decodable {
        struct Part: Decodable {
            var file: String
            var status: String
            var source: String
            var notes: [String]
            var hint: String?
        }
        var parts: [Part]
        var neverIncluded: [String]

        subscript(_ file: String) -> Part? { parts.first { $0.file == file } }
    }

    /// A folder with a configuration whose station is not running: nothing on the status
    /// port, no outbox, a backend that refuses connections.
    func station() throws -> (directory: String, config: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-bundle-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory + "/models", withIntermediateDirectories: true)
        let config = directory + "/idkiosk.yaml"
        try """
            reader:
              name: "no such reader"
            camera:
              name: "file:\(directory)/none.mjpeg"
            vision:
              models: \(directory)/models
            flash:
              simulated: true
            backend:
              url: http://127.0.0.1:9
              outbox: \(directory)/outbox.sqlite
              outbox-key-file: \(directory)/outbox.key
            display:
              port: \(freeTCPPort())
            status:
              port: \(freeTCPPort())
            chip:
              trust: \(directory)/csca
            """.write(toFile: config, atomically: true, encoding: .utf8)
        return (directory, config)
    }

    func bundle(_ arguments: [String]) throws -> (ProcessOutcome, Manifest?) {
        let outcome = runCapturing(IDKioskBinary.path, ["support-bundle", "--json"] + arguments)
        return (outcome, try? JSONDecoder().decode(Manifest.self, from: Data(outcome.stdout.utf8)))
    }

    /// The files inside `bundle`, by name.
    func unpack(_ bundle: String) throws -> [String: String] {
        let listing = runCapturing("/usr/bin/tar", ["-tzf", bundle])
        guard listing.status == 0 else { throw TestFailure("tar -t: \(listing.stderr)") }
        var files: [String: String] = [:]
        for entry in listing.stdout.split(separator: "\n") where !entry.hasSuffix("/") {
            let content = runCapturing("/usr/bin/tar", ["-xzOf", bundle, String(entry)])
            files[String(entry.split(separator: "/").last ?? "")] = content.stdout
        }
        return files
    }

    @Test func aStationThatIsNotRunningStillGivesABundleThatSaysWhatIsMissing() throws {
        let (directory, config) = try station()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/bundle.tar.gz"
        // An existing file readable by all: the bundle makes it private.
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: out)
        let (outcome, manifest) = try bundle(["--config", config, "-o", out])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let parts = try #require(manifest)
        // Nothing listens on the status port: what happened, and what to do.
        #expect(parts["metrics.txt"]?.status == "missing")
        #expect(parts["metrics.txt"]?.notes.first?.contains("not running") == true, "\(String(describing: parts["metrics.txt"]))")
        #expect(parts["metrics.txt"]?.hint?.contains("systemctl status idkiosk") == true)
        // No outbox yet: named, not made.
        #expect(parts["outbox.json"]?.status == "missing")
        #expect(!FileManager.default.fileExists(atPath: directory + "/outbox.sqlite"))
        // No --log-file: the journal, which this machine may or may not run.
        let journald = FileManager.default.fileExists(atPath: "/run/systemd/journal")
        if journald {
            #expect(parts["log.txt"]?.source.hasPrefix("journalctl -u idkiosk") == true)
        } else {
            #expect(parts["log.txt"]?.status == "missing")
            #expect(parts["log.txt"]?.notes.first?.contains("no journald") == true)
            #expect(parts["log.txt"]?.hint?.contains("--log-file") == true)
        }
        for file in ["versions.txt", "configuration.yaml", "diag-all.json"] { #expect(parts[file]?.status == "collected", "\(file)") }
        // The archive holds every part that could be had, and the manifest.
        let files = try unpack(out)
        #expect(files["manifest.json"]?.contains("\"missing\"") == true)
        #expect(files["metrics.txt"] == nil)
        #expect(files["diag-all.json"]?.contains("\"display\"") == true)
        // The text for a person says the same.
        let text = runCapturing(IDKioskBinary.path, ["support-bundle", "--config", config, "-o", out])
        #expect(text.status == 1)
        #expect(text.stdout.contains("MISSING metrics.txt"), "\(text.stdout)")
    }

    @Test func aLogFileThatCannotBeReadIsAMissingPartAndALogFileIsRedacted() throws {
        let (directory, config) = try station()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try bundle(["--config", config, "-o", directory + "/a.tar.gz", "--log-file", directory + "/nothing.log"])
        #expect(missing.0.status == 1)
        #expect(missing.1?["log.txt"]?.status == "missing")
        #expect(missing.1?["log.txt"]?.hint?.contains("--log-file") == true)
        // A log written by something less careful than the station: the redactor is the second line.
        let log = directory + "/station.log"
        try """
            <6>idkiosk: journey started station=7
            <6>idkiosk: chip read mrz="P<UTOSPECIMEN<<ALEX<<<<<<<<<<<<<<<<<<<<<<<<<<<<<" token=abc.def
            <6>idkiosk: upload Authorization: Bearer c2VjcmV0LXRva2VuLXZhbHVlLTEyMw born 1990-01-01
            """.write(toFile: log, atomically: true, encoding: .utf8)
        let (outcome, manifest) = try bundle(["--config", config, "-o", directory + "/b.tar.gz", "--log-file", log, "--lines", "2"])
        #expect(outcome.status == 1)  // the metrics and the outbox are still missing
        #expect(manifest?["log.txt"]?.status == "collected")
        let lines = try #require(try unpack(directory + "/b.tar.gz")["log.txt"])
        #expect(!lines.contains("journey started"), "--lines 2 takes the last two: \(lines)")
        #expect(lines.contains("chip read"))
        for secret in ["SPECIMEN", "abc.def", "c2VjcmV0LXRva2VuLXZhbHVlLTEyMw", "1990-01-01"] { #expect(!lines.contains(secret), "\(secret) in \(lines)") }
    }

    @Test func aPasswordInTheBackendsURLIsInNoPart() throws {
        let (directory, config) = try station()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let password = "pw-in-url-\(UUID().uuidString.prefix(8))"
        let text = try String(contentsOfFile: config, encoding: .utf8)
            .replacingOccurrences(of: "url: http://127.0.0.1:9", with: "url: http://station:\(password)@127.0.0.1:9")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let (outcome, manifest) = try bundle(["--config", config, "-o", directory + "/p.tar.gz"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let files = try unpack(directory + "/p.tar.gz")
        #expect(files["configuration.yaml"]?.contains("http://<removed>@127.0.0.1:9") == true, "\(String(describing: files["configuration.yaml"]))")
        #expect(manifest?["configuration.yaml"]?.notes.contains("the user and password of a URL in backend.url (line 10)") == true)
        for (file, content) in files { #expect(!content.lowercased().contains(password.lowercased()), "the URL's password in \(file)") }
    }

    @Test func anUnreadableConfigurationIsRecordedAndTheRestIsCollected() throws {
        let (directory, _) = try station()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A folder where the file should be: unreadable even for root.
        let config = directory + "/models"
        let (outcome, manifest) = try bundle(["--config", config, "-o", directory + "/c.tar.gz"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(manifest?["configuration.yaml"]?.status == "missing")
        #expect(manifest?["configuration.yaml"]?.notes.first?.contains("cannot read \(config)") == true, "\(String(describing: manifest?["configuration.yaml"]))")
        #expect(manifest?["versions.txt"]?.status == "collected")
        let diag = try #require(try unpack(directory + "/c.tar.gz")["diag-all.json"])
        let checks = try JSONDecoder().decode([DiagBackendCommandTests.Check].self, from: Data(diag.utf8))
        #expect(checks.map(\.name) == ["configuration"])
        #expect(checks.first?.status == "fail")
    }

    @Test(arguments: ["/nonexistent-\(UUID().uuidString.prefix(8))/bundle.tar.gz", "/tmp"])
    func anOutputThatCannotBeWrittenExits73BeforeAnyWork(out: String) throws {
        let (directory, config) = try station()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = runCapturing(IDKioskBinary.path, ["support-bundle", "--config", config, "-o", out])
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cannot write the bundle to \(out)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("hint: give a writable place with -o FILE"))
        #expect(outcome.stdout.isEmpty)
    }
}
