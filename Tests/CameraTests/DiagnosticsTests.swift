import Camera
import Foundation
import Logging
import Testing

@Suite("Camera diagnostics reports")
struct DiagnosticsTests {
    @Test func reportsRoundTripThroughJSON() throws {
        let mode = CaptureMode(format: .yuyv, width: 1280, height: 720, interval: FrameInterval(fps: 30))
        let info = CaptureDeviceInfo(
            path: "/dev/video0", stableNames: ["/dev/v4l/by-id/usb-cam-video-index0"], driver: "uvcvideo", card: "Cam",
            busInfo: "usb-0000:00:14.0-2", driverVersion: "6.1.0", isCapture: true, capabilities: ["videoCapture", "streaming"])
        let report = CameraDiagnosticReport(devices: [
            .init(
                info: info, modes: [mode],
                controls: [.init(station: .brightness, info: ControlInfo(id: 0x0098_0900, name: "Brightness", type: .integer, maximum: 255), current: 128)],
                negotiated: ["preview": mode],
                streamCheck: .init(mode: mode, framesRequested: 3, framesDelivered: 2, framesDropped: 1, timeouts: 1, measuredFramesPerSecond: 29.97, meanLuma: 112, error: .init(CameraError(kind: .timeout, call: "poll", message: "no frame")))),
        ])
        let json = try JSONEncoder().encode(report)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"format\":\"YUYV\""))
        #expect(text.contains("unplug and replug"))  // the timeout's hint travels with it
        #expect(try JSONDecoder().decode(CameraDiagnosticReport.self, from: json) == report)
        #expect(info.preferredName == "/dev/v4l/by-id/usb-cam-video-index0")
    }

    @Test func noVideoNodesGiveAnEmptyReport() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(CameraDiagnostics.report(deviceDirectory: empty.path, logger: Logger(label: "test")).devices == [])
    }

    @Test func unknownNamesAreNotFound() {
        do {
            _ = try V4L2Camera(name: "bus:usb-nowhere", logger: Logger(label: "test"))
            Issue.record("opened a camera that does not exist")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.hint.contains("diag camera"))
        }
    }
}
