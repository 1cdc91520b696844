import CV4L2
import Glibc

/// Finds capture devices and resolves stable names to device nodes.
///
/// A camera can be named by its node (`/dev/video0`), a udev link
/// (`/dev/v4l/by-id/usb-...-video-index0`), `bus:` and its bus position
/// (`bus:usb-0000:00:14.0-2`, works without udev) or `card:` and its name
/// (`card:vivid`). Node numbers change on replug; the other names do not.
public enum CameraDiscovery {
    /// Every /dev/video* node with what it says about itself; nodes that cannot be
    /// queried (permissions, races with unplug) are left out.
    public static func list(deviceDirectory: String = "/dev") -> [CaptureDeviceInfo] {
        let links = stableLinks(deviceDirectory: deviceDirectory)
        let nodes = Sys.listDirectory(deviceDirectory).filter { $0.hasPrefix("video") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
        return nodes.compactMap { name in
            let path = deviceDirectory + "/" + name
            return try? query(path: path, stableNames: links[path] ?? []).get()
        }
    }

    /// The capture devices only.
    public static func captureDevices(deviceDirectory: String = "/dev") -> [CaptureDeviceInfo] {
        list(deviceDirectory: deviceDirectory).filter(\.isCapture)
    }

    /// The node a name stands for now.
    /// - Throws: `CameraError` `.notFound` when nothing by that name is present.
    public static func resolve(_ name: String, deviceDirectory: String = "/dev") throws(CameraError) -> String {
        if name.hasPrefix("bus:") || name.hasPrefix("card:") {
            let bus = name.hasPrefix("bus:")
            let wanted = String(name.drop(while: { $0 != ":" }).dropFirst())
            if let match = captureDevices(deviceDirectory: deviceDirectory).first(where: { (bus ? $0.busInfo : $0.card) == wanted }) {
                return match.path
            }
            throw CameraError(kind: .notFound, message: "no capture device with \(bus ? "bus position" : "name") \(wanted)")
        }
        guard let real = Sys.realPath(name) else {
            throw CameraError(kind: .notFound, call: "realpath", errno: ENOENT, message: "\(name) does not exist")
        }
        return real
    }

    static func query(path: String, stableNames: [String]) -> SysResult<CaptureDeviceInfo> {
        Sys.open(path, flags: O_RDWR | O_NONBLOCK).flatMap { fd in
            defer { Sys.close(fd) }
            return V4L2.queryCapability(fd).map { describe($0, path: path, stableNames: stableNames) }
        }
    }

    static func describe(_ cap: v4l2_capability, path: String, stableNames: [String]) -> CaptureDeviceInfo {
        let caps = cap.capabilities & cv4l2_cap_device_caps() != 0 ? cap.device_caps : cap.capabilities
        var names: [String] = []
        if caps & cv4l2_cap_video_capture() != 0 { names.append("videoCapture") }
        if caps & cv4l2_cap_video_capture_mplane() != 0 { names.append("videoCaptureMultiplane") }
        if caps & cv4l2_cap_meta_capture() != 0 { names.append("metadataCapture") }
        if caps & cv4l2_cap_streaming() != 0 { names.append("streaming") }
        if caps & cv4l2_cap_readwrite() != 0 { names.append("readWrite") }
        let v = cap.version
        return CaptureDeviceInfo(
            path: path, stableNames: stableNames, driver: cString(cap.driver), card: cString(cap.card),
            busInfo: cString(cap.bus_info), driverVersion: "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)",
            isCapture: caps & cv4l2_cap_video_capture() != 0 && caps & cv4l2_cap_streaming() != 0,
            capabilities: names)
    }

    /// Node path to the /dev/v4l links that resolve to it.
    static func stableLinks(deviceDirectory: String) -> [String: [String]] {
        var links: [String: [String]] = [:]
        for folder in ["by-id", "by-path"] {
            let dir = deviceDirectory + "/v4l/" + folder
            for name in Sys.listDirectory(dir) {
                let link = dir + "/" + name
                if let target = Sys.realPath(link) { links[target, default: []].append(link) }
            }
        }
        return links
    }
}
