import CQREncode

/// A QR code (ISO/IEC 18004) of a text, made by libqrencode: its modules, and the same drawn
/// as an SVG document or a luma image with the quiet zone the standard asks for.
///
/// The station shows the Digital Identity hand-off's address this way so that a phone's
/// camera opens it. The text is kept only as modules; it is personal (a one-time token), so
/// the code prints its size, never its text.
public struct QRCode: Hashable, Sendable, CustomStringConvertible {
    /// How much of the code may be damaged or covered and still read (the standard's levels).
    public enum ErrorCorrection: Hashable, Sendable, CaseIterable {
        /// About 7 %: `QR_ECLEVEL_L`.
        case low
        /// About 15 %: `QR_ECLEVEL_M`.
        case medium
        /// About 25 %: `QR_ECLEVEL_Q`.
        case quartile
        /// About 30 %: `QR_ECLEVEL_H`.
        case high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// The quiet zone the standard asks for around the symbol, in modules.
    public static let quietZone = 4

    /// The symbol version, 1...40: the size is `17 + 4 × version` modules.
    public let version: Int
    /// Modules per side, without the quiet zone.
    public let size: Int
    /// Row-major, `size × size`; `true` is a dark module.
    public let modules: [Bool]

    /// Encodes `text` as bytes (UTF-8) at the smallest version that holds it.
    /// - Throws: `ImagingError` `.invalidArgument` naming `QRcode_encodeString8bit`: the text is
    ///   empty, holds a NUL, or is longer than a QR code holds at this level.
    public init(_ text: String, errorCorrection: ErrorCorrection = .medium) throws(ImagingError) {
        guard !text.isEmpty, !text.utf8.contains(0) else {
            throw ImagingError(kind: .invalidArgument, call: "QRcode_encodeString8bit", message: "a QR code needs a non-empty text without NUL bytes")
        }
        let encoded = try QREncodeCalls.encode(text, level: errorCorrection.level).get()
        version = encoded.version
        size = encoded.width
        modules = encoded.dark
    }

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) it is light.
    public subscript(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// The code as a grey image: `scale` pixels per module, the quiet zone around it,
    /// dark modules 0 and light 255.
    public func image(scale: Int = 8, quietZone: Int = QRCode.quietZone) -> LumaImage {
        let scale = max(scale, 1), quiet = max(quietZone, 0)
        let side = (size + 2 * quiet) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<size {
            for x in 0..<size where modules[y * size + x] {
                let left = (x + quiet) * scale, top = (y + quiet) * scale
                for row in top..<(top + scale) {
                    pixels.replaceSubrange((row * side + left)..<(row * side + left + scale), with: repeatElement(0, count: scale))
                }
            }
        }
        return LumaImage(width: side, height: side, pixels: pixels)
    }

    /// The code as an SVG document: one module is one user unit, the quiet zone included in
    /// the view box, so it scales to any size without blur; dark runs of a row are one rectangle.
    /// - Parameter label: the image's accessible name (`<title>` and `aria-label`), escaped.
    public func svg(label: String, quietZone: Int = QRCode.quietZone) -> String {
        let quiet = max(quietZone, 0)
        let side = size + 2 * quiet
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard modules[y * size + x] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size, modules[y * size + x] { x += 1 }
                path += "M\(start + quiet) \(y + quiet)h\(x - start)v1h-\(x - start)z"
            }
        }
        let name = Self.escaped(label)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" role="img" aria-label="\(name)">\
            <title>\(name)</title><rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    public var description: String { "QRCode(version \(version), \(size)x\(size))" }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
