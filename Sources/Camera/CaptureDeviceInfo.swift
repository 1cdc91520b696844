/// What `VIDIOC_QUERYCAP` and the stable-name links say about a video node.
public struct CaptureDeviceInfo: Hashable, Sendable, Codable {
    /// The device node, e.g. `/dev/video0`.
    public var path: String
    /// Links in /dev/v4l/by-id and /dev/v4l/by-path that point at the node.
    public var stableNames: [String]
    public var driver: String
    /// The device's name, e.g. `HD Pro Webcam C920` or `vivid`.
    public var card: String
    /// Where it hangs, e.g. `usb-0000:00:14.0-2`; stable across reopen.
    public var busInfo: String
    public var driverVersion: String
    /// Whether the node captures video with mmap streaming (UVC cameras also expose
    /// a metadata node that does not).
    public var isCapture: Bool
    /// The capability names, e.g. `videoCapture`, `streaming`.
    public var capabilities: [String]

    public init(
        path: String, stableNames: [String], driver: String, card: String, busInfo: String, driverVersion: String,
        isCapture: Bool, capabilities: [String]
    ) {
        self.path = path
        self.stableNames = stableNames
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.driverVersion = driverVersion
        self.isCapture = isCapture
        self.capabilities = capabilities
    }

    /// The best name to reopen this camera by: a by-id link, else `bus:` and the bus
    /// position, else the node path.
    public var preferredName: String {
        stableNames.first(where: { $0.contains("/by-id/") }) ?? (busInfo.isEmpty ? path : "bus:\(busInfo)")
    }
}
