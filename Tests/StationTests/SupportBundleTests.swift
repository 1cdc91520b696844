@testable import Backend
import Foundation
import Hummingbird
import KioskLog
import KioskTestKit
import Logging
import Prometheus
import Station
import Synchronization
import Testing

/// `idkiosk support-bundle` after a real journey: the station's loop with fake devices and
/// the reference backend (its log lines in a file as journald would keep them, its outbox
/// holding the journey's encrypted parts, its /metrics served), then the command as a
/// technician runs it. Every byte of the unpacked bundle is searched for the journey's
/// personal data and the station's secrets.
@Suite struct SupportBundleTests {
    /// The station's log as `idkiosk serve` writes it to journald, into a file.
    final class LogFile: Sendable {
        let path: String
        private let handle: Mutex<FileHandle>

        init(_ path: String) throws {
            self.path = path
            guard FileManager.default.createFile(atPath: path, contents: nil) else { throw TestFailure("cannot create \(path)") }
            handle = Mutex(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
        }

        var logger: Logger {
            let sink = LogSink { [self] line in self.handle.withLock { $0.write(Data((line + "\n").utf8)) } }
            var logger = Logger(label: "idkiosk") { StructuredLogHandler(label: $0, level: .trace, format: .journal, sink: sink) }
            logger.logLevel = .trace
            return logger
        }
    }

    /// What must never be inside, by what it is.
    struct Forbidden {
        var texts: [(what: String, value: String)] = []
        var bytes: [(what: String, value: [UInt8])] = []

        /// Each finding in `data` (a file of the bundle): the text as it is, lower-cased and
        /// JSON-escaped, and the byte signatures.
        func findings(in data: Data, file: String) -> [String] {
            var found: [String] = []
            let text = String(decoding: data, as: UTF8.self)
            let lower = text.lowercased()
            for (what, value) in texts {
                let forms = Set([
                    value, value.replacingOccurrences(of: "/", with: "\\/"), value.replacingOccurrences(of: "<", with: "\\u003c"),
                    value.replacingOccurrences(of: "<", with: "\\u003C"),
                ])
                if forms.contains(where: { lower.contains($0.lowercased()) }) { found.append("\(what) in \(file)") }
            }
            let all = [UInt8](data)
            for (what, signature) in bytes where Self.contains(all, signature) { found.append("\(what) in \(file)") }
            return found
        }

        static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            guard !needle.isEmpty, haystack.count >= needle.count else { return false }
            for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
                if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            }
            return false
        }
    }

    /// Runs the status server (`/metrics`) for `station` until `body` returns.
    func withStatusServer<T: Sendable>(_ station: StationHarness, registry: PrometheusCollectorRegistry, _ body: (Int) async throws -> T) async throws -> T {
        let server = StatusServer(loop: station.loop, outbox: station.outbox, registry: registry)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = server.makeApplication(host: "127.0.0.1", port: 0, logger: StationHarness.logger) { port in
            continuation.yield(port)
            continuation.finish()
        }
        let running = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure("the status server did not start") }
        do {
            let value = try await body(port)
            running.cancel()
            _ = await running.result
            return value
        } catch {
            running.cancel()
            _ = await running.result
            throw error
        }
    }

    @Test func aBundleAfterAJourneyHoldsItsPartsAndNoPersonalDataOrSecret() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-bundle-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let log = try LogFile(work.appendingPathComponent("station.log").path)
        let registry = PrometheusCollectorRegistry()
        var options = StationHarness.Options()
        options.logger = log.logger
        options.metrics = StationMetrics(factory: PrometheusMetricsFactory(registry: registry))
        // The backend "is away" after the journey's start: the parts (images, chip data) wait
        // in the outbox, encrypted, so the bundle has records to count and not to copy.
        options.sender = false
        options.decisionWait = .zero
        try await StationHarness.with(options) { station in
            try await station.display.waitForMessage("finished") { if case .finished = $0 { true } else { false } }
            try await station.display.waitForScreen("reference") { if case .decision(_, nil) = $0 { true } else { false } }
            let waiting = try await station.outbox.stats().records
            #expect(waiting >= 4, "the journey's parts and its finalisation wait in the outbox")
            let token = try await station.backend.accessToken()

            // The configuration a careless technician wrote: the secret in a comment and in a
            // URL's password, beside the files that hold the secrets.
            try station.clientSecret.write(to: work.appendingPathComponent("client.secret"), atomically: true, encoding: .utf8)
            let displayToken = "display-" + UUID().uuidString
            try displayToken.write(to: work.appendingPathComponent("display.token"), atomically: true, encoding: .utf8)
            let models = work.appendingPathComponent("models")
            try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
            let outbox = station.directory.appendingPathComponent("outbox.sqlite").path
            let keyFile = station.directory.appendingPathComponent("outbox.key").path
            let config = work.appendingPathComponent("idkiosk.yaml").path

            let (status, manifest, files) = try await withStatusServer(station, registry: registry) { statusPort in
                try """
                    # station 7, installed by the technician; client secret \(station.clientSecret)
                    station:
                      name: bundle-test
                    reader:
                      name: "no such reader"
                    camera:
                      name: "file:\(work.path)/none.mjpeg"
                    vision:
                      models: \(models.path)
                    flash:
                      simulated: true
                    backend:
                      client-id: "\(station.clientId)"
                      client-secret-file: \(work.path)/client.secret
                      data-center: EU
                      data-centers:
                        EU: http://127.0.0.1:9
                        US: "https://station:\(station.clientSecret)@us.backend.example"  # the old one: \(station.clientSecret)
                      outbox: \(outbox)
                      outbox-key-file: \(keyFile)
                    display:
                      port: \(freeTCPPort())
                      token-file: \(work.path)/display.token
                    status:
                      port: \(statusPort)
                    chip:
                      trust: \(work.path)/csca
                    """.write(toFile: config, atomically: true, encoding: .utf8)
                let bundle = work.appendingPathComponent("bundle.tar.gz").path
                let started = ContinuousClock.now
                let outcome = try await onOwnThread {
                    runCapturing(IDKioskBinary.path, ["support-bundle", "--config", config, "-o", bundle, "--log-file", log.path, "--json"])
                }
                print("support-bundle after a journey: \(ContinuousClock.now - started)")
                let mode = try FileManager.default.attributesOfItem(atPath: bundle)[.posixPermissions] as? NSNumber
                #expect(mode?.intValue == 0o600, "the bundle's mode: \(String(describing: mode))")
                let unpacked = work.appendingPathComponent("unpacked")
                try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
                let tar = runCapturing("/usr/bin/tar", ["-xzf", bundle, "-C", unpacked.path])
                #expect(tar.status == 0, "\(tar.stderr)")
                var files: [String: Data] = [:]
                let enumerator = FileManager.default.enumerator(at: unpacked, includingPropertiesForKeys: [.isRegularFileKey])
                while let url = enumerator?.nextObject() as? URL {
                    if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                        files[url.lastPathComponent] = try Data(contentsOf: url)
                    }
                }
                return (outcome.status, outcome.stdout, files)
            }

            // Every part is there and says how it was made.
            #expect(status == 0, "\(manifest)")
            #expect(Set(files.keys) == ["manifest.json", "versions.txt", "configuration.yaml", "diag-all.json", "log.txt", "metrics.txt", "outbox.json"])
            let parts = try #require(try JSONSerialization.jsonObject(with: files["manifest.json"] ?? Data()) as? [String: Any])["parts"] as? [[String: Any]]
            #expect(parts?.count == 6)
            #expect(parts?.allSatisfy { $0["status"] as? String == "collected" && ($0["source"] as? String)?.isEmpty == false } == true, "\(String(describing: parts))")
            // Each part's own redaction removed the secrets: the scrubber behind them (the second
            // line) found none to remove, in the configuration file least of all.
            let scrubbed = parts?.flatMap { part in ((part["notes"] as? [String]) ?? []).filter { $0.contains("occurrences of the") }.map { "\(part["file"] ?? "?"): \($0)" } }
            #expect(scrubbed?.isEmpty == true, "\(String(describing: scrubbed))")
            let text = { (name: String) in String(decoding: files[name] ?? Data(), as: UTF8.self) }
            // The journey's log lines are inside (redacted), the metrics of the running station,
            // and the outbox's counts: the records the journey left, by kind.
            #expect(text("log.txt").contains("journey"), "\(text("log.txt").prefix(2000))")
            #expect(text("log.txt").split(separator: "\n").count >= 10)
            let depth = text("metrics.txt").split(separator: "\n").first { $0.hasPrefix("idkiosk_outbox_depth ") }
            #expect(depth.flatMap { Double($0.split(separator: " ").last ?? "") } == Double(waiting), "\(text("metrics.txt").prefix(3000))")
            #expect(text("metrics.txt").contains("idkiosk_journeys_started_total 1"))
            let counts = try JSONDecoder().decode(OutboxCounts.self, from: files["outbox.json"] ?? Data())
            #expect(counts.records == waiting)
            #expect(counts.byKind["finalize"] == 1)
            #expect(counts.byKind["part", default: 0] == waiting - 1)
            #expect(counts.journeys == 1)
            #expect(text("versions.txt").contains("kernel Linux"))
            #expect(text("diag-all.json").contains("\"backend url\""))
            // What the configuration lost, named in the file.
            #expect(text("configuration.yaml").contains("the user and password of a URL in backend.data-centers.US"), "\(text("configuration.yaml"))")
            #expect(text("configuration.yaml").contains("comments"))
            #expect(text("configuration.yaml").contains("backend.outbox-key-file \(keyFile): present, mode 600"))

            // Nothing personal, nothing secret, in any file.
            var forbidden = Forbidden()
            for (index, line) in StationHarness.mrz.enumerated() { forbidden.texts.append(("MRZ line \(index + 1)", line)) }
            forbidden.texts += [
                ("the MRZ's name field", "SPECIMEN<<ALEX"), ("the surname", "SPECIMEN"), ("the given name", "ALEX"),
                ("the document number", "D23145890"), ("the date of birth", "900101"), ("the date of birth", "1990-01-01"),
                ("the date of birth", "01.01.1990"), ("the date of expiry", "341231"), ("the date of expiry", "2034-12-31"),
                ("the access token", token), ("the client secret", station.clientSecret), ("the display token", displayToken),
                ("a base64 JPEG", "/9j/"), ("a base64 PNG", "iVBORw0KGgo"), ("a base64 JPEG 2000", "AAAADGpQICAN"),
            ]
            let key = try Data(contentsOf: URL(fileURLWithPath: keyFile))
            forbidden.texts.append(("the outbox key", String(decoding: key, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
            forbidden.bytes = [
                ("a JPEG", [0xFF, 0xD8, 0xFF]), ("a JPEG 2000 file", [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]),
                ("a JPEG 2000 codestream", [0xFF, 0x4F, 0xFF, 0x51]), ("a PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            ]
            // The search finds what it looks for (it is not a search that cannot fail).
            #expect(forbidden.findings(in: Data("x \(token.uppercased()) P\\u003cUTO".utf8), file: "probe").count == 1)
            #expect(!forbidden.findings(in: Data("\(StationHarness.mrz[0])".utf8), file: "probe").isEmpty)
            let findings = files.sorted { $0.key < $1.key }.flatMap { forbidden.findings(in: $0.value, file: $0.key) }
            #expect(findings.isEmpty, "\(findings)")
        }
    }
}
