import ArgumentParser

/// The `idkiosk` command: the station daemon and a technician's tools.
@main
struct IDKiosk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idkiosk",
        abstract: "Controller of unattended identity-verification kiosks.",
        discussion: "Exit status: 0 ok, 64 bad input, 65 document failed a check, 69 device missing, 70 internal error, 73 cannot create an output file, 74 device error, 78 bad configuration (docs/cli.md).",
        version: BuildInfo.version,
        subcommands: [
            ServeCommand.self, VersionCommand.self, DiagCommand.self, ReadChipCommand.self, CaptureCommand.self, AnalyzeCommand.self, MatchCommand.self, LEDCommand.self,
            SimCommand.self, SupportBundleCommand.self,
        ]
    )
}
