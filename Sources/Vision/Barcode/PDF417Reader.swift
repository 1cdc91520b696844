public import Imaging

/// A decoded PDF417 symbol: its bytes as encoded, and where it lies in the image read.
///
/// The bytes are personal data on an identity card (the AAMVA record): never logged;
/// ``description`` says only the length.
public struct PDF417Symbol: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The symbol's bytes (no character-set conversion).
    public var bytes: [UInt8]
    /// The symbol's corners in the image read, top-left, top-right, bottom-right,
    /// bottom-left as the symbol reads.
    public var corners: [Point]

    public init(bytes: [UInt8], corners: [Point]) {
        self.bytes = bytes
        self.corners = corners
    }

    /// The bytes as text, one character per byte (ISO 8859-1; AAMVA records are ASCII).
    public var text: String { String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) }

    public var description: String { "PDF417Symbol(\(bytes.count) bytes, <redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// PDF417 decoding with ZXing-C++ (Debian's libzxing 1.4, through `CZXing`).
///
/// Stateless: one call reads one image. The station reads the perspective-corrected crop
/// of a card's back (``CardBarcodeReader``); the benchmark's baseline reads the whole frame.
public struct PDF417Reader: Sendable {
    /// How hard ZXing looks; the defaults are the library's own.
    public struct Options: Hashable, Sendable {
        /// More scan lines and both polarities.
        public var tryHarder = true
        /// Also the image turned by 90 degrees.
        public var tryRotate = true
        /// Also downscaled copies of a large image.
        public var tryDownscale = true

        public init(tryHarder: Bool = true, tryRotate: Bool = true, tryDownscale: Bool = true) {
            self.tryHarder = tryHarder
            self.tryRotate = tryRotate
            self.tryDownscale = tryDownscale
        }
    }

    public let options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// ZXing-C++'s version, e.g. `1.4.0`.
    public static var libraryVersion: String { ZXing.version }

    /// The first PDF417 symbol in `image`; nil when none decodes.
    public func read(_ image: LumaImage) throws(VisionError) -> PDF417Symbol? {
        try ZXing.readPDF417(image, options: options).get()
    }
}
