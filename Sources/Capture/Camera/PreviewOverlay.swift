import Imaging
import Vision

/// The document's outline drawn on the preview the display shows: where the station sees
/// the document, green once it is placed well, amber while the person is still guided.
/// It is drawn into the preview's pixels, so the Default UI and any Custom UI show it
/// without a new event; the images taken never carry it.
struct PreviewOverlay: Sendable {
    /// The outline in the frame's pixels, and the frame's size.
    var quadrilateral: Quadrilateral
    var frameWidth: Int
    var frameHeight: Int
    var placed: Bool

    static let placedColour: (UInt8, UInt8, UInt8) = (40, 200, 90)
    static let guidingColour: (UInt8, UInt8, UInt8) = (245, 170, 30)

    /// Draws the outline on `image` (the preview: the frame scaled to its width), three pixels wide.
    func draw(on image: inout RGBImage) {
        guard frameWidth > 0, frameHeight > 0, image.width > 0 else { return }
        let sx = Double(image.width) / Double(frameWidth), sy = Double(image.height) / Double(frameHeight)
        let colour = placed ? Self.placedColour : Self.guidingColour
        let corners = quadrilateral.corners.map { (x: $0.x * sx, y: $0.y * sy) }
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up)) + 1
            for k in 0...steps {
                let t = Double(k) / Double(steps)
                let x = Int((a.x + (b.x - a.x) * t).rounded()), y = Int((a.y + (b.y - a.y) * t).rounded())
                for dy in -1...1 {
                    for dx in -1...1 {
                        let px = x + dx, py = y + dy
                        guard px >= 0, py >= 0, px < image.width, py < image.height else { continue }
                        let p = (py * image.width + px) * 3
                        image.pixels[p] = colour.0
                        image.pixels[p + 1] = colour.1
                        image.pixels[p + 2] = colour.2
                    }
                }
            }
        }
    }
}
