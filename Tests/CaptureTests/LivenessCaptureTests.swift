import Camera
@testable import Capture
import Flash
import Foundation
import KioskTestKit
import Logging
import ScanFlow
import Synchronization
import Testing
import Vision

/// The liveness capture loop end to end through the camera pipeline, against the simulated
/// person of scripts/face-data whose frames answer the simulated LED (LitFaceCamera): a live
/// face passes the checks; a print and a screen held up do not.
@Suite(.serialized, .enabled(if: FaceData() != nil && FacePhotos.models != nil, "needs \(FaceData.missing) and \(FacePhotos.modelsMissing)"))
struct LivenessCaptureTests {
    static let logger = Logger(label: "liveness-test", factory: { _ in SwiftLogNoOpLogHandler() })

    final class Events: Sendable {
        let list = Mutex<[CaptureEvent]>([])
        func add(_ event: CaptureEvent) { list.withLock { $0.append(event) } }
        var images: [CapturedImage] { list.withLock { $0.compactMap { if case .image(let i, _) = $0 { i } else { nil } } } }
        var record: LivenessEvidence? { list.withLock { $0.lazy.compactMap { if case .evidence(.liveness(let r)) = $0 { r } else { nil } }.first } }
        var frames: Int { list.withLock { $0.filter { if case .evidence(.livenessFrame) = $0 { true } else { false } }.count } }
        var lost: String? { list.withLock { $0.lazy.compactMap { if case .lost(let reason) = $0 { reason } else { nil } }.first } }
    }

    /// A capture with the simulated LED on `line`, facing the simulated person presenting
    /// `presentation` from a new folder of recordings (the caller removes it).
    static func station(_ presentation: String, line: SimulatedLine) throws -> (folder: String, flash: Flash<ContinuousClock>, capture: CameraCapture) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-lit-\(UUID().uuidString)").path
        try #require(FaceData()).litRecordings(in: folder, presentation: presentation)
        var settings = CameraCapture.Settings(name: "file:\(folder)")
        settings.modelsFolder = VisionCrops.models
        let flash = Flash(line: line, maximumOn: .seconds(2), clock: ContinuousClock(), logger: logger)
        return (folder, flash, CameraCapture(settings: settings, flash: flash, preview: PreviewFeed(), logger: logger))
    }

    /// Runs a faceLiveness capture of `presentation` until the face image is kept; with
    /// `portrait`, the chip portrait of that person (scripts/face-data's DG2 image).
    func run(_ presentation: String, line: SimulatedLine, portrait: String? = nil) async throws -> Events {
        let (folder, _, capture) = try Self.station(presentation, line: line)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let events = Events()
        let chip = try portrait.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(FaceData()).station + "/\($0)-dg2.jpg"))) }
        await capture.capture(CaptureRequest(mode: .faceLiveness, part: .face, trigger: CaptureTrigger(), useFlash: true, portrait: chip)) { events.add($0) }
        return events
    }

    @Test("the best face image against the chip's portrait: the person's own is a match, another person's is not")
    func theBestFaceIsComparedWithTheChipsPortrait() async throws {
        let own = try #require(try await run("genuine", line: SimulatedLine(), portrait: "collins").record)
        #expect(own.match?.outcome == .match, "\(String(describing: own.match))")
        #expect((own.match?.similarity ?? 0) > 0.5)
        // Another person's portrait is never a match. Which frame is the best one depends on
        // the random challenge, and this pair of generated people can come within the review
        // band (distance 0.6 ± 0.04): review, or no match.
        let other = try #require(try await run("genuine", line: SimulatedLine(), portrait: "hopper").record)
        #expect([.noMatch, .review].contains(other.match?.outcome), "\(String(describing: other.match))")
        #expect((other.match?.similarity ?? 1) < (own.match?.similarity ?? 0))
    }

    @Test("a live face: the LED follows a random challenge, the person turns when asked, the checks pass, the frames and the record go as evidence")
    func liveFacePasses() async throws {
        let line = SimulatedLine()
        let events = try await run("genuine", line: line)
        #expect(events.lost == nil, "\(events.lost ?? "")")
        let record = try #require(events.record)
        #expect(record.result.decision == .live, "\(record.result)")
        // No chip portrait given: nothing compared.
        #expect(record.match == nil)
        #expect(events.images.first?.side == .face)
        #expect(events.frames == record.frames.count && record.frames.count >= 25)
        #expect(record.frames.contains { $0.lit == true } && record.frames.contains { $0.lit == false })
        #expect(record.frames.contains { $0.phase == "turn" })
        // The LED went on and off as the challenge said (a third of 10 slots lit at least,
        // never more than two in a row: lit at least twice), and is off at the end.
        #expect(line.transitions.filter { $0 }.count >= 2)
        #expect(!line.isOn)
        let updates = events.list.withLock { $0.compactMap { if case .update(let u) = $0 { u } else { nil } } }
        #expect(updates.contains(.flash(.on)) && updates.contains(.flash(.off)))
        #expect(updates.contains { if case .extractionState(.tiltFace) = $0 { true } else { false } })
    }

    @Test("the camera's automatic exposure is held from the challenge's first light to the end of the capture, then released")
    func theExposureIsHeldForTheChallenge() async throws {
        let line = SimulatedLine()
        let (folder, flash, capture) = try Self.station("genuine", line: line)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = try LitFaceCamera(folder: folder + "/face-lit", clock: ContinuousClock()) { await flash.isOn }
        try await camera.start()
        let events = Events()
        await capture.runLiveness(
            source: camera, request: CaptureRequest(mode: .faceLiveness, part: .face, trigger: CaptureTrigger(), useFlash: true),
            models: try FaceModels(folder: VisionCrops.models)) { events.add($0) }
        #expect(events.record?.result.decision == .live)
        #expect(line.transitions.filter { $0 }.count >= 2)
        // Every frame the LED lit was made with the exposure held; it is free again after.
        #expect(camera.litFramesWithFreeExposure == 0)
        #expect(!camera.isExposureHeld)
    }

    @Test("a print held up: it answers the light evenly and does not turn like a head: not live", arguments: ["print", "screen"])
    func attacksFail(presentation: String) async throws {
        let line = SimulatedLine()
        let events = try await run(presentation, line: line)
        #expect(events.lost == nil, "\(events.lost ?? "")")
        let record = try #require(events.record)
        #expect(record.result.decision != .live, "\(presentation): \(record.result)")
        #expect(!line.isOn)
    }

    @Test("cancelled mid-challenge (the person walked away, the journey timed out): the LED is off, no face image is kept")
    func cancelledMidChallenge() async throws {
        let line = SimulatedLine()
        let (folder, _, capture) = try Self.station("genuine", line: line)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let events = Events()
        let task = Task {
            await capture.capture(CaptureRequest(mode: .faceLiveness, part: .face, trigger: CaptureTrigger(), useFlash: true)) { events.add($0) }
        }
        // Until the LED has been lit once: the challenge runs.
        for _ in 0..<600 where !line.transitions.contains(true) { try await Task.sleep(for: .milliseconds(10)) }
        try #require(line.transitions.contains(true))
        task.cancel()
        await task.value
        #expect(!line.isOn)
        #expect(events.images.isEmpty)
        #expect(events.record == nil)
    }
}
