import Foundation
import Imaging

/// Recordings for the file camera: a passport data page placed on the station's platen, and
/// a face. They are drawn here, not fetched: a page with a guilloche, a photo, text bars and
/// the MRZ in a 5x7 dot font (no MRZ reader reads it: the demo's readable page, in OCR-B,
/// comes from scripts/vision-data); a face as an oval with eyes and a mouth.
public enum DemoRecordings {
    /// Frame size of the document recording.
    static let frameSize = (width: 1280, height: 720)

    /// Writes `document.mjpeg` and `face.mjpeg` into `directory`.
    ///
    /// The document recording is what a fixed camera over the platen sees: the empty platen
    /// (a sixth of the frames), the page sliding in blurred (another sixth), then the page
    /// lying still with a pixel of camera jitter.
    public static func write(to directory: String, mrz: [String], frames: Int = 24) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let codec = JPEGCodec()
        var document: [UInt8] = []
        let page = scaled(dataPage(mrz: mrz), width: 700, height: 481)
        let empty = platen()
        let arriving = max(1, frames / 6)
        for index in 0..<frames {
            var frame = empty
            let (x, y) = (290, 120)
            if index >= 2 * arriving {
                paste(page, into: &frame, x: x + (index % 3) - 1, y: y + (index % 2))
            } else if index >= arriving {
                // Sliding in from the right, out of focus.
                let step = index - arriving + 1
                paste(boxBlur(page, radius: 4), into: &frame, x: x + 600 * (arriving - step + 1) / (arriving + 1), y: y)
            }
            document += try codec.encode(frame, quality: 85)
        }
        try Data(document).write(to: URL(fileURLWithPath: directory + "/document.mjpeg"))
        var face: [UInt8] = []
        for index in 0..<frames {
            face += try codec.encode(portrait(width: 640, height: 480, tilt: (index % 7) - 3), quality: 85)
        }
        try Data(face).write(to: URL(fileURLWithPath: directory + "/face.mjpeg"))
    }

    /// The empty platen: dark matte felt (what docs/vision.md recommends: documents stand out
    /// against it), lighter towards the middle.
    static func platen() -> RGBImage {
        let (width, height) = frameSize
        var image = RGBImage(width: width, height: height)
        image.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let dx = Double(x - width / 2) / Double(width), dy = Double(y - height / 2) / Double(height)
                    let shade = 40 - Int((dx * dx + dy * dy) * 30) + ((x * 7 + y * 13) % 5) - 2
                    let i = (y * width + x) * 3
                    p[i] = UInt8(clamping: shade)
                    p[i + 1] = UInt8(clamping: shade + 2)
                    p[i + 2] = UInt8(clamping: shade + 4)
                }
            }
        }
        return image
    }

    /// `image` resized to `width` x `height` by averaging the source pixels under each target pixel.
    static func scaled(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        var out = RGBImage(width: width, height: height)
        for y in 0..<height {
            let y0 = y * image.height / height, y1 = max(y0 + 1, (y + 1) * image.height / height)
            for x in 0..<width {
                let x0 = x * image.width / width, x1 = max(x0 + 1, (x + 1) * image.width / width)
                for channel in 0..<3 {
                    var sum = 0
                    for sy in y0..<y1 { for sx in x0..<x1 { sum += Int(image.pixels[(sy * image.width + sx) * 3 + channel]) } }
                    out.pixels[(y * width + x) * 3 + channel] = UInt8(sum / ((y1 - y0) * (x1 - x0)))
                }
            }
        }
        return out
    }

    // MARK: Drawing

    static func dataPage(mrz: [String]) -> RGBImage {
        let (width, height) = (1280, 880)
        var image = RGBImage(width: width, height: height)
        image.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    // A pale guilloche: interfering sine waves.
                    let wave = sin(Double(x) / 23 + sin(Double(y) / 41) * 3) + cos(Double(y) / 17 + Double(x) / 97)
                    let base = 226 + Int(wave * 8)
                    let i = (y * width + x) * 3
                    p[i] = UInt8(clamping: base - 6)
                    p[i + 1] = UInt8(clamping: base + 2)
                    p[i + 2] = UInt8(clamping: base + 10)
                }
            }
        }
        // Photo, with a face in it.
        fill(&image, x: 60, y: 120, width: 300, height: 390, rgb: (200, 205, 215))
        paste(portrait(width: 280, height: 370, tilt: 0), into: &image, x: 70, y: 130)
        // Header band and text bars where names and dates would be.
        fill(&image, x: 0, y: 0, width: width, height: 80, rgb: (40, 70, 120))
        for row in 0..<7 {
            fill(&image, x: 420, y: 130 + row * 55, width: 120 + (row * 53) % 260, height: 14, rgb: (70, 70, 80))
            fill(&image, x: 420, y: 150 + row * 55, width: 240 + (row * 97) % 320, height: 20, rgb: (25, 25, 30))
        }
        // The machine-readable zone.
        fill(&image, x: 0, y: 640, width: width, height: 240, rgb: (245, 245, 240))
        for (index, line) in mrz.enumerated() {
            text(line, into: &image, x: 40, y: 680 + index * 90, scale: 4)
        }
        return image
    }

    static func portrait(width: Int, height: Int, tilt: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        let cx = Double(width) / 2 + Double(tilt * 3), cy = Double(height) / 2
        let rx = Double(width) * 0.28, ry = Double(height) * 0.38
        image.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let dx = (Double(x) - cx) / rx, dy = (Double(y) - cy) / ry
                    let inside = dx * dx + dy * dy
                    var rgb: (Int, Int, Int) = (96 + y * 60 / height, 120 + y * 40 / height, 150)  // backdrop
                    if inside < 1 {
                        let shade = Int((1 - inside) * 40)
                        rgb = (190 + shade / 2, 150 + shade / 2, 125 + shade / 3)
                        // Eyes, brows and mouth.
                        for side in [-1.0, 1.0] {
                            let ex = (Double(x) - (cx + side * rx * 0.4)) / (rx * 0.14), ey = (Double(y) - (cy - ry * 0.18)) / (ry * 0.06)
                            if ex * ex + ey * ey < 1 { rgb = (40, 40, 50) }
                            let bx = (Double(x) - (cx + side * rx * 0.4)) / (rx * 0.2), by = (Double(y) - (cy - ry * 0.32)) / (ry * 0.025)
                            if bx * bx + by * by < 1 { rgb = (70, 50, 40) }
                        }
                        let mx = (Double(x) - cx) / (rx * 0.35), my = (Double(y) - (cy + ry * 0.45)) / (ry * 0.05)
                        if mx * mx + my * my < 1 { rgb = (150, 60, 60) }
                    } else if inside < 1.08 {
                        rgb = (60, 45, 35)  // hair line
                    }
                    let i = (y * width + x) * 3
                    p[i] = UInt8(clamping: rgb.0)
                    p[i + 1] = UInt8(clamping: rgb.1)
                    p[i + 2] = UInt8(clamping: rgb.2)
                }
            }
        }
        return image
    }

    static func fill(_ image: inout RGBImage, x: Int, y: Int, width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) {
        for row in max(0, y)..<min(image.height, y + height) {
            for column in max(0, x)..<min(image.width, x + width) {
                let i = (row * image.width + column) * 3
                image.pixels[i] = rgb.0
                image.pixels[i + 1] = rgb.1
                image.pixels[i + 2] = rgb.2
            }
        }
    }

    static func paste(_ source: RGBImage, into image: inout RGBImage, x: Int, y: Int) {
        for row in 0..<source.height where y + row < image.height {
            for column in 0..<source.width where x + column < image.width {
                let s = (row * source.width + column) * 3, t = ((y + row) * image.width + x + column) * 3
                image.pixels[t] = source.pixels[s]
                image.pixels[t + 1] = source.pixels[s + 1]
                image.pixels[t + 2] = source.pixels[s + 2]
            }
        }
    }

    static func text(_ line: String, into image: inout RGBImage, x: Int, y: Int, scale: Int) {
        for (index, character) in line.enumerated() {
            guard let rows = font[character] else { continue }
            let left = x + index * 7 * scale
            for (r, bits) in rows.enumerated() {
                for c in 0..<5 where bits & (0x10 >> c) != 0 {
                    fill(&image, x: left + c * scale, y: y + r * scale, width: scale, height: scale, rgb: (20, 20, 20))
                }
            }
        }
    }

    static func shift(_ image: RGBImage, dx: Int, dy: Int) -> RGBImage {
        var out = RGBImage(width: image.width, height: image.height)
        for y in 0..<image.height {
            let sy = min(max(y - dy, 0), image.height - 1)
            for x in 0..<image.width {
                let sx = min(max(x - dx, 0), image.width - 1)
                let s = (sy * image.width + sx) * 3, t = (y * image.width + x) * 3
                out.pixels[t] = image.pixels[s]
                out.pixels[t + 1] = image.pixels[s + 1]
                out.pixels[t + 2] = image.pixels[s + 2]
            }
        }
        return out
    }

    /// A separable box blur (the document still out of focus).
    static func boxBlur(_ image: RGBImage, radius: Int) -> RGBImage {
        var horizontal = image
        let (w, h) = (image.width, image.height)
        for y in 0..<h {
            for channel in 0..<3 {
                var sum = 0
                for x in -radius...radius { sum += Int(image.pixels[(y * w + min(max(x, 0), w - 1)) * 3 + channel]) }
                for x in 0..<w {
                    horizontal.pixels[(y * w + x) * 3 + channel] = UInt8(sum / (2 * radius + 1))
                    sum += Int(image.pixels[(y * w + min(x + radius + 1, w - 1)) * 3 + channel])
                    sum -= Int(image.pixels[(y * w + max(x - radius, 0)) * 3 + channel])
                }
            }
        }
        var out = horizontal
        for x in 0..<w {
            for channel in 0..<3 {
                var sum = 0
                for y in -radius...radius { sum += Int(horizontal.pixels[(min(max(y, 0), h - 1) * w + x) * 3 + channel]) }
                for y in 0..<h {
                    out.pixels[(y * w + x) * 3 + channel] = UInt8(sum / (2 * radius + 1))
                    sum += Int(horizontal.pixels[(min(y + radius + 1, h - 1) * w + x) * 3 + channel])
                    sum -= Int(horizontal.pixels[(max(y - radius, 0) * w + x) * 3 + channel])
                }
            }
        }
        return out
    }

    /// 5x7 dot glyphs of the MRZ alphabet (A-Z, 0-9, `<`), one row per byte, bit 4 leftmost.
    static let font: [Character: [UInt8]] = [
        "A": [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11], "B": [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E],
        "C": [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E], "D": [0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E],
        "E": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F], "F": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        "G": [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F], "H": [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        "I": [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E], "J": [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C],
        "K": [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11], "L": [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        "M": [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11], "N": [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
        "O": [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E], "P": [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10],
        "Q": [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D], "R": [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11],
        "S": [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E], "T": [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        "U": [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E], "V": [0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04],
        "W": [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A], "X": [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11],
        "Y": [0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04], "Z": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F],
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        "<": [0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02],
    ]
}
