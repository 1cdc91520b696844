/// An error from the camera layer, carrying what a technician needs to act on it.
///
/// `kind` says what went wrong in station terms; `call` and `errno` name the system
/// call or V4L2 ioctl and its error number when one was involved.
public struct CameraError: Error, Hashable, Sendable, CustomStringConvertible, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// No capture device with that path or stable name exists.
        case notFound
        /// The device node exists but we may not open it.
        case permissionDenied
        /// Another program is streaming from the camera.
        case busy
        /// The camera went away (unplugged, USB reset, driver unbound).
        case unplugged
        /// The camera stopped delivering frames within the time limit.
        case timeout
        /// The device is not a V4L2 capture device, or lacks mmap streaming.
        case notACaptureDevice
        /// No mode the driver offers fits what was asked.
        case noSuitableMode
        /// The driver refused a value (format, control value, ...).
        case invalidArgument
        /// A logical control this camera does not have.
        case controlNotSupported
        /// A file (recording, Y4M, JPEG) could not be read or is malformed.
        case badFile
        /// Compressed frame data could not be decoded or encoded.
        case codec
        /// The pixel format cannot be converted.
        case unsupportedFormat
        /// The camera is not streaming, or was closed.
        case notStreaming
        /// Anything else the kernel reports.
        case failed
    }

    public var kind: Kind
    /// The system call or ioctl involved, e.g. `VIDIOC_DQBUF`.
    public var call: String?
    /// The errno value, when there was one.
    public var errno: Int32?
    /// What happened, in plain words.
    public var message: String

    public init(kind: Kind, call: String? = nil, errno: Int32? = nil, message: String) {
        self.kind = kind
        self.call = call
        self.errno = errno
        self.message = message
    }

    /// Whether trying again, possibly after the hint's action, can succeed.
    public var isRetryable: Bool {
        switch kind {
        case .busy, .unplugged, .timeout, .notStreaming: return true
        case .failed: return errno.map(SystemErrno.isTransient) ?? false
        case .notFound: return true
        case .permissionDenied, .notACaptureDevice, .noSuitableMode, .invalidArgument, .controlNotSupported,
            .badFile, .codec, .unsupportedFormat:
            return false
        }
    }

    /// What a technician should do about it.
    public var hint: String {
        switch kind {
        case .notFound:
            return "check the camera's USB cable; `idkiosk diag camera` lists the capture devices the kernel sees"
        case .permissionDenied:
            return "add the idkiosk user to the `video` group (or install deploy/udev rules) and log in again"
        case .busy:
            return "another program holds the camera; stop it (`fuser -v /dev/video*` names it)"
        case .unplugged:
            return "the camera went away: check its USB cable and hub power; idkiosk reopens it by its stable name"
        case .timeout:
            return "the camera stopped delivering frames: unplug and replug it; check hub power and USB bandwidth"
        case .notACaptureDevice:
            return "this node is not a camera's capture node (UVC cameras also expose a metadata node); use the one `idkiosk diag camera` marks as capture"
        case .noSuitableMode:
            return "the camera offers no mode good enough for this purpose; `idkiosk diag camera` lists its modes"
        case .invalidArgument:
            return "the driver refused the value; `idkiosk diag camera` lists the ranges it accepts"
        case .controlNotSupported:
            return "this camera has no such control; remove it from the configuration"
        case .badFile:
            return "the file is missing or not in the expected format (Y4M, MJPEG or JPEG)"
        case .codec:
            return "the camera sent a corrupt JPEG frame: usually USB bandwidth; try a lower resolution"
        case .unsupportedFormat:
            return "choose a camera mode in YUYV, NV12, GREY, I420 or MJPEG"
        case .notStreaming:
            return "start the stream before reading frames; reopen the camera after an error"
        case .failed:
            return "see the errno; unplugging and replugging the camera clears most driver errors"
        }
    }

    public var description: String {
        var s = message
        if let call {
            s += " (\(call)"
            if let errno { s += ": \(SystemErrno.name(errno))" }
            s += ")"
        }
        return s
    }
}
