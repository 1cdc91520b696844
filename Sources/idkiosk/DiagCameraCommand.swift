import ArgumentParser
import Camera
import Capture
import Station

struct DiagCameraCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camera",
        abstract: "Check the cameras: devices, modes, controls and a test capture.",
        discussion: """
            Lists every video node with its driver, stable names, modes and controls, the \
            mode chosen for document, preview and face capture, and reads --frames frames in \
            the preview mode: frames delivered and dropped, the frame rate measured from \
            their timestamps, mean brightness and sharpness of the last one. No image is \
            written. Exits 69 when no camera is there, 74 when one fails.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var camera: CameraOptions

    @Option(name: .long, help: "Frames to read in the test capture (0-300; 0 skips it).")
    var frames = 30

    @Option(name: .long, help: "Limit on waiting for one frame, in milliseconds (100-60000).")
    var frameTimeoutMs = 2000

    func validate() throws {
        guard (0...300).contains(frames) else { throw ValidationError("--frames must be between 0 and 300") }
        guard (100...60_000).contains(frameTimeoutMs) else { throw ValidationError("--frame-timeout-ms must be between 100 and 60000") }
    }

    func run() async throws {
        try await reportingFailures {
            let (configuration, logger) = try global.start()
            var wanted: String?
            if camera.camera != nil || !configuration.camera.name.isEmpty {
                switch try camera.choose(configuration) {
                case .recording:
                    throw CommandFailure(.badInput, "diag camera examines camera devices, not recordings", hint: "use `idkiosk capture --camera file:PATH --out FILE.jpg` to read a recording")
                case .device(let name):
                    do throws(CameraError) {
                        wanted = try CameraDiscovery.resolve(name)
                    } catch {
                        throw CommandFailure(error)
                    }
                }
            }
            var report = await Progress.terminal(json: global.json).run("diag camera: the devices, their modes and a test capture of \(frames) frames each") {
                CameraDiagnostics.report(streamCheckFrames: frames, timeout: .milliseconds(frameTimeoutMs), logger: logger)
            }
            if let wanted { report.devices = report.devices.filter { $0.info.path == wanted } }
            if global.json { try Output.json(report) } else { Output.text(Self.describe(report)) }

            guard report.devices.contains(where: \.info.isCapture) else {
                if let wanted {
                    throw CommandFailure(.deviceMissing, "\(wanted) is not a video capture device", hint: CameraError(kind: .notACaptureDevice, message: "").hint)
                }
                throw CommandFailure(
                    .deviceMissing, "no camera: the kernel shows no video capture device",
                    hint: "connect the camera and check `dmesg` for the uvcvideo driver; `ls /dev/video*` should list it")
            }
            for device in report.devices where device.info.isCapture {
                if let error = device.error ?? device.streamCheck?.error { throw CommandFailure(error) }
            }
        }
    }

    static func describe(_ report: CameraDiagnosticReport) -> [String] {
        var lines = ["video nodes: \(report.devices.count)"]
        if report.devices.isEmpty { lines.append("  (none)") }
        for device in report.devices {
            let info = device.info
            lines.append("- \(info.path): \(info.card) (\(info.driver) \(info.driverVersion), \(info.busInfo))")
            for name in info.stableNames { lines.append("    also: \(name)") }
            guard info.isCapture else {
                lines.append("    not a capture node (\(info.capabilities.joined(separator: ", ")))")
                continue
            }
            if let e = device.error {
                lines.append("    error: \(e.message)" + (e.call.map { " (\($0))" } ?? ""))
                lines.append("    hint: \(e.hint)")
                continue
            }
            lines.append("    modes: \(device.modes.count)")
            lines += modeSummary(device.modes).map { "      \($0)" }
            lines.append("    controls: \(device.controls.count)")
            for c in device.controls {
                let station = c.station.map { " [\($0.rawValue)]" } ?? ""
                let current = c.current.map { " = \($0)" } ?? ""
                let state = c.info.isInactive ? " (inactive)" : c.info.isReadOnly ? " (read-only)" : ""
                lines.append("      \(c.info.name)\(station): \(c.info.minimum)...\(c.info.maximum), default \(c.info.defaultValue)\(current)\(state)")
            }
            for purpose in CapturePurpose.allCases {
                lines.append("    \(purpose.rawValue) mode: " + (device.negotiated[purpose.rawValue].map { "\($0)" } ?? "none suitable"))
            }
            if let check = device.streamCheck {
                lines.append("    test capture (\(check.mode)): \(check.framesDelivered) of \(check.framesRequested) frames, \(check.framesDropped) dropped, \(check.timeouts) timeouts")
                if let fps = check.measuredFramesPerSecond { lines.append("      measured: \(fmt(fps)) fps (mode: \(fmt(check.mode.framesPerSecond)))") }
                if let luma = check.meanLuma {
                    lines.append("      brightness: \(fmt(luma)) of 255" + (luma < 16 ? " (very dark: lens covered or no light?)" : luma > 240 ? " (very bright: overexposed?)" : ""))
                }
                if let sharpness = check.sharpness { lines.append("      sharpness: \(fmt(sharpness)) (variance of the Laplacian; higher is sharper)") }
                if let e = check.error { lines.append("      error: \(e.message)" + (e.call.map { " (\($0))" } ?? "")) }
            }
        }
        return lines
    }

    /// One line per format and size with its frame rates, fastest first.
    static func modeSummary(_ modes: [CaptureMode]) -> [String] {
        var order: [String] = []
        var rates: [String: [Double]] = [:]
        for mode in modes {
            let key = "\(mode.format) \(mode.width)x\(mode.height)"
            if rates[key] == nil { order.append(key) }
            rates[key, default: []].append(mode.framesPerSecond)
        }
        return order.map { key in
            "\(key) @ " + (rates[key] ?? []).sorted(by: >).map(fmt).joined(separator: ", ") + " fps"
        }
    }

    private static func fmt(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))" : "\(tenths)"
    }
}
