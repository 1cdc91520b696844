import Capture
import Foundation
import Logging
@testable import Station
import Testing

/// The vision models as `/health` shows them: loaded, missing, corrupt, or not configured.
@Suite struct ModelStatusTests {
    static let logger = Logger(label: "models-test", factory: { _ in SwiftLogNoOpLogHandler() })

    func status(folder: String?) -> ModelStatus {
        var settings = CameraCapture.Settings(name: "file:/nonexistent")
        settings.modelsFolder = folder
        return CameraCapture(settings: settings, flash: nil, preview: PreviewFeed(), logger: Self.logger).mrzModelStatus
    }

    @Test func aMissingOrCorruptModelIsSaidWithItsCodeAndPath() throws {
        let missing = status(folder: "/nonexistent/models")
        #expect(!missing.available)
        #expect(missing.detail?.hasPrefix("model-missing") == true)
        #expect(missing.detail?.contains("/nonexistent/models") == true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-models-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: folder + "/mrz-ocrb-v1.bin"))
        let corrupt = status(folder: folder)
        #expect(!corrupt.available)
        #expect(corrupt.detail != nil)
        #expect(!status(folder: nil).available)
        let health = StationHealth(live: true, ready: true, phase: "idle", devices: [], outbox: nil, heartbeatAge: 0, models: [missing])
        #expect(health.statusLine.contains("model mrz-ocrb-v1.bin MISSING"))
    }
}
