import Foundation
import Imaging
import KioskTestKit
import Vision

/// Real face photographs that Debian packages ship (docs/vision-models.md), with landmarks
/// annotated by hand on the original pixels, and the face models of `make vision-models`.
enum FacePhotos {
    /// Eileen Collins, NASA portrait (public domain), in python3-skimage.
    static let astronautPath = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png"
    /// Grace Hopper, US Navy portrait (public domain), in python-matplotlib-data.
    static let hopperPath = "/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg"
    /// A photograph with no face (skimage's coffee cup).
    static let coffeePath = "/usr/lib/python3/dist-packages/skimage/data/coffee.png"

    static var available: Bool { [astronautPath, hopperPath, coffeePath].allSatisfy { FileManager.default.fileExists(atPath: $0) } }
    static let missing = "python3-skimage and python-matplotlib-data (scripts/setup-debian.sh)"

    /// The astronaut's landmarks, read by eye from the 512x512 original at 6x.
    static let astronautLandmarks = FaceLandmarks(
        leftEyeOuter: Point(x: 191, y: 102), leftEyeInner: Point(x: 209, y: 102),
        rightEyeInner: Point(x: 236, y: 103), rightEyeOuter: Point(x: 254, y: 102), noseBase: Point(x: 222, y: 133))

    static func rgb(_ path: String) throws -> RGBImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        if PNGCodec.isPNG(bytes) { return try PNGCodec.decodeRGB(bytes) }
        var image = RGBImage()
        try JPEGCodec().decodeRGB(bytes, into: &image)
        return image
    }

    static var astronaut: RGBImage { get throws { try rgb(astronautPath) } }
    static var hopper: RGBImage { get throws { try rgb(hopperPath) } }

    /// The face models, loaded once; nil when `make vision-models` has not installed them.
    static let models: FaceModels? = try? FaceModels(folder: VisionCrops.models)
    static let modelsMissing = "the face models in .cache/models (make vision-models)"
}

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
