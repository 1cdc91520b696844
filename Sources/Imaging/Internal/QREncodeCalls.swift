import CQREncode
import Glibc

/// The one place that calls libqrencode.
enum QREncodeCalls {
    /// Encodes `text` as 8-bit bytes at the smallest version that holds it.
    ///
    /// - Returns: the version and the square matrix, row-major, `true` for a dark module.
    static func encode(_ text: String, level: QRecLevel) -> ImagingResult<(version: Int, width: Int, dark: [Bool])> {
        errno = 0
        // Version 0: the smallest that fits. QR_MODE_8 with case sensitivity: the bytes as they are.
        guard let code = QRcode_encodeString8bit(text, 0, level) else {
            let number = errno
            let message = switch number {
            case ERANGE: "the text is too long for a QR code (\(text.utf8.count) bytes)"
            case EINVAL: "libqrencode refused the input"
            case ENOMEM: "out of memory"
            default: "failed (errno \(number))"
            }
            return .failure(ImagingError(kind: .invalidArgument, call: "QRcode_encodeString8bit", message: message))
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let bit = cqrencode_dark_bit()
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        return .success((Int(code.pointee.version), width, modules.map { $0 & bit != 0 }))
    }
}
