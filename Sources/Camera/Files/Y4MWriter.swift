import Glibc
public import Imaging

/// Records raw frames to a Y4M file (`idkiosk capture --record`).
///
/// YUYV is written as C422, NV12 and I420 as C420jpeg, GREY as Cmono, so a recording
/// replays with the same pixels through `FileCamera`.
public final class Y4MWriter {
    public let path: String
    public let header: Y4MHeader
    public private(set) var framesWritten = 0

    /// Creates (or truncates) the file and writes the header.
    /// - Throws: `.unsupportedFormat` for formats Y4M cannot hold; errors of open/write.
    public init(path: String, mode: CaptureMode) throws(CameraError) {
        guard let colorSpace = Y4MHeader.colorSpace(for: mode.format) else {
            throw CameraError(kind: .unsupportedFormat, message: "cannot record \(mode.format) frames as Y4M")
        }
        self.path = path
        header = Y4MHeader(width: mode.width, height: mode.height, interval: mode.interval, colorSpace: colorSpace)
        try Sys.writeFile(path, Array(header.line.utf8), append: false).get()
    }

    public func append(_ frame: Frame) throws(CameraError) {
        guard let planes = header.planes(from: frame) else {
            throw CameraError(kind: .unsupportedFormat, message: "frame \(frame.format) \(frame.width)x\(frame.height) does not fit \(header.line)")
        }
        try Sys.writeFile(path, Array("FRAME\n".utf8) + planes, append: true).get()
        framesWritten += 1
    }
}
