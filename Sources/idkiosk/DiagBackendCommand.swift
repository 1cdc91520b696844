import ArgumentParser
import AsyncHTTPClient
import Backend
import Foundation
import Logging
import Station

struct DiagBackendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backend",
        abstract: "Check the way to the verification backend, and the outbox.",
        discussion: """
            Step by step, each depending on the one before: the URL, DNS, TCP, one token \
            request (TLS with backend.spki-pins and backend.trust-roots, the client \
            credentials), the station's clock against the backend's Date header; then the \
            outbox's records and how long the oldest has waited (needs the outbox key: run as \
            root). Exits 0 when every check passes, 1 when the worst is a warning, 2 when one failed.
            """
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            let progress = Progress.terminal(json: global.json)
            progress.step("diag backend: the URL, DNS, TCP, TLS and a token, the clock; then the outbox")
            let checks = await Self.checks(configuration, logger: logger)
            progress.finish()
            if global.json { try Output.json(checks) } else { Output.text(DiagnosticTable.lines(checks)) }
            throw ExitCode(DiagnosticTable.exitCode(checks))
        }
    }

    /// The backend's checks, then the outbox's.
    static func checks(_ configuration: Configuration, logger: Logger) async -> [DiagnosticCheck] {
        let client: HTTPVerificationBackend<ContinuousClock>.Configuration
        do {
            client = try StationApp.backendConfiguration(configuration)
        } catch {
            return [DiagnosticCheck("configuration", .fail, error.message, hint: error.hint)]
        }
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let backend = HTTPVerificationBackend(configuration: client, httpClient: httpClient, clock: ContinuousClock(), logger: logger)
        var checks = await BackendDiagnostics(url: configuration.backend.baseURL).run { await backend.diagnose() }
        try? await httpClient.shutdown()
        checks.append(await OutboxDiagnostics.check(configuration, logger: logger))
        return checks
    }
}
