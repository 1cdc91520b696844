import CZXing
import Imaging

/// The one place that calls CZXing: one `idkzx_*` call, its result or a ``VisionError``
/// naming the call.
enum ZXing {
    /// The most bytes a PDF417 symbol holds (about 1,850 text characters; 1,108 bytes in
    /// byte compaction): a buffer of this size never runs short.
    static let capacity = 4096

    static var version: String { String(cString: idkzx_version()) }

    /// The first PDF417 symbol in the image, nil when none decodes.
    static func readPDF417(_ image: LumaImage, options: PDF417Reader.Options) -> Result<PDF417Symbol?, VisionError> {
        guard image.width > 0, image.height > 0, image.pixels.count >= image.width * image.height else {
            return .failure(VisionError(kind: .invalidArgument, call: "idkzx_read_pdf417", message: "empty image or short buffer"))
        }
        var error = idkzx_error()
        var symbol = idkzx_symbol()
        var bytes = [UInt8](repeating: 0, count: capacity)
        let hints = idkzx_options(
            try_harder: options.tryHarder ? 1 : 0, try_rotate: options.tryRotate ? 1 : 0, try_downscale: options.tryDownscale ? 1 : 0)
        let code = image.pixels.withUnsafeBufferPointer { p in
            bytes.withUnsafeMutableBufferPointer { out in
                idkzx_read_pdf417(
                    p.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), hints, out.baseAddress, out.count, &symbol, &error)
            }
        }
        switch Int(code) {
        case Int(IDKZX_OK):
            let c = symbol.corners
            let corners = [(c.0, c.1), (c.2, c.3), (c.4, c.5), (c.6, c.7)].map { Point(x: Double($0.0), y: Double($0.1)) }
            return .success(PDF417Symbol(bytes: Array(bytes.prefix(symbol.length)), corners: corners))
        case Int(IDKZX_NOT_FOUND):
            return .success(nil)
        default:
            let message = withUnsafeBytes(of: error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .failure(VisionError(
                kind: code == IDKZX_INVALID_ARGUMENT ? .invalidArgument : .library, call: "idkzx_read_pdf417", message: message))
        }
    }
}
