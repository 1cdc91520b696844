import Glibc

/// Names and classes of errno values for messages; the numbers come from Glibc.
enum SystemErrno {
    static func name(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "ENOENT"
        case ENODEV: return "ENODEV"
        case ENXIO: return "ENXIO"
        case EIO: return "EIO"
        case EBUSY: return "EBUSY"
        case EACCES: return "EACCES"
        case EPERM: return "EPERM"
        case EINVAL: return "EINVAL"
        case EAGAIN: return "EAGAIN"
        case ENOTTY: return "ENOTTY"
        case ENOMEM: return "ENOMEM"
        case EPIPE: return "EPIPE"
        case ERANGE: return "ERANGE"
        default: return "errno \(code)"
        }
    }

    static func isTransient(_ code: Int32) -> Bool {
        code == EAGAIN || code == EIO || code == ENOMEM
    }

    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

extension CameraError {
    /// Maps an errno from `call` on a device to a station-level error.
    init(call: String, errno code: Int32, path: String? = nil) {
        let kind: Kind
        switch code {
        case ENOENT: kind = .notFound
        case ENODEV, ENXIO: kind = .unplugged
        case EACCES, EPERM: kind = .permissionDenied
        case EBUSY: kind = .busy
        case EINVAL, ERANGE: kind = .invalidArgument
        case ENOTTY: kind = .notACaptureDevice
        default: kind = .failed
        }
        let text = SystemErrno.message(code)
        self.init(kind: kind, call: call, errno: code, message: path.map { "\($0): \(text)" } ?? text)
    }
}
