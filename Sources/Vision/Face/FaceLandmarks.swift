import Foundation

/// A face's box in frame pixels: left and top inclusive, right and bottom exclusive.
public struct FaceBox: Hashable, Sendable, Codable {
    public var left: Double
    public var top: Double
    public var right: Double
    public var bottom: Double

    public init(left: Double, top: Double, right: Double, bottom: Double) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }

    public var width: Double { right - left }
    public var height: Double { bottom - top }
    public var centre: Point { Point(x: (left + right) / 2, y: (top + bottom) / 2) }

    /// The box scaled by `factor` about the frame's origin (from a downscaled frame to the full one).
    func scaled(by factor: Double) -> FaceBox {
        FaceBox(left: left * factor, top: top * factor, right: right * factor, bottom: bottom * factor)
    }

    /// The part of this box that `other` covers (intersection over this box's area).
    func covered(by other: FaceBox) -> Double {
        let w = max(0, min(right, other.right) - max(left, other.left))
        let h = max(0, min(bottom, other.bottom) - max(top, other.top))
        return width > 0 && height > 0 ? w * h / (width * height) : 0
    }
}

/// The five landmarks of dlib's 5-point shape predictor, named in image terms: the "left"
/// eye is the one on the image's left (the person's right eye, as the camera sees them).
public struct FaceLandmarks: Hashable, Sendable, Codable {
    public var leftEyeOuter: Point
    public var leftEyeInner: Point
    public var rightEyeInner: Point
    public var rightEyeOuter: Point
    /// The bottom of the nose, between the nostrils.
    public var noseBase: Point

    public init(leftEyeOuter: Point, leftEyeInner: Point, rightEyeInner: Point, rightEyeOuter: Point, noseBase: Point) {
        self.leftEyeOuter = leftEyeOuter
        self.leftEyeInner = leftEyeInner
        self.rightEyeInner = rightEyeInner
        self.rightEyeOuter = rightEyeOuter
        self.noseBase = noseBase
    }

    /// From the predictor's points: 0, 1 the image-right eye (outer, inner), 2, 3 the
    /// image-left eye (outer, inner), 4 the nose base.
    init?(dlibOrder points: [Point]) {
        guard points.count == 5 else { return nil }
        self.init(leftEyeOuter: points[2], leftEyeInner: points[3], rightEyeInner: points[1], rightEyeOuter: points[0], noseBase: points[4])
    }

    /// The points in the predictor's order, as dlib's face alignment takes them.
    var dlibOrder: [Point] { [rightEyeOuter, rightEyeInner, leftEyeOuter, leftEyeInner, noseBase] }

    /// All five, in the order of the properties.
    public var points: [Point] { [leftEyeOuter, leftEyeInner, rightEyeInner, rightEyeOuter, noseBase] }

    public var leftEye: Point { leftEyeOuter.midpoint(leftEyeInner) }
    public var rightEye: Point { rightEyeInner.midpoint(rightEyeOuter) }
    public var eyeMidpoint: Point { leftEye.midpoint(rightEye) }
    /// The distance between the eyes' centres, in pixels.
    public var eyeDistance: Double { leftEye.distance(to: rightEye) }

    /// Rotation in the image plane: the eye line's angle, in degrees, positive when the
    /// image-right eye is lower (the head leans to the image's right).
    public var roll: Double {
        let d = Point(x: rightEye.x - leftEye.x, y: rightEye.y - leftEye.y)
        return atan2(d.y, d.x) * 180 / .pi
    }

    /// How far the nose base sits beside the eyes' centre line, across the eye line, as a
    /// part of the eye distance: about 0 for a frontal face, positive when the nose points
    /// to the image's right.
    public var noseOffset: Double {
        let (axis, _) = axes
        let v = Point(x: noseBase.x - eyeMidpoint.x, y: noseBase.y - eyeMidpoint.y)
        return (v.x * axis.x + v.y * axis.y) / max(eyeDistance, 1)
    }

    /// How far the nose base sits below the eye line, as a part of the eye distance (about
    /// 0.6-0.9 for a frontal face; smaller when the head tilts up or down).
    public var noseDrop: Double {
        let (_, normal) = axes
        let v = Point(x: noseBase.x - eyeMidpoint.x, y: noseBase.y - eyeMidpoint.y)
        return (v.x * normal.x + v.y * normal.y) / max(eyeDistance, 1)
    }

    /// Turn about the vertical axis, in degrees, from ``noseOffset``: the nose base stands
    /// ``noseDepth`` eye distances in front of the eyes, so a turn by θ moves it across the
    /// eye line by `noseDepth · tan θ` eye distances (as the foreshortened eye distance
    /// sees it). Positive when the nose points to the image's right.
    public var yaw: Double { atan(noseOffset / Self.noseDepth) * 180 / .pi }

    /// The nose base's depth in front of the eye centres, in eye distances (an average
    /// adult face: about 24 mm in front of eyes 63 mm apart; fitted to the yaw of the
    /// generated train frames, docs/face-data.md, where 0.32 read turns 25 % too large).
    public static let noseDepth = 0.38

    /// The unit vector along the eye line (left to right) and the one across it (downwards).
    private var axes: (Point, Point) {
        let dx = rightEye.x - leftEye.x, dy = rightEye.y - leftEye.y
        let length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
        let axis = Point(x: dx / length, y: dy / length)
        return (axis, Point(x: -axis.y, y: axis.x))
    }
}
