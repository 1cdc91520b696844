import ArgumentParser
import Foundation
import SmartCard
import Station

/// `idkiosk serve`: the station daemon.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the station: reader, camera, flash, the journey loop, the display and /health, /metrics.",
        discussion: """
            Runs until SIGTERM or SIGINT, which cancel and wipe a journey in progress; the \
            outbox keeps what it holds for the next start. Under systemd (Type=notify) it sends \
            READY=1 once the devices were looked at and the servers listen, WATCHDOG=1 while the \
            station loop is healthy, and STATUS= lines. docs/operators.md describes a station's set-up.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Let a scripted person run this many journeys from the idle screen (demos and tests).")
    var autopilot = 0

    @Option(name: .long, help: "How long the scripted person looks at each screen, in milliseconds.")
    var autopilotPauseMs = 700

    @Flag(name: .long, help: "With --autopilot: stop after the scripted journeys and the result screen.")
    var exitAfterAutopilot = false

    func validate() throws {
        guard autopilot >= 0 else { throw ValidationError("--autopilot takes a number of journeys (0 or more)") }
        guard (0...10_000).contains(autopilotPauseMs) else { throw ValidationError("--autopilot-pause-ms must be 0 to 10000") }
        if exitAfterAutopilot && autopilot == 0 { throw ValidationError("--exit-after-autopilot needs --autopilot N") }
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            let display = configuration.display
            let app = StationApp(
                configuration: configuration,
                options: .init(
                    autopilotJourneys: autopilot, autopilotPause: .milliseconds(autopilotPauseMs),
                    onListening: { displayPort, statusPort in
                        Output.text([
                            "display: http://\(display.host):\(displayPort)/",
                            "health:  http://\(configuration.status.host):\(statusPort)/health  metrics: /metrics",
                        ])
                    },
                    onAutopilot: { report in
                        switch report {
                        case .finished(let result):
                            Output.text(["autopilot: the journey " + (result.isSuccess ? "succeeded" : "ended with \(result.error?.code ?? "no code")")])
                        case .decision(let reference, let decision?):
                            Output.text(["backend decision for \(reference): \(decision)"])
                        case .decision(let reference, nil):
                            Output.text(["reference \(reference): the backend has not decided yet"])
                        case .done:
                            if exitAfterAutopilot { kill(getpid(), SIGTERM) }
                        }
                    }),
                logger: logger)
            // The reader monitor's thread must leave libpcsclite before the process exits.
            defer { ReaderMonitor.waitUntilStopped() }
            do {
                try await app.run()
            } catch let error as StationApp.StartError {
                throw CommandFailure(.badConfiguration, error.message, hint: error.hint)
            } catch {
                // The servers could not listen (the port is taken, the address is not this
                // machine's): the station cannot serve.
                throw CommandFailure(
                    .deviceError, "the station stopped: \(error)",
                    hint: "is another program listening on display.port \(display.port) or status.port \(configuration.status.port)? `ss -ltnp` shows it")
            }
        }
    }
}
