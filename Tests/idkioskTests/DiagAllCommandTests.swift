import Foundation
import KioskTestKit
import Testing
import VirtualPassport

/// `idkiosk diag all` on a station whose parts the test chooses: the reference backend on
/// loopback, a recording for a camera, a simulated flash, a CSCA store made by the test
/// issuer, and an empty model folder; each row says what it found and the exit status is
/// the worst row's.
@Suite struct DiagAllCommandTests {
    typealias Check = DiagBackendCommandTests.Check

    /// Runs `diag all --json` with a configuration in `directory` naming these parts.
    /// The binary runs on a thread of its own: the backend answering it lives in this process,
    /// on the threads the tests' tasks would otherwise block.
    func run(_ backend: LoopbackBackend, directory: URL, cscaValidUntil: Int64, displayPort: Int) async throws -> (Int32, [String: Check]) {
        // The CSCA's validity ends ten years after the signer's.
        let issuer = try TestIssuer(signerValidity: (cscaValidUntil - 11 * 365 * 86_400)...(cscaValidUntil - 10 * 365 * 86_400))
        let trust = directory.appendingPathComponent("csca")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        try Data(issuer.cscaCertificate).write(to: trust.appendingPathComponent("csca.der"))
        let models = directory.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try backend.station.secret.write(to: directory.appendingPathComponent("client.secret"), atomically: true, encoding: .utf8)
        let config = directory.appendingPathComponent("idkiosk.yaml").path
        try """
            reader:
              name: "no such reader"
            camera:
              name: "file:\(directory.path)/recording.mjpeg"
            vision:
              models: \(models.path)
            flash:
              simulated: true
            backend:
              url: \(backend.baseURL)
              client-id: "\(backend.station.id)"
              client-secret-file: \(directory.path)/client.secret
              outbox: \(directory.path)/outbox.sqlite
              outbox-key-file: \(directory.path)/outbox.key
            display:
              port: \(displayPort)
            status:
              port: \(displayPort == 8401 ? 8402 : 8401)
            chip:
              trust: \(trust.path)
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let outcome = try await onOwnThread { runCapturing(IDKioskBinary.path, ["diag", "all", "--config", config, "--json"]) }
        let checks = try JSONDecoder().decode([Check].self, from: Data(outcome.stdout.utf8))
        return (outcome.status, Dictionary(checks.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }))
    }

    @Test func everyPartHasItsRowAndTheWorstDecidesTheExit() async throws {
        try await LoopbackBackend.with { backend in
            let directory = backend.directory.appendingPathComponent("station")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let year: Int64 = 365 * 86_400
            // Something listens on the display's port: the backend's, standing in for it.
            let (status, checks) = try await run(backend, directory: directory, cscaValidUntil: Int64(Date().timeIntervalSince1970) + 5 * year, displayPort: backend.port)
            #expect(checks["configuration"]?.status == "pass")
            #expect(checks["camera"]?.status == "warn", "a recording is no camera: \(String(describing: checks["camera"]))")
            #expect(checks["flash"]?.status == "warn")
            #expect(checks["display"]?.status == "pass")
            for name in ["backend url", "backend dns", "backend tcp", "backend token", "backend clock", "outbox", "disk"] {
                #expect(checks[name]?.status == "pass", "\(name): \(String(describing: checks[name]))")
            }
            #expect(checks["csca"]?.status == "pass")
            #expect(checks["csca"]?.detail.hasPrefix("1 certificates") == true)
            // The models are missing: a failure, with where to look.
            #expect(checks["mrz model"]?.status == "fail")
            #expect(checks["face models"]?.hint?.contains("diag models") == true)
            #expect(status == 2)
            #expect(checks["pcscd"] != nil)
        }
    }

    @Test func certificatesNearTheirEndWarnAndExpiredOnesFail() async throws {
        try await LoopbackBackend.with { backend in
            let now = Int64(Date().timeIntervalSince1970)
            for (end, expected) in [(now + 10 * 86_400, "warn"), (now - 86_400, "fail")] {
                let directory = backend.directory.appendingPathComponent("station-\(end)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let (_, checks) = try await run(backend, directory: directory, cscaValidUntil: end, displayPort: freeTCPPort())
                #expect(checks["csca"]?.status == expected, "\(String(describing: checks["csca"]))")
                // Nothing listens on a free port: the station is not running.
                #expect(checks["display"]?.status == "warn")
            }
        }
    }

    @Test func anInvalidConfigurationIsTheOnlyRowAndFails() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-diag-all-\(UUID().uuidString).yaml")
        try "journey:\n  workflow: selfie-only\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = runCapturing(IDKioskBinary.path, ["diag", "all", "--config", file.path, "--json"])
        #expect(outcome.status == 2)
        let checks = try JSONDecoder().decode([Check].self, from: Data(outcome.stdout.utf8))
        #expect(checks.map(\.name) == ["configuration"])
        #expect(checks.first?.detail.contains("journey.workflow") == true)
    }
}
