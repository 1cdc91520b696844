import ArgumentParser

/// `idkiosk analyze`: what the station's vision makes of stills, recordings and cameras.
struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Show what the station's vision sees in stills, recordings or a camera.",
        subcommands: [AnalyzeDocumentCommand.self, AnalyzeFaceCommand.self]
    )
}
