import ArgumentParser
import Station

struct DiagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diag",
        abstract: "Check the station's devices and its backend.",
        subcommands: [DiagNFCCommand.self, DiagCameraCommand.self, DiagFlashCommand.self, DiagModelsCommand.self, DiagBackendCommand.self, DiagAllCommand.self]
    )
}

struct DiagNFCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nfc",
        abstract: "Check pcscd, the contactless readers and the card on them.",
        discussion: """
            Lists the readers pcscd sees, whether a card is present, its ATR and what it \
            means, the reader's features, and the round-trip time of a harmless command \
            (SELECT of the eMRTD application). Exits 69 when pcscd or the reader is missing \
            (or the card, with --require-card), 74 when the card does not answer.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Only readers whose name contains this text (default: reader.name from the configuration).")
    var reader: String?

    @Option(name: .long, help: "How many times to send the probe command (1-100).")
    var samples = 5

    @Flag(name: .long, help: "Fail (exit 69) when no card is on the reader.")
    var requireCard = false

    func validate() throws {
        guard (1...100).contains(samples) else { throw ValidationError("--samples must be between 1 and 100") }
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            let pattern = reader ?? (configuration.reader.name.isEmpty ? nil : configuration.reader.name)
            let report = await Progress.terminal(json: global.json).run("diag nfc: asking pcscd for the readers; a card's ATR and \(samples) round trips") {
                await NFCDiagnostics(readerPattern: pattern, samples: samples, timeout: configuration.reader.transmitTimeout, logger: logger).run()
            }
            if global.json { try Output.json(report) } else { Output.text(Self.describe(report)) }

            if let pattern, report.service.reachable, report.readers.isEmpty {
                throw CommandFailure(
                    .deviceMissing, "no reader matches '\(pattern)'",
                    hint: "run `idkiosk diag nfc --reader ''` to list every reader pcscd sees")
            }
            if let problem = report.problem { throw CommandFailure(problem) }
            if requireCard && !report.readers.contains(where: \.cardPresent) {
                throw CommandFailure(.deviceMissing, "no card on the reader", hint: "place the document on the reader")
            }
            if let failing = report.readers.compactMap(\.card).first(where: { $0.error != nil }) {
                throw CommandFailure(.deviceError, failing.error ?? "card error", hint: failing.hint)
            }
        }
    }

    static func describe(_ report: NFCReport) -> [String] {
        guard report.service.reachable else {
            return ["pcscd: NOT reachable (\(report.service.error ?? "unknown error"))"]
        }
        var lines = ["pcscd: running", "readers: \(report.readers.count)"]
        if report.readers.isEmpty { lines.append("  (none attached)") }
        for reader in report.readers {
            lines.append("- \(reader.name)")
            guard reader.cardPresent else {
                lines.append("    card: none" + (reader.cardMute ? " (a card is there but mute)" : ""))
                continue
            }
            lines.append("    card: present" + (reader.heldExclusively ? ", held exclusively by another program" : ""))
            guard let card = reader.card else { continue }
            lines.append("    ATR: \(card.atr)")
            lines += card.atrExplanation.map { "      \($0)" }
            if let p = card.activeProtocol { lines.append("    protocol: \(p)") }
            if let v = card.vendor { lines.append("    reader vendor: \(v)") }
            lines.append("    reader features: " + (card.features.isEmpty ? "none reported" : card.features.joined(separator: ", ")))
            if let rt = card.roundTrip {
                lines.append(
                    "    round trip: \(fmt(rt.medianMilliseconds)) ms median (min \(fmt(rt.minimumMilliseconds)), max \(fmt(rt.maximumMilliseconds)), \(rt.samples) samples)"
                )
                lines.append("      probe answered \(rt.status): \(rt.meaning)")
            }
            if let e = card.error { lines.append("    error: \(e)") }
        }
        return lines
    }

    private static func fmt(_ ms: Double) -> String {
        let tenths = (ms * 10).rounded() / 10
        return "\(tenths)"
    }
}
