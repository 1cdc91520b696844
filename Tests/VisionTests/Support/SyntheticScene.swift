import Foundation
import Imaging
import Vision

/// Camera frames drawn here with known geometry: a grey platen with camera noise, and a
/// rectangle of a document's size placed in space and projected through a pinhole camera.
///
/// These test the geometry against corners known exactly; the detection figures come from
/// the generated scenes of scripts/vision-data (see VisionDataTests and the benchmark).
struct SyntheticScene {
    var width = 1280
    var height = 720
    var horizontalFieldOfView = 60.0
    /// Platen luma and noise amplitude.
    var background: UInt8 = 80
    var noise = 6

    /// Where a document of `size` millimetres lies: its centre at `distance` mm on the axis
    /// shifted by `offset` mm, tilted about its horizontal axis and rotated in its plane.
    struct Placement {
        var size: (width: Double, height: Double)
        var distance = 220.0
        var offset = (x: 0.0, y: 0.0)
        var tiltDegrees = 0.0
        var rotationDegrees = 0.0
    }

    var focalLength: Double { DocumentPose.focalLength(width: width, horizontalFieldOfView: horizontalFieldOfView) }

    /// The document's corners in the image (top-left, top-right, bottom-right, bottom-left).
    func corners(_ placement: Placement) -> Quadrilateral {
        let (w, h) = (placement.size.width / 2, placement.size.height / 2)
        let tilt = placement.tiltDegrees * .pi / 180, rotation = placement.rotationDegrees * .pi / 180
        let points = [(-w, -h), (w, -h), (w, h), (-w, h)].map { (x, y) -> Point in
            // Rotate in the plane, tilt about the x axis, then place and project.
            let xr = x * cos(rotation) - y * sin(rotation), yr = x * sin(rotation) + y * cos(rotation)
            let yt = yr * cos(tilt), zt = yr * sin(tilt)
            let X = xr + placement.offset.x, Y = yt + placement.offset.y, Z = placement.distance + zt
            return Point(x: Double(width - 1) / 2 + focalLength * X / Z, y: Double(height - 1) / 2 + focalLength * Y / Z)
        }
        return Quadrilateral(points)
    }

    /// An empty platen; `seed` varies the noise.
    func platen(seed: UInt64) -> LumaImage {
        var random = seed &* 6364136223846793005 &+ 1442695040888963407
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                random = random &* 6364136223846793005 &+ 1442695040888963407
                let n = Int((random >> 33) % UInt64(2 * noise + 1)) - noise
                let shade = Int(background) + (x * 12 / width) - 6 + n
                pixels[y * width + x] = UInt8(clamping: shade)
            }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    /// `quadrilaterals` filled on the platen: a bright page with darker text-like bars, or
    /// `luma` for a plain object.
    func frame(seed: UInt64, pages: [Quadrilateral], luma: UInt8? = nil) -> LumaImage {
        var image = platen(seed: seed)
        for page in pages { fill(&image, page, luma: luma) }
        return image
    }

    func fill(_ image: inout LumaImage, _ quadrilateral: Quadrilateral, luma: UInt8?) {
        let c = quadrilateral.corners
        let xs = c.map(\.x), ys = c.map(\.y)
        let x0 = max(0, Int(xs.min()!.rounded(.down))), x1 = min(width - 1, Int(xs.max()!.rounded(.up)))
        let y0 = max(0, Int(ys.min()!.rounded(.down))), y1 = min(height - 1, Int(ys.max()!.rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        var pixels = image.pixels
        for y in y0...y1 {
            for x in x0...x1 {
                let p = Point(x: Double(x), y: Double(y))
                guard Self.contains(c, p) else { continue }
                if let luma {
                    pixels[y * width + x] = luma
                } else {
                    // Text-like bars every 14 rows in the page's own coordinates (roughly).
                    let u = (p.x - c[0].x), v = (p.y - c[0].y)
                    let bar = (Int((v * 0.9 + u * 0.05).magnitude) / 7) % 2 == 0 && Int(u.magnitude) % 40 < 30
                    pixels[y * width + x] = bar ? 120 : 225
                }
            }
        }
        image.pixels = pixels
    }

    /// Whether `p` lies inside the convex, clockwise polygon `c`.
    static func contains(_ c: [Point], _ p: Point) -> Bool {
        for i in c.indices {
            let a = c[i], b = c[(i + 1) % c.count]
            if (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0 { return false }
        }
        return true
    }
}
