import ArgumentParser
import Foundation
import Station
import Vision

/// `idkiosk diag models`: the vision models the station loads, loaded here the same way.
struct DiagModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "Check the vision models: present, the files the station expects, loadable.",
        discussion: """
            Loads the MRZ model and the face models from vision.models (or --models) as the \
            station does at start, and says for each whether it is usable, how long loading \
            took and what it costs in memory, or what is wrong with it and what to do \
            (docs/vision-models.md). Exits 0 when every model loads, 78 when one is missing \
            or refused.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "The folder of the vision models (default: vision.models).")
    var models: String?

    struct Report: Encodable {
        var name: String
        var available: Bool
        var loadMilliseconds: Double?
        var memoryBytes: Int?
        var code: String?
        var detail: String?
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, _) = try global.start()
            let folder = models ?? configuration.vision.models
            var reports: [Report] = []
            let start = ContinuousClock.now
            do throws(MRZModelError) {
                _ = try MRZModel(folder: folder)
                let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + MRZModel.fileName)[.size]) as? Int
                reports.append(Report(
                    name: MRZModel.fileName, available: true, loadMilliseconds: DocumentFrameReport.milliseconds(ContinuousClock.now - start),
                    memoryBytes: size))
            } catch {
                reports.append(Report(name: MRZModel.fileName, available: false, code: error.code, detail: "\(error)"))
            }
            do throws(FaceModelError) {
                let face = try FaceModels(folder: folder)
                reports.append(Report(
                    name: "face models (\(FaceModels.landmarksFileName), \(FaceModels.embeddingFileName))", available: true,
                    loadMilliseconds: DocumentFrameReport.rounded(face.cost.milliseconds, 1), memoryBytes: face.cost.fileBytes))
            } catch {
                reports.append(Report(name: "face models", available: false, code: error.code, detail: "\(error)"))
            }
            if global.json {
                try Output.json(reports)
            } else {
                Output.text(["models in \(folder):"] + reports.map { report in
                    report.available
                        ? "  \(report.name): ok, loaded in \(report.loadMilliseconds ?? 0) ms, \(String(format: "%.1f", Double(report.memoryBytes ?? 0) / 1e6)) MB"
                        : "  \(report.name): \(report.code ?? "unusable"): \(report.detail ?? "")"
                })
            }
            if reports.contains(where: { !$0.available }) {
                throw CommandFailure(
                    .badConfiguration, "a vision model cannot be used",
                    hint: "make vision-models (a development tree), or reinstall the package; vision.models names the folder")
            }
        }
    }
}
