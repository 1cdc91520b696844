public import Camera
import Foundation
public import Logging

/// A camera by the names `camera.name` and `--camera` take: a V4L2 device (a node, a
/// `/dev/v4l` link, `bus:POSITION`, `card:NAME`; empty for the first one) or `file:PATH`, a
/// recording the file camera replays. The station and `idkiosk capture` open it here.
public enum CameraSource: Hashable, Sendable {
    case device(String)
    /// A Y4M or MJPEG file, a folder of JPEGs, or a folder holding `document.*` and `face.*`
    /// recordings (what `idkiosk sim recordings` writes).
    case recording(String)

    public init(name: String) {
        self = name.hasPrefix("file:") ? .recording(String(name.dropFirst("file:".count))) : .device(name)
    }

    /// The name as the configuration writes it.
    public var name: String {
        switch self {
        case .device(let name): name
        case .recording(let path): "file:\(path)"
        }
    }

    /// The recording for a purpose: a file as it is, or from a folder of recordings the one
    /// that fits (`face.*` for faces, `document.*` otherwise); nil for a device.
    public func recording(for purpose: CapturePurpose) -> String? {
        guard case .recording(let path) = self else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return path }
        let stem = purpose == .face ? "face" : "document"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard let match = names.sorted().first(where: { $0.hasPrefix(stem + ".") }) else { return path }
        return path + "/" + match
    }

    /// Opens the device (the first capture device when the name is empty), not yet configured.
    /// - Throws: `CameraError` `.notFound` when there is no camera, and the errors of opening it.
    public func openDevice(logger: Logger) throws(CameraError) -> V4L2Camera {
        guard case .device(let name) = self else {
            throw CameraError(kind: .invalidArgument, message: "\(self.name) is a recording, not a camera")
        }
        if !name.isEmpty { return try V4L2Camera(name: name, logger: logger) }
        guard let first = CameraDiscovery.captureDevices().first else {
            throw CameraError(kind: .notFound, message: "no video capture device")
        }
        return try V4L2Camera(name: first.preferredName, logger: logger)
    }

    /// The simulated person for faces: a folder of recordings holding `face-lit/` (the station
    /// assets of scripts/face-data, ``LitFaceCamera``), or such a folder itself; nil otherwise.
    public func litFace(for purpose: CapturePurpose) -> String? {
        guard purpose == .face, case .recording(let path) = self else { return nil }
        if LitFaceCamera<ContinuousClock>.isAssets(path) { return path }
        return LitFaceCamera<ContinuousClock>.isAssets(path + "/face-lit") ? path + "/face-lit" : nil
    }

    /// Opens the camera for `purpose`, not yet started: a device in the mode that suits it,
    /// or the recording for it, paced on `clock`; for a face, the simulated person of
    /// ``litFace(for:)`` where there is one, lit by `light`.
    /// - Parameters:
    ///   - loops: whether a recording starts again after its last frame.
    ///   - light: whether the station's LED is lit now (the simulated person answers it).
    public func open(
        for purpose: CapturePurpose, loops: Bool, clock: any Clock<Duration>, logger: Logger,
        light: @escaping @Sendable () async -> Bool = { false }
    ) throws(CameraError) -> any FrameSource {
        if let folder = litFace(for: purpose) { return try Self.litCamera(folder, clock: clock, light: light) }
        if let path = recording(for: purpose) { return try Self.fileCamera(path, loops: loops, clock: clock) }
        let camera = try openDevice(logger: logger)
        _ = try camera.configure(for: purpose)
        return camera
    }

    private static func litCamera(_ folder: String, clock: some Clock<Duration>, light: @escaping @Sendable () async -> Bool) throws(CameraError) -> any FrameSource {
        try LitFaceCamera(folder: folder, clock: clock, light: light)
    }

    private static func fileCamera(_ path: String, loops: Bool, clock: some Clock<Duration>) throws(CameraError) -> any FrameSource {
        try FileCamera(path: path, loops: loops, clock: clock)
    }

    /// Whether the camera can be opened now.
    public func probe(logger: Logger) -> DeviceProbe {
        if case .recording(let path) = self {
            return FileManager.default.fileExists(atPath: path)
                ? .ready
                : .unavailable(fault: "the recording \(path) is missing")
        }
        do {
            let camera = try openDevice(logger: logger)
            camera.stop()
            return .ready
        } catch {
            return .unavailable(fault: "\(error.message); run `idkiosk diag camera`")
        }
    }
}
