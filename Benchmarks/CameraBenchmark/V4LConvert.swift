import CV4LConvert
import Glibc
import Imaging

/// A failed libv4lconvert call: its name and libv4lconvert's own message.
struct V4LConvertError: Error, CustomStringConvertible {
    var call: String
    var message: String
    var description: String { "\(message) (\(call))" }
}

/// libv4lconvert, the baseline: one function per C call.
final class V4LConvert {
    private let handle: OpaquePointer

    /// - Throws: `V4LConvertError` when libv4lconvert cannot make its context.
    init() throws(V4LConvertError) {
        // No device: the conversions do not need one; the shim stands in for it.
        guard let handle = Self.create() else {
            throw V4LConvertError(call: "v4lconvert_create_with_dev_ops", message: "libv4lconvert could not make a context")
        }
        self.handle = handle
    }

    deinit { Self.destroy(handle) }

    /// The libv4lconvert fourcc of the destinations the benchmark asks for.
    enum Destination {
        /// Planar 4:2:0: the luma plane first, then the chroma the luma path does not need.
        case yuv420
        case rgb24

        var fourcc: UInt32 { self == .rgb24 ? cv4lconvert_pix_fmt_rgb24() : cv4lconvert_pix_fmt_yuv420() }
        func size(width: Int, height: Int) -> Int { self == .rgb24 ? width * height * 3 : width * height * 3 / 2 }
    }

    /// Converts a YUYV or MJPEG frame into `destination`.
    /// - Returns: the bytes written.
    /// - Throws: `V4LConvertError` with libv4lconvert's own message.
    func convert(_ frame: Frame, to destination: Destination, into buffer: inout [UInt8]) throws(V4LConvertError) -> Int {
        var source = Self.format(fourcc: frame.format == .mjpeg ? cv4lconvert_pix_fmt_mjpeg() : cv4lconvert_pix_fmt_yuyv(), frame: frame)
        source.fmt.pix.bytesperline = frame.format == .mjpeg ? 0 : UInt32(frame.bytesPerLine)
        source.fmt.pix.sizeimage = UInt32(frame.bytes.count)
        var target = Self.format(fourcc: destination.fourcc, frame: frame)
        let needed = destination.size(width: frame.width, height: frame.height)
        target.fmt.pix.bytesperline = destination == .rgb24 ? UInt32(frame.width * 3) : UInt32(frame.width)
        target.fmt.pix.sizeimage = UInt32(needed)
        if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
        let written = Self.convert(handle, &source, &target, frame.bytes, &buffer)
        guard written >= 0 else {
            throw V4LConvertError(call: "v4lconvert_convert", message: Self.errorMessage(handle))
        }
        return Int(written)
    }

    private static func format(fourcc: UInt32, frame: Frame) -> v4l2_format {
        var f = v4l2_format()
        f.type = cv4lconvert_buf_type_video_capture()
        f.fmt.pix.width = UInt32(frame.width)
        f.fmt.pix.height = UInt32(frame.height)
        f.fmt.pix.pixelformat = fourcc
        f.fmt.pix.field = cv4lconvert_field_none()
        return f
    }

    // MARK: The C calls

    private static func create() -> OpaquePointer? {
        cv4lconvert_create_without_device()
    }

    private static func destroy(_ handle: OpaquePointer) {
        v4lconvert_destroy(handle)
    }

    private static func convert(
        _ handle: OpaquePointer, _ source: inout v4l2_format, _ target: inout v4l2_format, _ input: [UInt8], _ output: inout [UInt8]
    ) -> Int32 {
        let outputCount = output.count
        return input.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                v4lconvert_convert(
                    handle, &source, &target, UnsafeMutablePointer(mutating: src.baseAddress), Int32(src.count), dst.baseAddress,
                    Int32(outputCount))
            }
        }
    }

    private static func errorMessage(_ handle: OpaquePointer) -> String {
        v4lconvert_get_error_message(handle).map { String(cString: $0) } ?? "unknown libv4lconvert error"
    }
}

/// CPU time of this process, for CPU time per frame.
enum ProcessCPUTime {
    static func now() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec)
    }
}
