import Capture
import Foundation
import KioskTestKit
import Synchronization
import Logging
@testable import Station
import Testing

/// The vision models as `/health` shows them: loaded, missing, corrupt, or not configured.
@Suite struct ModelStatusTests {
    static let logger = Logger(label: "models-test", factory: { _ in SwiftLogNoOpLogHandler() })

    func status(folder: String?) -> ModelStatus {
        capture(folder: folder).mrzModelStatus
    }

    func capture(folder: String?) -> CameraCapture {
        var settings = CameraCapture.Settings(name: "file:/nonexistent")
        settings.modelsFolder = folder
        return CameraCapture(settings: settings, flash: nil, preview: PreviewFeed(), logger: Self.logger)
    }

    @Test("the face models: missing is said with its code, loaded with its time and memory; a face part is refused without them")
    func faceModels() async throws {
        let missing = capture(folder: "/nonexistent/models")
        #expect(!missing.faceModelStatus.available)
        #expect(missing.faceModelStatus.detail?.hasPrefix("model-missing") == true)
        let health = StationHealth(live: true, ready: true, phase: "idle", devices: [], outbox: nil, heartbeatAge: 0, models: [missing.faceModelStatus])
        #expect(health.statusLine.contains("MISSING"))
        // The face step is refused with the models' error, not attempted.
        let events = Mutex<[CaptureEvent]>([])
        await missing.capture(CaptureRequest(mode: .faceLiveness, part: .face, trigger: CaptureTrigger(), useFlash: false)) { event in
            events.withLock { $0.append(event) }
        }
        let lost = events.withLock { $0.compactMap { if case .lost(let reason) = $0 { reason } else { nil } } }
        #expect(lost.count == 1 && lost[0].contains("model-missing") == false && lost[0].contains("is missing"))
        guard FacePhotos.models != nil else { return }
        let loaded = capture(folder: VisionCrops.models).faceModelStatus
        #expect(loaded.available)
        #expect((loaded.loadMilliseconds ?? 0) > 0)
        #expect(loaded.memoryBytes == 9_150_489 + 22_466_066)
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
