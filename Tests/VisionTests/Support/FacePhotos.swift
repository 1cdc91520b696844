import Foundation
import Imaging
import KioskTestKit
import Vision

/// A 2-D affine map: x' = a·x + b·y + c, y' = d·x + e·y + f.
struct Affine {
    var a = 1.0, b = 0.0, c = 0.0, d = 0.0, e = 1.0, f = 0.0

    /// Rotation by `degrees` (clockwise on screen, as y points down) and scaling about `centre`, then a shift.
    static func rotation(_ degrees: Double, scale: Double = 1, about centre: Point, shift: Point = Point(x: 0, y: 0)) -> Affine {
        let r = degrees * .pi / 180, cs = cos(r) * scale, sn = sin(r) * scale
        return Affine(
            a: cs, b: -sn, c: centre.x - cs * centre.x + sn * centre.y + shift.x,
            d: sn, e: cs, f: centre.y - sn * centre.x - cs * centre.y + shift.y)
    }

    static func mirror(width: Int) -> Affine { Affine(a: -1, c: Double(width - 1)) }

    func apply(_ p: Point) -> Point { Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f) }

    var inverse: Affine {
        let det = a * e - b * d
        return Affine(a: e / det, b: -b / det, c: (b * f - c * e) / det, d: -d / det, e: a / det, f: (c * d - a * f) / det)
    }

    /// `image` mapped through this transform onto a `width` x `height` canvas of grey `fill` (bilinear).
    func warp(_ image: RGBImage, width: Int, height: Int, fill: UInt8 = 128) -> RGBImage {
        var out = RGBImage(width: width, height: height)
        let back = inverse
        for y in 0..<height {
            for x in 0..<width {
                let s = back.apply(Point(x: Double(x), y: Double(y)))
                let x0 = Int(s.x.rounded(.down)), y0 = Int(s.y.rounded(.down))
                let o = 3 * (y * width + x)
                guard x0 >= 0, y0 >= 0, x0 + 1 < image.width, y0 + 1 < image.height else {
                    out.pixels[o] = fill; out.pixels[o + 1] = fill; out.pixels[o + 2] = fill
                    continue
                }
                let fx = s.x - Double(x0), fy = s.y - Double(y0)
                for ch in 0..<3 {
                    let p00 = Double(image.pixels[3 * (y0 * image.width + x0) + ch]), p10 = Double(image.pixels[3 * (y0 * image.width + x0 + 1) + ch])
                    let p01 = Double(image.pixels[3 * ((y0 + 1) * image.width + x0) + ch]), p11 = Double(image.pixels[3 * ((y0 + 1) * image.width + x0 + 1) + ch])
                    let v = p00 * (1 - fx) * (1 - fy) + p10 * fx * (1 - fy) + p01 * (1 - fx) * fy + p11 * fx * fy
                    out.pixels[o + ch] = UInt8(max(0, min(255, v.rounded())))
                }
            }
        }
        return out
    }
}

extension FaceLandmarks {
    func mapped(_ t: Affine) -> FaceLandmarks {
        FaceLandmarks(
            leftEyeOuter: t.apply(leftEyeOuter), leftEyeInner: t.apply(leftEyeInner), rightEyeInner: t.apply(rightEyeInner),
            rightEyeOuter: t.apply(rightEyeOuter), noseBase: t.apply(noseBase))
    }

    /// The largest distance between corresponding points.
    func largestError(against other: FaceLandmarks) -> Double {
        zip(points, other.points).map { p, q in ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }.max() ?? .infinity
    }
}
