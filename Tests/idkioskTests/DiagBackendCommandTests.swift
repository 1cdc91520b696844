import Foundation
import KioskTestKit
import Testing

/// `idkiosk diag backend` as a technician runs it: the configuration file, the reference
/// backend on loopback, the table or JSON, and the exit status of the worst check.
@Suite struct DiagBackendCommandTests {
    struct Check: Decodable {
        var name: String
        var status: String
        var detail: String
        var hint: String?
    }

    /// A configuration naming the backend, the secret and an outbox in `directory`.
    func configuration(_ directory: URL, url: String, secret: String) throws -> String {
        try secret.write(to: directory.appendingPathComponent("client.secret"), atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("idkiosk.yaml").path
        try """
            backend:
              url: \(url)
              client-id: "station-1"
              client-secret-file: \(directory.path)/client.secret
              outbox: \(directory.path)/outbox.sqlite
              outbox-key-file: \(directory.path)/outbox.key
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aHealthyBackendPassesAndAWrongSecretFailsWithExit2() async throws {
        try await LoopbackBackend.with { backend in
            let directory = backend.directory.appendingPathComponent("station")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var config = try configuration(directory, url: backend.baseURL, secret: backend.station.secret)
            try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(of: "station-1", with: backend.station.id)
                .write(toFile: config, atomically: true, encoding: .utf8)
            let good = try await onOwnThread { [config] in runCapturing(IDKioskBinary.path, ["diag", "backend", "--config", config, "--json"]) }
            #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
            let checks = try JSONDecoder().decode([Check].self, from: Data(good.stdout.utf8))
            #expect(checks.map(\.name) == ["url", "dns", "tcp", "token", "clock", "outbox"])
            #expect(checks.allSatisfy { $0.status == "pass" })
            // The secret never reaches the output.
            #expect(!good.stdout.contains(backend.station.secret))

            config = try configuration(directory, url: backend.baseURL, secret: "wrong")
            let bad = try await onOwnThread { [config] in runCapturing(IDKioskBinary.path, ["diag", "backend", "--config", config]) }
            #expect(bad.status == 2)
            #expect(bad.stdout.contains("FAIL  token"), "\(bad.stdout)")
            #expect(bad.stdout.contains("hint: check backend.client-id"))
        }
    }

    @Test func aMissingSecretFileIsAConfigurationFailure() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-diag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try configuration(directory, url: "http://127.0.0.1:9", secret: "x")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("client.secret"))
        let run = runCapturing(IDKioskBinary.path, ["diag", "backend", "--config", config, "--json"])
        #expect(run.status == 2)
        let checks = try JSONDecoder().decode([Check].self, from: Data(run.stdout.utf8))
        #expect(checks.first?.name == "configuration")
        #expect(checks.first?.hint?.contains("backend.client-secret-file") == true)
    }
}
