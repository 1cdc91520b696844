import ArgumentParser
import Camera
import Capture
import Flash
import Foundation
import Imaging
import Logging
import Station

struct CaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Take one still as JPEG, or record raw video as Y4M.",
        discussion: """
            --out FILE.jpg takes one still in the document mode after a few frames for the \
            exposure to settle (--flash: with the flash LED on). --record FILE --seconds N \
            records raw frames in the preview mode to a Y4M file that --camera file:FILE \
            replays. Images are written only to the file named. Exits 64 for bad options or \
            a file that cannot be written, 69 when the camera is missing, 74 when it fails.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var camera: CameraOptions
    @OptionGroup var flashOptions: FlashOptions

    @Option(name: .long, help: "Write one still, as JPEG, to this file.")
    var out: String?

    @Option(name: .long, help: "Record raw frames, as Y4M, to this file.")
    var record: String?

    @Option(name: .long, help: "How long to record, in seconds (1-600), with --record.")
    var seconds: Int?

    @Flag(name: .long, help: "Take the still with the flash LED on.")
    var flash = false

    @Option(name: .long, help: "JPEG quality (1-100) when the camera does not deliver JPEG itself.")
    var quality = 90

    @Option(name: .long, help: "Frames to drop before the still while exposure settles (0-100).")
    var warmup = 5

    @Option(name: .long, help: "The mode the still is taken in: document (largest), preview or face (720p).")
    var purpose: Purpose = .document

    /// `CapturePurpose` as an argument.
    enum Purpose: String, ExpressibleByArgument, CaseIterable {
        case document, preview, face

        var capturePurpose: CapturePurpose {
            switch self {
            case .document: .document
            case .preview: .preview
            case .face: .face
            }
        }
    }

    @Option(name: .long, help: "Limit on waiting for one frame, in milliseconds (100-60000).")
    var frameTimeoutMs = 2000

    func validate() throws {
        guard (out == nil) != (record == nil) else { throw ValidationError("give exactly one of --out FILE.jpg and --record FILE") }
        if record != nil {
            guard let seconds else { throw ValidationError("--record needs --seconds N") }
            guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be between 1 and 600") }
            if flash { throw ValidationError("--flash goes with --out: the LED may not stay on for a recording") }
        } else if seconds != nil {
            throw ValidationError("--seconds goes with --record")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
        guard (0...100).contains(warmup) else { throw ValidationError("--warmup must be between 0 and 100") }
        guard (100...60_000).contains(frameTimeoutMs) else { throw ValidationError("--frame-timeout-ms must be between 100 and 60000") }
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            let choice = try camera.choose(configuration)
            if let out {
                let flashLine = flash ? try flashOptions.flashConfiguration(configuration) : nil
                let report = try await Progress.terminal(json: global.json).run("capture: opening \(choice.name), \(warmup) warm-up frames, a still") {
                    try await still(choice, to: out, flash: flashLine, logger: logger)
                }
                if global.json { try Output.json(report) } else { Output.text(Self.describe(report, path: out, flash: flash)) }
            } else if let record, let seconds {
                let report = try await Progress.terminal(json: global.json).run("capture: recording \(seconds) s from \(choice.name)") {
                    try recording(choice, to: record, seconds: seconds, logger: logger)
                }
                if global.json { try Output.json(report) } else { Output.text(Self.describe(report, seconds: seconds)) }
            }
        }
    }

    /// One still through the camera code the station uses (``Capture/CameraSource``): a
    /// device in the mode for `--purpose`, or the recording (no warm-up: its frames are as recorded).
    private func still(_ source: CameraSource, to path: String, flash: FlashConfiguration?, logger: Logger) async throws -> CaptureReport {
        let camera: any FrameSource
        do throws(CameraError) {
            camera = try source.open(for: purpose.capturePurpose, loops: false, clock: ContinuousClock(), logger: logger)
        } catch {
            throw CommandFailure(error)
        }
        var lit: Flash<ContinuousClock>?
        if let flash, case .device = source {
            let line: any FlashLine
            do throws(FlashError) {
                line = try flash.makeLine()
            } catch {
                throw CommandFailure(error)
            }
            let led = Flash(line: line, maximumOn: flash.maximumOn, clock: ContinuousClock(), logger: logger)
            do throws(FlashError) {
                try await led.on()
            } catch {
                throw CommandFailure(error)
            }
            lit = led
        }
        let captured: Result<(jpeg: [UInt8], report: CaptureReport), CameraError>
        do throws(CameraError) {
            let name = if case .device(let device) = source { device } else { source.name }
            let warmup = if case .device = source { self.warmup } else { 0 }
            captured = .success(
                try await CameraDiagnostics.captureStill(
                    from: camera, name: name, quality: quality, warmupFrames: warmup, timeout: .milliseconds(frameTimeoutMs)))
        } catch {
            captured = .failure(error)
        }
        if let lit {
            try? await lit.off()
            await lit.shutdown()
        }
        let result: (jpeg: [UInt8], report: CaptureReport)
        switch captured {
        case .success(let r): result = r
        case .failure(let error): throw CommandFailure(error)
        }
        do {
            try Data(result.jpeg).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(.badInput, "cannot write \(path): \((error as NSError).localizedDescription)", hint: "check that the folder exists and is writable")
        }
        return result.report
    }

    private func recording(_ source: CameraSource, to path: String, seconds: Int, logger: Logger) throws -> RecordingReport {
        guard case .device = source else {
            throw CommandFailure(.badInput, "--record reads a camera, not a recording", hint: "name a camera with --camera, e.g. /dev/video0 or card:NAME")
        }
        do throws(CameraError) {
            let device = try source.openDevice(logger: logger)
            let raw = try device.modes().filter { Y4MHeader.colorSpace(for: $0.format) != nil }
            guard let mode = negotiateMode(raw, for: .preview) else {
                throw CameraError(kind: .noSuitableMode, message: "\(device.info.card) offers no raw mode to record as Y4M")
            }
            let frames = max(1, Int((Double(seconds) * mode.framesPerSecond).rounded()))
            return try CameraDiagnostics.record(device, to: path, frames: frames, mode: mode, timeout: .milliseconds(frameTimeoutMs))
        } catch {
            throw CommandFailure(error)
        }
    }

    static func describe(_ report: CaptureReport, path: String, flash: Bool) -> [String] {
        [
            "camera: \(report.camera)",
            "mode: \(report.mode)",
            "wrote \(path): \(report.jpegBytes) bytes JPEG" + (report.mode.format.isCompressed ? " (as the camera sent it)" : " (quality \(report.quality))"),
            "frame \(report.sequence) after \(report.warmupFrames) warm-up frames" + (flash ? ", flash on" : ""),
        ]
    }

    static func describe(_ report: RecordingReport, seconds: Int) -> [String] {
        [
            "camera: \(report.camera)",
            "mode: \(report.mode)",
            "wrote \(report.path): \(report.framesWritten) frames (\(seconds) s) as Y4M",
            "dropped \(report.statistics.framesDropped), timeouts \(report.statistics.timeouts)",
        ]
    }
}
