import Camera
import Foundation
import KioskTestKit
import Synchronization
import Testing

/// The simulated person's camera: its automatic exposure makes up for a lit LED within a
/// few frames, unless the exposure is held (as a UVC camera switched to manual keeps it).
@Suite(.enabled(if: FaceData() != nil, "needs \(FaceData.missing)"))
struct LitFaceCameraTests {
    /// The metered brightness of `count` frames, the LED lit from the third frame on.
    func brightness(holding: Bool, automaticExposure: Bool = true, count: Int = 10) async throws -> [Double] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-lit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(FaceData()).litRecordings(in: folder, presentation: "genuine")
        let frameNumber = Mutex(0)
        let camera = try LitFaceCamera(folder: folder + "/face-lit", framesPerSecond: 200, clock: ContinuousClock(), automaticExposure: automaticExposure) {
            frameNumber.withLock { $0 } >= 2
        }
        try await camera.start()
        var means: [Double] = []
        var hold: ExposureHold?
        for index in 0..<count {
            frameNumber.withLock { $0 = index }
            if index == 2, holding { hold = camera.holdExposure() }
            let frame = try await camera.nextFrame(timeout: .seconds(2))
            means.append(LitFaceCamera<ContinuousClock>.meteredMean(frame.bytes, width: frame.width, height: frame.height))
        }
        if let hold { camera.release(hold) }
        #expect(!camera.isExposureHeld)
        camera.stop()
        return means
    }

    @Test func theAutomaticExposureMakesUpForTheLEDUnlessHeld() async throws {
        let free = try await brightness(holding: false)
        let held = try await brightness(holding: true)
        let none = try await brightness(holding: false, automaticExposure: false)
        // The LED brightens the face; without automatic exposure it stays so.
        #expect(none[2] > none[1] * 1.05, "\(none)")
        #expect(none[9] > none[1] * 1.05, "\(none)")
        // Free, the exposure brings the brightness back towards the room's within a few frames.
        #expect(free[9] - free[1] < (free[2] - free[1]) / 3, "\(free)")
        // Held from the first lit frame, it keeps the LED's brightening.
        #expect(held[9] > held[1] * 1.05, "\(held)")
        #expect(abs(held[9] - none[9]) < (none[9] - none[1]) / 3, "held \(held), none \(none)")
    }
}
