public import Imaging
import COpenCV
import Synchronization

/// Finds the document in the frames of a fixed camera: its corners, its class by shape,
/// whether it is whole, how it lies, and the quality of its own region.
///
/// The camera looks at the station's own background, so the finder learns that background
/// from frames of the empty station and then looks for what differs from it; until it has,
/// it looks for closed edge outlines. A quadrilateral counts as a document when its blob
/// fills it (a hand or a sleeve does not) and its true aspect ratio is the size's of one of
/// the classes looked for: the ICAO sizes unless the caller looks for pages of print (A4,
/// Letter), whose A4 shape is an ID-3's and would otherwise pass for a passport page.
///
/// Learning, when `observe(_:learning:)` is asked to (docs/vision.md):
/// - with no background yet, a frame starts it once `startFrames` frames in a row showed no
///   document and did not move (a page sliding in, or a hand, must not become the platen);
/// - a frame with no document and almost no foreground (under `emptyForeground`) joins it
///   with a small weight (`backgroundDrift`): the light drifts, the platen wears;
/// - a foreground that stays without a document and without moving for `relearnFrames`
///   frames becomes the background (something was left on the platen, or the light changed);
/// - a ghost, the outline of what the background holds and the frame no longer shows (the
///   background steps across it, the frame does not: a page lay there when it was learned),
///   is never a document, and the background is learned again after `startFrames` still frames.
///
/// Holds OpenCV's model and scratch images between frames behind a lock: one finder per camera.
public final class DocumentFinder: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Width frames are analysed at (corners are then refined on the full frame).
        public var workingWidth = 320
        /// The camera's horizontal field of view in degrees (for tilt and true aspect).
        public var horizontalFieldOfView = 60.0
        /// How far a true aspect ratio may be from an ICAO size's to count as that size.
        public var aspectTolerance = 0.07
        /// The least part of the frame a document covers to be looked at at all.
        public var minimumArea = 0.02
        /// The least part of its quadrilateral the blob must fill.
        public var minimumFill = 0.85
        /// A corner closer than this part of the frame's width to the border is cut off.
        public var edgeMargin = 0.01
        /// The least part of the frame a region cut by its edge covers to count as a page
        /// partly in view (``DocumentObservation/cutOff``): a card half out of a 60-degree
        /// view 25 cm away still covers more.
        public var minimumCutArea = 0.04
        /// How much lighter than the surface around it such a region must be (documents are
        /// lighter than the platen; a phone is not).
        public var cutLumaMargin = 25.0
        /// The share of the background an empty frame gets.
        public var backgroundDrift = 0.05
        /// The most foreground (a part of the frame) a frame may have to count as empty.
        public var emptyForeground = 0.01
        /// Frames a still foreground without a document lasts before it becomes the background.
        public var relearnFrames = 75
        /// Still frames without a document before the first background is learned.
        public var startFrames = 4
        /// The most mean change (luma levels) between two frames that counts as still.
        public var stillChange = 2.0
        /// How far (a part of each side's length) a found document's side may move inward to
        /// a stronger straight edge (``snapped(_:as:in:inward:outward:)``): a shadow or the
        /// fingers merged with its blob.
        public var snapInward = 0.25
        /// How far it may move outward (the blob seldom falls short of the document, and the
        /// platen's own lines lie outside it).
        public var snapOutward = 0.02
        /// The least contrast (luma levels, inside against outside) of an edge a side moves to.
        public var snapContrast = 10.0

        public init() {}
    }

    private struct State: ~Copyable {
        let finder: OpaquePointer
        var stillForegroundFrames = 0
        var stillEmptyFrames = 0
    }

    public let settings: Settings
    private let state: Mutex<State>

    public init(settings: Settings = Settings()) throws(VisionError) {
        self.settings = settings
        state = Mutex(State(finder: try OpenCV.makeFinder(workingWidth: settings.workingWidth).get()))
    }

    deinit {
        state.withLock { OpenCV.destroy($0.finder) }
    }

    /// Frames of the empty station the background model holds (0: none learned).
    public var backgroundFrames: Int { state.withLock { OpenCV.backgroundFrames($0.finder) } }

    /// Adds a frame of the empty station to the background model.
    /// - Parameter weight: the frame's share of the model, 0 < weight <= 1 (1 starts afresh).
    public func learnBackground(_ image: LumaImage, weight: Double = 0.2) throws(VisionError) {
        guard weight > 0, weight <= 1 else { throw VisionError(kind: .invalidArgument, message: "weight must be in 0...1") }
        try state.withLock { state throws(VisionError) in try OpenCV.learn(state.finder, image, weight: Float(weight)).get() }
    }

    public func forgetBackground() {
        state.withLock { OpenCV.forget($0.finder) }
    }

    /// What `image` shows of a document.
    /// - Parameters:
    ///   - learning: whether the frame may teach the background (see the type's notes).
    ///   - measureQuality: whether to measure sharpness and glare on a whole document's region.
    ///   - classes: the shapes that count as a document (``DocumentClass/identity`` or ``DocumentClass/pages``).
    public func observe(
        _ image: LumaImage, learning: Bool = false, measureQuality: Bool = true, classes: Set<DocumentClass> = DocumentClass.identity
    ) throws(VisionError) -> DocumentObservation {
        let observation = try state.withLock { state throws(VisionError) in
            let candidates = try OpenCV.find(state.finder, in: image, minimumArea: settings.minimumArea).get()
            let observation = try interpret(candidates, image: image, classes: classes)
            if learning { try learn(from: image, observation, state: &state) }
            return observation
        }
        guard let outlined = observation.document else { return observation }
        var document = outlined
        let quadrilateral = try snapped(outlined.quadrilateral, as: outlined.documentClass, in: image)
        if quadrilateral != outlined.quadrilateral, let moved = self.document(at: quadrilateral, as: outlined.documentClass, width: image.width, height: image.height) {
            document = moved
            document.whole = outlined.whole && moved.whole
        }
        if measureQuality, document.whole {
            document.quality = try Self.quality(of: image, document.quadrilateral, document.documentClass)
        }
        return DocumentObservation(
            width: observation.width, height: observation.height, document: document, others: observation.others, cutOff: observation.cutOff)
    }

    /// `quadrilateral` with each side moved to a stronger straight edge within `inward` or
    /// `outward` of its length (the settings' by default) where that keeps the class's shape:
    /// its true aspect ratio no farther from the class's than before, or within 3 %. A blob
    /// that took in the card's shadow or the fingers holding it, or a page predicted from its
    /// MRZ a millimetre or two off, comes to the document's own edges; a side on its edge stays.
    public func snapped(
        _ quadrilateral: Quadrilateral, as documentClass: DocumentClass, in image: LumaImage, inward: Double? = nil, outward: Double? = nil
    ) throws(VisionError) -> Quadrilateral {
        guard let candidate = try sidesMoved(quadrilateral, in: image, inward: inward, outward: outward) else { return quadrilateral }
        let focalLength = DocumentPose.focalLength(width: image.width, horizontalFieldOfView: settings.horizontalFieldOfView)
        func misfit(_ q: Quadrilateral) -> Double? {
            DocumentPose(q, width: image.width, height: image.height, focalLength: focalLength).map { ($0.aspectRatio / documentClass.aspectRatio - 1).magnitude }
        }
        guard let after = misfit(candidate), after <= max(misfit(quadrilateral) ?? 0, 0.03) else { return quadrilateral }
        return candidate
    }

    /// `quadrilateral` with its sides moved to the edges near them (idkcv_snap_sides, the
    /// settings' reach by default); nil when no side moved.
    private func sidesMoved(
        _ quadrilateral: Quadrilateral, in image: LumaImage, inward: Double? = nil, outward: Double? = nil
    ) throws(VisionError) -> Quadrilateral? {
        let (corners, moved) = try OpenCV.snapSides(
            image, Self.corners(quadrilateral), inward: Float(inward ?? settings.snapInward), outward: Float(outward ?? settings.snapOutward),
            minimumContrast: Float(settings.snapContrast)
        ).get()
        return moved > 0 ? Self.quadrilateral(corners) : nil
    }

    private func learn(from image: LumaImage, _ observation: DocumentObservation, state: inout State) throws(VisionError) {
        guard observation.document == nil else {
            state.stillForegroundFrames = 0
            state.stillEmptyFrames = 0
            return
        }
        let finder = state.finder
        let (foreground, change, ghosts) = OpenCV.lastFrame(finder)
        // No background, or one of another frame size (the camera changed mode, or one odd
        // frame came): a new one starts only as the first did, after still empty frames.
        guard OpenCV.backgroundFits(finder, width: image.width, height: image.height) else {
            // The first frame has nothing to be compared with: it counts as the first still one.
            let still = change.map { $0 <= settings.stillChange } ?? true
            state.stillEmptyFrames = still ? state.stillEmptyFrames + 1 : 0
            if state.stillEmptyFrames >= settings.startFrames {
                state.stillEmptyFrames = 0
                try OpenCV.learn(finder, image, weight: 1).get()
            }
            return
        }
        state.stillEmptyFrames = 0
        if foreground < settings.emptyForeground {
            state.stillForegroundFrames = 0
            try OpenCV.learn(finder, image, weight: Float(settings.backgroundDrift)).get()
        } else if let change, change <= settings.stillChange {
            state.stillForegroundFrames += 1
            // What the background holds and the frame no longer shows goes sooner.
            if state.stillForegroundFrames >= (ghosts > 0 ? settings.startFrames : settings.relearnFrames) {
                state.stillForegroundFrames = 0
                try OpenCV.learn(finder, image, weight: 1).get()
            }
        } else {
            state.stillForegroundFrames = 0
        }
    }

    /// A document where something other than its outline says its page is (the MRZ found
    /// first, ``MRZLocator``): measured as a document found by its outline is (whole, the
    /// part of the frame, the centre's offset, the pose), its class the one given.
    /// - Returns: nil when the quadrilateral has no pose (degenerate, or not convex).
    public func document(
        at quadrilateral: Quadrilateral, as documentClass: DocumentClass, width: Int, height: Int
    ) -> DocumentObservation.Found? {
        let focalLength = DocumentPose.focalLength(width: width, horizontalFieldOfView: settings.horizontalFieldOfView)
        guard width > 0, height > 0, let pose = DocumentPose(quadrilateral, width: width, height: height, focalLength: focalLength) else {
            return nil
        }
        let whole = quadrilateral.isInside(width: width, height: height, margin: settings.edgeMargin * Double(width))
        let centre = quadrilateral.centre
        let offset = Point(x: centre.x - Double(width - 1) / 2, y: centre.y - Double(height - 1) / 2)
        return DocumentObservation.Found(
            quadrilateral: quadrilateral, documentClass: documentClass, whole: whole,
            areaFraction: quadrilateral.area / Double(width * height),
            centreOffset: (offset.x * offset.x + offset.y * offset.y).squareRoot() / Double(width), pose: pose, quality: nil)
    }

    /// The candidates that are documents, the largest first.
    private func interpret(_ candidates: [idkcv_candidate], image: LumaImage, classes: Set<DocumentClass>) throws(VisionError) -> DocumentObservation {
        let focalLength = DocumentPose.focalLength(width: image.width, horizontalFieldOfView: settings.horizontalFieldOfView)
        var documents: [DocumentObservation.Found] = []
        var cutOff = false
        var snapsTried = 0
        for candidate in candidates where Double(candidate.fill) >= settings.minimumFill {
            var quadrilateral = Self.quadrilateral(withUnsafeBytes(of: candidate.corners) { Array($0.bindMemory(to: Float.self)) })
            let margin = settings.edgeMargin * Double(image.width)
            let inside = candidate.touches_edge == 0 && quadrilateral.isInside(width: image.width, height: image.height, margin: margin)
            var pose = DocumentPose(quadrilateral, width: image.width, height: image.height, focalLength: focalLength)
            var documentClass = pose.flatMap { classify($0.aspectRatio, among: classes) }
            // A whole blob of no ICAO shape may be a document with its shadow or the fingers
            // holding it: its sides brought to the strongest edges near them may give the shape.
            if documentClass == nil, inside, snapsTried < Self.snapsPerFrame {
                snapsTried += 1
                if let snapped = try sidesMoved(quadrilateral, in: image),
                   let snappedPose = DocumentPose(snapped, width: image.width, height: image.height, focalLength: focalLength),
                   let snappedClass = classify(snappedPose.aspectRatio, among: classes),
                   snapped.isInside(width: image.width, height: image.height, margin: margin)
                {
                    (quadrilateral, pose, documentClass) = (snapped, snappedPose, snappedClass)
                }
            }
            guard let pose, let documentClass else {
                // Cut, its visible part has no ICAO shape; large and solid, it is likely a page.
                // Documents are lighter than the surface they lie on: a dark slab (a phone) cut
                // by the edge is not one. A region that leaves too little of the frame around
                // it to tell is measured against the whole frame.
                if !inside, Double(candidate.fill) >= settings.minimumFill,
                    quadrilateral.area >= settings.minimumCutArea * Double(image.width * image.height),
                    let surface = Self.medianLuma(image, outside: quadrilateral) ?? Self.medianLuma(image),
                    Self.meanLuma(image, inside: quadrilateral) >= surface + settings.cutLumaMargin
                {
                    cutOff = true
                }
                continue
            }
            let whole = inside
            let centre = quadrilateral.centre
            let offset = Point(x: centre.x - Double(image.width - 1) / 2, y: centre.y - Double(image.height - 1) / 2)
            documents.append(
                DocumentObservation.Found(
                    quadrilateral: quadrilateral, documentClass: documentClass, whole: whole,
                    areaFraction: quadrilateral.area / Double(image.width * image.height),
                    centreOffset: (offset.x * offset.x + offset.y * offset.y).squareRoot() / Double(image.width),
                    pose: pose, quality: nil))
        }
        return DocumentObservation(
            width: image.width, height: image.height, document: documents.first, others: max(0, documents.count - 1),
            cutOff: documents.isEmpty && cutOff)
    }

    /// The whole blobs of no ICAO shape a frame's sides are snapped for (each costs about a millisecond).
    static let snapsPerFrame = 2

    /// The mean luma of a 16x16 grid of points spread over the quadrilateral.
    static func meanLuma(_ image: LumaImage, inside quadrilateral: Quadrilateral) -> Double {
        let c = quadrilateral.corners
        var sum = 0, n = 0
        for i in 0..<16 {
            for j in 0..<16 {
                let u = (Double(i) + 0.5) / 16, v = (Double(j) + 0.5) / 16
                let top = Point(x: c[0].x + (c[1].x - c[0].x) * u, y: c[0].y + (c[1].y - c[0].y) * u)
                let bottom = Point(x: c[3].x + (c[2].x - c[3].x) * u, y: c[3].y + (c[2].y - c[3].y) * u)
                let x = Int(top.x + (bottom.x - top.x) * v), y = Int(top.y + (bottom.y - top.y) * v)
                guard x >= 0, y >= 0, x < image.width, y < image.height else { continue }
                sum += Int(image.pixels[y * image.width + x])
                n += 1
            }
        }
        return n == 0 ? 0 : Double(sum) / Double(n)
    }

    /// The median luma of a 32x18 grid over the frame, outside `quadrilateral` where one is
    /// given (the surface around a region); nil when fewer than a tenth of the grid's points are.
    static func medianLuma(_ image: LumaImage, outside quadrilateral: Quadrilateral? = nil) -> Double? {
        guard image.width > 0, image.height > 0 else { return nil }
        var values: [UInt8] = []
        for j in 0..<18 {
            for i in 0..<32 {
                let (x, y) = (i * image.width / 32, j * image.height / 18)
                if let quadrilateral, quadrilateral.contains(Point(x: Double(x), y: Double(y))) { continue }
                values.append(image.pixels[y * image.width + x])
            }
        }
        guard values.count >= 32 * 18 / 10 else { return nil }
        values.sort()
        return Double(values[values.count / 2])
    }

    /// The document's region of `image`, perspective-corrected to its class's size at
    /// `pixelsPerMillimetre` (the class's crop resolution by default). A page lying with its
    /// long side across the frame's height is cropped portrait, its upper short side on top.
    public static func crop(
        _ image: LumaImage, _ quadrilateral: Quadrilateral, as documentClass: DocumentClass,
        pixelsPerMillimetre: Double? = nil
    ) throws(VisionError) -> LumaImage {
        let (quadrilateral, width, height) = upright(quadrilateral, documentClass, pixelsPerMillimetre: pixelsPerMillimetre)
        var pixels = [UInt8](repeating: 0, count: width * height)
        try OpenCV.warp(
            image.pixels, width: image.width, height: image.height, channels: 1, corners: corners(quadrilateral),
            into: &pixels, targetWidth: width, targetHeight: height
        ).get()
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    /// The same for a colour image (the crop a backend receives).
    public static func crop(
        _ image: RGBImage, _ quadrilateral: Quadrilateral, as documentClass: DocumentClass,
        pixelsPerMillimetre: Double? = nil
    ) throws(VisionError) -> RGBImage {
        let (quadrilateral, width, height) = upright(quadrilateral, documentClass, pixelsPerMillimetre: pixelsPerMillimetre)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        try OpenCV.warp(
            image.pixels, width: image.width, height: image.height, channels: 3, corners: corners(quadrilateral),
            into: &pixels, targetWidth: width, targetHeight: height
        ).get()
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The field's usual finder (Canny, contours, approxPolyDP on the full frame), for
    /// comparison in the benchmark and tests only.
    public static func baselineQuadrilateral(in image: LumaImage) throws(VisionError) -> Quadrilateral? {
        guard let c = try OpenCV.baselineFind(image).get() else { return nil }
        return Quadrilateral((0..<4).map { Point(x: Double(c[2 * $0]), y: Double(c[2 * $0 + 1])) })
    }

    /// The class among `classes` whose aspect ratio is nearest, within the tolerance. ID-2
    /// and ID-3 share one: `.td3` stands for both.
    private func classify(_ aspectRatio: Double, among classes: Set<DocumentClass>) -> DocumentClass? {
        classes.subtracting([.td2])
            .map { (documentClass: $0, distance: (aspectRatio - $0.aspectRatio).magnitude) }
            .filter { $0.distance <= settings.aspectTolerance }
            .min { $0.distance < $1.distance }?.documentClass
    }

    /// The corners to warp from and the crop's size: as found (first side long) for an
    /// identity document or a landscape page; for a page whose long side runs more down the
    /// frame than across it, the corners from the upper short side on, and the size turned.
    static func upright(
        _ quadrilateral: Quadrilateral, _ documentClass: DocumentClass, pixelsPerMillimetre: Double?
    ) -> (Quadrilateral, width: Int, height: Int) {
        let (long, short) = documentClass.cropSize(pixelsPerMillimetre: pixelsPerMillimetre)
        let c = quadrilateral.corners
        guard documentClass.isPage, (c[1].y - c[0].y).magnitude > (c[1].x - c[0].x).magnitude else {
            return (quadrilateral, long, short)
        }
        // The short sides are 1->2 and 3->0 (clockwise); the upper one starts the page.
        let fromSecond = (c[1].y + c[2].y) < (c[3].y + c[0].y)
        let turned = fromSecond ? [c[1], c[2], c[3], c[0]] : [c[3], c[0], c[1], c[2]]
        return (Quadrilateral(turned), short, long)
    }

    private static func quadrilateral(_ corners: [Float]) -> Quadrilateral {
        Quadrilateral((0..<4).map { Point(x: Double(corners[2 * $0]), y: Double(corners[2 * $0 + 1])) })
    }

    private static func corners(_ quadrilateral: Quadrilateral) -> [Float] {
        quadrilateral.corners.flatMap { [Float($0.x), Float($0.y)] }
    }

    /// Sharpness and glare on the region, corrected at ``DocumentQuality/pixelsPerMillimetre``.
    public static func quality(of image: LumaImage, _ quadrilateral: Quadrilateral, _ documentClass: DocumentClass) throws(VisionError) -> DocumentQuality {
        let region = try crop(image, quadrilateral, as: documentClass, pixelsPerMillimetre: DocumentQuality.pixelsPerMillimetre)
        let statistics = LumaStatistics(region)
        func glare(_ zone: (x: Double, y: Double, width: Double, height: Double)) -> Double {
            let x0 = Int(zone.x * Double(region.width)), y0 = Int(zone.y * Double(region.height))
            let x1 = min(region.width, x0 + Int(zone.width * Double(region.width)))
            let y1 = min(region.height, y0 + Int(zone.height * Double(region.height)))
            guard x1 > x0, y1 > y0 else { return 0 }
            var bright = 0
            region.pixels.withUnsafeBufferPointer { p in
                for y in y0..<y1 {
                    for x in x0..<x1 where p[y * region.width + x] >= DocumentQuality.glareLevel { bright += 1 }
                }
            }
            return Double(bright) / Double((x1 - x0) * (y1 - y0))
        }
        return DocumentQuality(
            sharpness: statistics.laplacianVariance, glare: glare((0, 0, 1, 1)),
            glareOverMRZ: glare(documentClass.mrzZone), glareOverPhoto: glare(documentClass.photoZone),
            directional: DirectionalSharpness(region))
    }
}
