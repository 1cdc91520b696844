import CV4L2
import Glibc
public import Imaging

/// A V4L2 video output node fed with write(2): the writing side of a loopback device
/// (v4l2loopback), so a recording or generated frames appear as a camera to any program,
/// and tests know exactly which pixels a capture must deliver.
public final class V4L2Output {
    public let path: String
    public private(set) var mode: CaptureMode?
    private var fd: Int32

    /// Opens an output node.
    /// - Throws: `.notFound`, `.permissionDenied`, or `.notACaptureDevice` when the node has no video output.
    public init(path: String) throws(CameraError) {
        self.path = path
        fd = try Sys.open(path, flags: O_RDWR).get()
        let cap: v4l2_capability
        switch V4L2.queryCapability(fd) {
        case .success(let c): cap = c
        case .failure(let e):
            Sys.close(fd)
            throw e
        }
        let caps = cap.capabilities & cv4l2_cap_device_caps() != 0 ? cap.device_caps : cap.capabilities
        guard caps & cv4l2_cap_video_output() != 0 else {
            Sys.close(fd)
            throw CameraError(kind: .notACaptureDevice, call: "VIDIOC_QUERYCAP", message: "\(path) has no video output")
        }
    }

    deinit {
        Sys.close(fd)
    }

    /// Sets the format frames will be written in; for MJPEG each write is one JPEG image
    /// of at most two bytes per pixel.
    @discardableResult
    public func configure(_ wanted: CaptureMode) throws(CameraError) -> CaptureMode {
        var format = try V4L2.getFormat(fd, type: cv4l2_buf_type_video_output()).get()
        format.fmt.pix.width = UInt32(wanted.width)
        format.fmt.pix.height = UInt32(wanted.height)
        format.fmt.pix.pixelformat = wanted.format.rawValue
        format.fmt.pix.field = cv4l2_field_none()
        format.fmt.pix.bytesperline = UInt32(PixelFormat.packedBytesPerLine(wanted.format, width: wanted.width))
        format.fmt.pix.sizeimage = UInt32(
            PixelFormat.minimumFrameBytes(wanted.format, bytesPerLine: Int(format.fmt.pix.bytesperline), height: wanted.height)
                ?? wanted.width * wanted.height * 2)
        let got = try V4L2.setFormat(fd, format).get()
        let actual = CaptureMode(
            format: PixelFormat(rawValue: got.fmt.pix.pixelformat), width: Int(got.fmt.pix.width), height: Int(got.fmt.pix.height),
            interval: wanted.interval)
        mode = actual
        return actual
    }

    /// Writes one frame.
    public func write(_ frame: Frame) throws(CameraError) {
        try Sys.write(fd, frame.bytes).get()
    }
}
