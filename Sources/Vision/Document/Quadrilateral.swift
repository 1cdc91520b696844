/// A point in frame pixels (x right, y down).
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    func distance(to other: Point) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }
    func midpoint(_ other: Point) -> Point { Point(x: (x + other.x) / 2, y: (y + other.y) / 2) }
    func dot(_ other: Point) -> Double { x * other.x + y * other.y }
}

/// Four corners of a document in a frame: top-left, top-right, bottom-right, bottom-left of
/// the document as it lies (clockwise in the image; the first side is a long side).
public struct Quadrilateral: Hashable, Sendable, Codable {
    public var corners: [Point]

    /// - Precondition: four corners.
    public init(_ corners: [Point]) {
        precondition(corners.count == 4, "a quadrilateral has four corners")
        self.corners = corners
    }

    /// The shoelace area (positive for a clockwise quadrilateral in image coordinates).
    public var area: Double { Self.signedArea(corners).magnitude }

    public var centre: Point {
        Point(x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
    }

    /// The longer diagonal: the scale the motion and edge thresholds are relative to.
    public var diagonal: Double { max(corners[0].distance(to: corners[2]), corners[1].distance(to: corners[3])) }

    /// The largest distance any corner moved from the same corner of `other`.
    public func largestCornerMotion(from other: Quadrilateral) -> Double {
        zip(corners, other.corners).map { $0.distance(to: $1) }.max() ?? 0
    }

    /// Intersection over union with `other` (the Jaccard index, SmartDoc 2015's measure):
    /// 1 for the same quadrilateral, 0 for disjoint ones. Both must be convex.
    public func jaccardIndex(with other: Quadrilateral) -> Double {
        let intersection = Self.signedArea(Self.clip(corners, by: other.corners)).magnitude
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }

    /// Whether every corner lies inside `width` x `height`, at least `margin` pixels from the border.
    public func isInside(width: Int, height: Int, margin: Double) -> Bool {
        corners.allSatisfy { $0.x >= margin && $0.y >= margin && $0.x <= Double(width) - 1 - margin && $0.y <= Double(height) - 1 - margin }
    }

    /// Whether `point` lies inside the quadrilateral (convex, either orientation) or on its sides.
    public func contains(_ point: Point) -> Bool {
        let orientation: Double = Self.signedArea(corners) >= 0 ? 1 : -1
        return corners.indices.allSatisfy { i in
            let a = corners[i], b = corners[(i + 1) % corners.count]
            return orientation * ((b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)) >= 0
        }
    }

    static func signedArea(_ polygon: [Point]) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var sum = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    /// Sutherland-Hodgman: `subject` clipped by the convex polygon `clip`.
    static func clip(_ subject: [Point], by clip: [Point]) -> [Point] {
        let orientation: Double = signedArea(clip) >= 0 ? 1 : -1
        var output = subject
        for i in clip.indices where !output.isEmpty {
            let a = clip[i], b = clip[(i + 1) % clip.count]
            let inside = { (p: Point) in orientation * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) >= 0 }
            let input = output
            output = []
            for j in input.indices {
                let current = input[j], previous = input[(j + input.count - 1) % input.count]
                if inside(current) {
                    if !inside(previous) { output.append(intersection(previous, current, a, b)) }
                    output.append(current)
                } else if inside(previous) {
                    output.append(intersection(previous, current, a, b))
                }
            }
        }
        return output
    }

    private static func intersection(_ p: Point, _ q: Point, _ a: Point, _ b: Point) -> Point {
        let r = q - p, s = b - a
        let denominator = r.x * s.y - r.y * s.x
        guard denominator != 0 else { return q }
        let t = ((a.x - p.x) * s.y - (a.y - p.y) * s.x) / denominator
        return Point(x: p.x + t * r.x, y: p.y + t * r.y)
    }
}
