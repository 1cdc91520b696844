public import Imaging

/// Where the light's answer is read on a face, placed from its landmarks: the nose and the
/// forehead face the camera and its LED; the cheeks turn away from it; the background lies
/// beside the face at the eyes' height, far behind it.
public struct FaceRegions: Hashable, Sendable {
    /// A disc: its centre and radius in frame pixels.
    public struct Disc: Hashable, Sendable {
        public var centre: Point
        public var radius: Double
    }

    public var nose: Disc
    public var forehead: Disc
    public var leftCheek: Disc
    public var rightCheek: Disc
    public var leftBackground: Disc
    public var rightBackground: Disc

    public init(landmarks: FaceLandmarks, box: FaceBox) {
        let d = max(landmarks.eyeDistance, 1)
        let m = landmarks.eyeMidpoint, n = landmarks.noseBase
        let ux = (landmarks.rightEye.x - landmarks.leftEye.x) / d, uy = (landmarks.rightEye.y - landmarks.leftEye.y) / d
        // Along the eye line (u) and down across it (v).
        func at(_ from: Point, u: Double, v: Double) -> Point {
            Point(x: from.x + u * d * ux - v * d * uy, y: from.y + u * d * uy + v * d * ux)
        }
        nose = Disc(centre: Point(x: m.x + 0.6 * (n.x - m.x), y: m.y + 0.6 * (n.y - m.y)), radius: 0.16 * d)
        forehead = Disc(centre: at(m, u: 0, v: -0.6), radius: 0.22 * d)
        leftCheek = Disc(centre: at(landmarks.leftEye, u: -0.12, v: 0.8), radius: 0.17 * d)
        rightCheek = Disc(centre: at(landmarks.rightEye, u: 0.12, v: 0.8), radius: 0.17 * d)
        let w = box.width
        let eyeHeight = m.y
        leftBackground = Disc(centre: Point(x: box.left - 0.4 * w, y: eyeHeight), radius: 0.15 * w)
        rightBackground = Disc(centre: Point(x: box.right + 0.4 * w, y: eyeHeight), radius: 0.15 * w)
    }

    /// Mean luma of each region in `image` (nil for a disc wholly outside it).
    public func means(in image: LumaImage) -> Means {
        Means(
            nose: Self.mean(nose, image), forehead: Self.mean(forehead, image), leftCheek: Self.mean(leftCheek, image),
            rightCheek: Self.mean(rightCheek, image), leftBackground: Self.mean(leftBackground, image),
            rightBackground: Self.mean(rightBackground, image))
    }

    public struct Means: Hashable, Sendable {
        public var nose: Double?
        public var forehead: Double?
        public var leftCheek: Double?
        public var rightCheek: Double?
        public var leftBackground: Double?
        public var rightBackground: Double?

        /// The parts that face the light (nose, forehead), the parts turned from it (the cheeks),
        /// and the background: each the mean of the regions there are.
        public var centre: Double? { average([nose, forehead]) }
        public var cheeks: Double? { average([leftCheek, rightCheek]) }
        public var background: Double? { average([leftBackground, rightBackground]) }
        public var face: Double? { average([nose, forehead, leftCheek, rightCheek]) }

        private func average(_ values: [Double?]) -> Double? {
            let present = values.compactMap { $0 }
            return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
        }
    }

    static func mean(_ disc: Disc, _ image: LumaImage) -> Double? {
        let r = disc.radius, r2 = r * r
        let x0 = max(0, Int((disc.centre.x - r).rounded(.down))), x1 = min(image.width - 1, Int((disc.centre.x + r).rounded(.up)))
        let y0 = max(0, Int((disc.centre.y - r).rounded(.down))), y1 = min(image.height - 1, Int((disc.centre.y + r).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return nil }
        var sum = 0, count = 0
        image.pixels.withUnsafeBufferPointer { p in
            for y in y0...y1 {
                let dy = Double(y) - disc.centre.y
                for x in x0...x1 {
                    let dx = Double(x) - disc.centre.x
                    if dx * dx + dy * dy <= r2 {
                        sum += Int(p[y * image.width + x])
                        count += 1
                    }
                }
            }
        }
        // A disc mostly outside the frame says too little.
        return Double(count) >= 0.5 * .pi * r2 && count > 0 ? Double(sum) / Double(count) : nil
    }
}
