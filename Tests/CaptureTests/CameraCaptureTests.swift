import Camera
import Capture
import Flash
import Foundation
import Imaging
import KioskTestKit
import Logging
import MRTD
import ScanFlow
import Synchronization
import Testing
import VirtualPassport

/// The camera pipeline on the demo's recordings through the real file camera: the document
/// gate waits for the page to lie still on the platen and keeps its crop, the chip key comes
/// from the recording's MRZ, the flash/no-flash pair lights the simulated LED, the preview
/// is small.
@Suite struct CameraCaptureTests {
    static let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-recordings-\(UUID().uuidString)").path
        try! DemoRecordings.write(to: path, mrz: DemoPassport.mrz, frames: 12)
        return path
    }()

    static let logger = Logger(label: "capture-test", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The key DemoPassport's MRZ makes.
    static let chipKey = ChipAccessKey.mrz(documentNumber: "D23145890", dateOfBirth: "900101", dateOfExpiry: "341231")

    final class Events: Sendable {
        let list = Mutex<[CaptureEvent]>([])
        func add(_ event: CaptureEvent) { list.withLock { $0.append(event) } }
        var images: [CapturedImage] { list.withLock { $0.compactMap { if case .image(let i, _) = $0 { i } else { nil } } } }
    }

    func run(_ mode: Scan.Mode, part: Credential.Part, flash: Flash<ContinuousClock>? = nil, preview: PreviewFeed = PreviewFeed()) async throws -> Events {
        let capture = CameraCapture(
            settings: .init(name: "file:\(Self.directory)", previewFramesPerSecond: 15, previewWidth: 320),
            flash: flash, preview: preview, logger: Self.logger)
        let events = Events()
        let trigger = CaptureTrigger()
        let task = Task {
            await capture.capture(CaptureRequest(mode: mode, part: part, trigger: trigger, useFlash: flash != nil)) { events.add($0) }
        }
        for _ in 0..<1000 where events.images.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        await task.value
        return events
    }

    @Test func theDataPageIsTakenOnceSharpWithTheChipKeyFromItsMRZ() async throws {
        let preview = PreviewFeed()
        let frames = preview.frames()
        let events = try await run(.docFinder, part: .front, preview: preview)
        let image = try #require(events.images.first)
        #expect(image.side == .front)
        #expect(image.chipAccessKey == Self.chipKey)
        // The image kept is the page's perspective-corrected crop (a TD3 page at 10 px/mm),
        // not the 1280x720 frame.
        let size = try JPEGCodec().size(of: image.bytes)
        #expect(size.width == 1250 && size.height == 880, "\(size)")
        // The platen was empty at first, then the page slid in: the guidance said so.
        let list = events.list.withLock { $0 }
        #expect(list.contains { if case .update(.extractionState(.centerId)) = $0 { true } else { false } })
        #expect(list.contains { if case .update(.extractionState(.holdStill)) = $0 { true } else { false } })
        #expect(list.contains { if case .evidence(.mrz(let lines)) = $0 { lines == DemoPassport.mrz } else { false } })
        // The preview is display-sized, not the capture.
        var iterator = frames.makeAsyncIterator()
        let small = try #require(await iterator.next())
        #expect(try JPEGCodec().size(of: small).width == 320)
    }

    @Test func theFlashPairLightsTheSimulatedLEDAndUploadsTheLitImage() async throws {
        let line = SimulatedLine()
        let flash = Flash(line: line, maximumOn: .seconds(2), clock: ContinuousClock(), logger: Self.logger)
        let events = try await run(.docFinder, part: .front, flash: flash)
        let list = events.list.withLock { $0 }
        let on = list.firstIndex { if case .update(.flash(.on)) = $0 { true } else { false } }
        let off = list.firstIndex { if case .update(.flash(.off)) = $0 { true } else { false } }
        #expect(on != nil && off != nil && on! < off!)
        #expect(list.contains { if case .evidence(.frontWithFlash(let jpeg)) = $0 { jpeg.starts(with: [0xFF, 0xD8]) } else { false } })
        #expect(await flash.isOn == false)
    }

    /// The pause between the sides of a card is a timer on the capture's clock: the
    /// recording is paced on a test clock, and the back is taken no sooner than 1.5 s after
    /// the front, and no later than one more pass of the (looping) recording, in which the
    /// page arrives again, with no sleep in between.
    @Test func theBackIsTakenWhenThePauseIsOverOnTheCapturesClock() async throws {
        let clock = TestClock()
        let capture = CameraCapture(
            settings: .init(name: "file:\(Self.directory)"), flash: nil, preview: PreviewFeed(), clock: clock, logger: Self.logger)
        let images = Mutex<[(side: Credential.Part, at: Duration)]>([])
        let task = Task {
            await capture.capture(CaptureRequest(mode: .docFinder, part: .multipart, trigger: CaptureTrigger(), useFlash: false)) { event in
                if case .image(let image, _) = event { images.withLock { $0.append((image.side, clock.now.offset)) } }
            }
        }
        for _ in 0..<300 where images.withLock({ $0.count }) < 2 {
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(100))
        }
        task.cancel()
        await task.value
        let taken = images.withLock { $0 }
        try #require(taken.count >= 2)
        #expect(taken[0].side == .front)
        #expect(taken[1].side == .back)
        let gap = taken[1].at - taken[0].at
        #expect(gap >= .milliseconds(1500))
        #expect(gap <= .milliseconds(1500) + .milliseconds(100) * 12, "\(gap)")
    }

    @Test func theFaceComesFromTheFaceRecording() async throws {
        let events = try await run(.faceLiveness, part: .face)
        let image = try #require(events.images.first)
        #expect(image.side == .face)
        #expect(image.chipAccessKey == nil)
        #expect(try JPEGCodec().size(of: image.bytes).width == 640)
    }

    @Test func aManualModeWaitsForTheShutter() async throws {
        let capture = CameraCapture(
            settings: .init(name: "file:\(Self.directory)"), flash: nil, preview: PreviewFeed(), logger: Self.logger)
        let events = Events()
        let trigger = CaptureTrigger()
        let task = Task {
            await capture.capture(CaptureRequest(mode: .manual, part: .front, trigger: trigger, useFlash: false)) { events.add($0) }
        }
        for _ in 0..<500 where !events.list.withLock({ $0.contains { if case .started = $0 { true } else { false } } }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(events.images.isEmpty)
        trigger.press()
        for _ in 0..<500 where events.images.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        await task.value
        #expect(events.images.count == 1)
    }

    @Test func aRecordingThatEndsIsACameraLost() async throws {
        let capture = CameraCapture(
            settings: .init(name: "file:\(Self.directory)/face.mjpeg", loopRecordings: false), flash: nil, preview: PreviewFeed(),
            logger: Self.logger)
        let events = Events()
        // Manual mode never captures: the recording runs out.
        await capture.capture(CaptureRequest(mode: .faceManual, part: .face, trigger: CaptureTrigger(), useFlash: false)) { events.add($0) }
        let last = try #require(events.list.withLock { $0.last })
        guard case .lost = last else {
            Issue.record("expected lost, got \(last)")
            return
        }
    }

    @Test func probeReportsAMissingRecording() async {
        let capture = CameraCapture(
            settings: .init(name: "file:/nonexistent/recording.mjpeg"), flash: nil, preview: PreviewFeed(), logger: Self.logger)
        let health = await capture.probe()
        #expect(!health.isReady)
        #expect(health.fault?.contains("/nonexistent/recording.mjpeg") == true)
    }
}
