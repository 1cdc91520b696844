import Foundation

/// How a quadrilateral in the frame lies in space, for a pinhole camera with its principal
/// point at the frame's centre: the rectangle's true aspect ratio, its tilt out of the
/// image plane and its rotation in it.
///
/// The homography from the unit square to the quadrilateral (Heckbert's square-to-quad
/// closed form) is taken back through the camera matrix: its first two columns are the
/// rectangle's sides in camera space, so their length ratio is the aspect ratio and their
/// cross product the normal, whose angle to the optical axis is the tilt. A wrong focal
/// length skews both a little; the rotation does not depend on it.
public struct DocumentPose: Hashable, Sendable {
    /// Width over height of the rectangle in space.
    public var aspectRatio: Double
    /// Degrees between the document's normal and the optical axis (0 when it faces the camera).
    public var tiltDegrees: Double
    /// Degrees the first side turns from the image's x axis, -90 ... 90 (0 when level).
    public var rotationDegrees: Double

    /// - Parameters:
    ///   - quadrilateral: corners in the order of ``Quadrilateral``.
    ///   - focalLength: the camera's focal length in pixels of this frame.
    public init?(_ quadrilateral: Quadrilateral, width: Int, height: Int, focalLength: Double) {
        let p = quadrilateral.corners
        guard focalLength > 0, quadrilateral.area > 1 else { return nil }
        let (x0, y0, x1, y1, x2, y2, x3, y3) = (p[0].x, p[0].y, p[1].x, p[1].y, p[2].x, p[2].y, p[3].x, p[3].y)
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        var g = 0.0, h = 0.0
        if sx.magnitude > 1e-9 || sy.magnitude > 1e-9 {
            let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
            let denominator = dx1 * dy2 - dx2 * dy1
            guard denominator.magnitude > 1e-12 else { return nil }
            g = (sx * dy2 - dx2 * sy) / denominator
            h = (dx1 * sy - sx * dy1) / denominator
        }
        // Columns of H for (u, v, 1): u along the first side, v along the last.
        let column1 = (x1 - x0 + g * x1, y1 - y0 + g * y1, g)
        let column2 = (x3 - x0 + h * x3, y3 - y0 + h * y3, h)
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        func camera(_ c: (Double, Double, Double)) -> (Double, Double, Double) {
            ((c.0 - cx * c.2) / focalLength, (c.1 - cy * c.2) / focalLength, c.2)
        }
        let a = camera(column1), b = camera(column2)
        let lengthA = (a.0 * a.0 + a.1 * a.1 + a.2 * a.2).squareRoot()
        let lengthB = (b.0 * b.0 + b.1 * b.1 + b.2 * b.2).squareRoot()
        guard lengthA > 0, lengthB > 0 else { return nil }
        let normal = (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
        let normalLength = (normal.0 * normal.0 + normal.1 * normal.1 + normal.2 * normal.2).squareRoot()
        guard normalLength > 0 else { return nil }
        aspectRatio = lengthA / lengthB
        tiltDegrees = acos(min(1, normal.2.magnitude / normalLength)) * 180 / .pi
        // The mean direction of the two long sides (first and third, the third reversed).
        let dx = (x1 - x0) + (x2 - x3), dy = (y1 - y0) + (y2 - y3)
        var rotation = atan2(dy, dx) * 180 / .pi
        if rotation > 90 { rotation -= 180 }
        if rotation <= -90 { rotation += 180 }
        rotationDegrees = rotation
    }

    /// The focal length in pixels of a frame `width` wide seen through `horizontalFieldOfView` degrees.
    public static func focalLength(width: Int, horizontalFieldOfView: Double) -> Double {
        Double(width) / 2 / tan(horizontalFieldOfView * .pi / 360)
    }
}
