public import Imaging

/// The face of the test passports: a deterministic drawing of a head and shoulders
/// (background gradient, shoulders, neck, ears, a shaded head oval, hair, eyes with iris and
/// pupil, eyebrows, nose, mouth) with sensor-like noise, encoded as a real baseline JPEG
/// with the Imaging module's TurboJPEG encoder, at the size of a real DG2 portrait
/// (480 × 640, about 25 KB).
public enum SyntheticFace {
    public static let width = 480
    public static let height = 640
    /// The JPEG quality of ``jpeg()``.
    public static let quality = 80

    /// The encoded face, made once per process.
    /// - Throws: ``ImagingError`` when TurboJPEG fails.
    public static func jpeg() throws(ImagingError) -> [UInt8] {
        try encoded.get()
    }

    private static let encoded: Result<[UInt8], ImagingError> = Result { () throws(ImagingError) -> [UInt8] in
        try JPEGCodec().encode(picture(), quality: quality)
    }

    /// The same face as JPEG 2000 (a JP2 file, lossy at 40:1, about 23 KB), as some states
    /// store it; made once per process with OpenJPEG.
    /// - Throws: ``ImagingError`` when OpenJPEG fails.
    public static func jpeg2000() throws(ImagingError) -> [UInt8] {
        try encoded2000.get()
    }

    private static let encoded2000: Result<[UInt8], ImagingError> = Result { () throws(ImagingError) -> [UInt8] in
        try JPEG2000.encode(picture(), format: .jp2, ratio: 40)
    }

    /// The drawing as RGB.
    public static func picture() -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var noise: UInt64 = 0x5EED_FACE
        for y in 0..<height {
            for x in 0..<width {
                var (r, g, b) = colour(x: Double(x), y: Double(y))
                noise = noise &* 6364136223846793005 &+ 1442695040888963407
                let grain = Double(Int(truncatingIfNeeded: (noise >> 33) & 0x0F) - 8) * 0.45
                r += grain
                g += grain
                b += grain
                let i = (y * width + x) * 3
                pixels[i] = clamp(r)
                pixels[i + 1] = clamp(g)
                pixels[i + 2] = clamp(b)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private static func clamp(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }

    /// (x−cx)²/rx² + (y−cy)²/ry²: below 1 inside the ellipse.
    private static func ellipse(_ x: Double, _ y: Double, _ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) -> Double {
        let dx = (x - cx) / rx
        let dy = (y - cy) / ry
        return dx * dx + dy * dy
    }

    private static func colour(x: Double, y: Double) -> (Double, Double, Double) {
        let skin = (226.0, 178.0, 146.0)
        // Light from the upper left: a factor for shading.
        func lit(_ base: (Double, Double, Double), _ shade: Double) -> (Double, Double, Double) {
            (base.0 * shade, base.1 * shade, base.2 * shade)
        }
        let head = ellipse(x, y, 240, 300, 118, 158)
        // Eyes, brows, nose, mouth on the face.
        if head < 1 {
            for cx in [192.0, 288.0] {
                let eye = ellipse(x, y, cx, 292, 24, 11)
                if eye < 1 {
                    let iris = ellipse(x, y, cx + 2, 292, 10, 10)
                    if ellipse(x, y, cx - 1, 289, 3, 3) < 1 { return (250, 250, 250) }  // highlight
                    if iris < 0.16 { return (20, 16, 14) }  // pupil
                    if iris < 1 { return (78 + 20 * iris, 98 + 20 * iris, 70) }
                    return (236 - 20 * eye, 232 - 20 * eye, 226 - 20 * eye)
                }
                let brow = ellipse(x, y, cx, 262, 32, 7)
                if brow < 1 && y < 264 { return (74 + 30 * brow, 52 + 20 * brow, 40 + 16 * brow) }
            }
            let mouth = ellipse(x, y, 240, 408, 36, 9)
            if mouth < 1 { return (176 - 40 * (1 - mouth), 86 - 20 * (1 - mouth), 84 - 20 * (1 - mouth)) }
            for cx in [229.0, 251.0] where ellipse(x, y, cx, 366, 6, 3.5) < 1 { return (120, 78, 64) }
            // The nose: a shadow down its right side.
            let noseShadow = x > 244 && x < 256 && y > 300 && y < 362 ? 0.9 : 1.0
            // Shading: brighter towards the upper left, darker at the rim.
            let shade = (1.06 - 0.22 * head - 0.0009 * (x - 200) - 0.0004 * (y - 260)) * noseShadow
            let cheek = max(0, 1 - ellipse(x, y, 182, 350, 30, 20)) + max(0, 1 - ellipse(x, y, 298, 350, 30, 20))
            var face = lit(skin, shade)
            face.0 += 14 * cheek
            // Hair: over the forehead.
            let hairline = 196 + 14 * ((x - 240) / 118) * ((x - 240) / 118) * 4
            if y < hairline { return hair(x: x, y: y) }
            return face
        }
        // Hair around the top of the head.
        if ellipse(x, y, 240, 282, 136, 178) < 1 && y < 330 { return hair(x: x, y: y) }
        // Ears.
        for cx in [120.0, 360.0] where ellipse(x, y, cx, 310, 15, 32) < 1 { return lit(skin, 0.88) }
        // Neck, then shoulders.
        if x > 196 && x < 284 && y > 420 && y < 560 { return lit(skin, 0.8 - 0.1 * (y - 420) / 140) }
        let shoulders = ellipse(x, y, 240, 720, 270, 200)
        if shoulders < 1 { return (40 + 20 * shoulders, 52 + 20 * shoulders, 86 + 24 * shoulders) }
        // Background: a pale vertical gradient.
        let t = y / Double(height)
        return (204 - 30 * t, 212 - 28 * t, 222 - 22 * t)
    }

    private static func hair(x: Double, y: Double) -> (Double, Double, Double) {
        // Strands: a slow wave across x.
        let strand = (Int(x + 6 * sinApprox(y / 17)) / 5) % 3
        let base = 58.0 + Double(strand) * 8
        return (base, base * 0.72, base * 0.55)
    }

    /// A sine good enough for strands, without Foundation.
    private static func sinApprox(_ value: Double) -> Double {
        let twoPi = 6.283185307179586
        var v = value.truncatingRemainder(dividingBy: twoPi)
        if v > twoPi / 2 { v -= twoPi }
        if v < -twoPi / 2 { v += twoPi }
        return v - v * v * v / 6 + v * v * v * v * v / 120
    }
}
