public import Imaging

/// The PDF417 on the back of a North American card, read the station's way: the card's
/// perspective-corrected crop (the document finder's corners) at a fixed scale, so the
/// symbol stands straight, flat and at a known module size whatever the card's pose; when
/// that crop does not decode, once more sharpened (an unsharp mask), for a slightly blurred card.
///
/// Chosen on the generated train split (docs/vision-data.md, "Barcode data"), at the true
/// corners: crops at 8, 10, 12, 14, 16 and 20 px/mm decoded 99, 101, 100, 101, 101 and 100
/// of its 126 backs, so the finder's own crop scale (10) is kept; the sharpened second try
/// brought 101 to 104.
public struct CardBarcodeReader: Sendable {
    /// The crop's scale.
    public var pixelsPerMillimetre: Double
    /// Whether a crop that does not decode is tried again sharpened.
    public var sharpenedSecondTry: Bool
    public let reader: PDF417Reader

    public init(
        pixelsPerMillimetre: Double = DocumentClass.cropPixelsPerMillimetre, sharpenedSecondTry: Bool = true,
        options: PDF417Reader.Options = PDF417Reader.Options(tryRotate: false, tryDownscale: false)
    ) {
        self.pixelsPerMillimetre = pixelsPerMillimetre
        self.sharpenedSecondTry = sharpenedSecondTry
        reader = PDF417Reader(options: options)
    }

    /// The symbol on the card lying at `quadrilateral` in `frame` (a corner may lie outside
    /// the frame); nil when none decodes.
    public func read(_ frame: LumaImage, card quadrilateral: Quadrilateral, as documentClass: DocumentClass = .td1) throws(VisionError) -> PDF417Symbol? {
        let crop = try DocumentFinder.crop(frame, quadrilateral, as: documentClass, pixelsPerMillimetre: pixelsPerMillimetre)
        if let symbol = try reader.read(crop) { return symbol }
        guard sharpenedSecondTry else { return nil }
        return try reader.read(Self.sharpened(crop))
    }

    /// An unsharp mask: twice the image less its Gaussian blur (sigma 1 pixel, the binomial
    /// kernel 1 4 6 4 1 in each direction), clamped to 0...255.
    public static func sharpened(_ image: LumaImage) -> LumaImage {
        let width = image.width, height = image.height
        guard width > 0, height > 0 else { return image }
        let kernel: [Int] = [1, 4, 6, 4, 1]
        var rows = [Int](repeating: 0, count: width * height)
        var out = [UInt8](repeating: 0, count: width * height)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let row = y * width
                for x in 0..<width {
                    var sum = 0
                    for k in -2...2 { sum += kernel[k + 2] * Int(p[row + min(max(x + k, 0), width - 1)]) }
                    rows[row + x] = sum
                }
            }
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0
                    for k in -2...2 { sum += kernel[k + 2] * rows[min(max(y + k, 0), height - 1) * width + x] }
                    let blurred = (sum + 128) / 256
                    out[y * width + x] = UInt8(clamping: 2 * Int(p[y * width + x]) - blurred)
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }
}
