import Foundation
public import Vision

/// The page finder (``DocumentFinder`` looking for ``DocumentClass/pages``) and its usability
/// gate measured on a split of the generated paper scenes (`scripts/vision-data/paper`),
/// against their ground truth, and the field's usual OpenCV finder (Canny, contours,
/// approxPolyDP) on the same frames.
///
/// Corner error: the mean distance of the four corners to the true ones (matched in the best
/// of the four cyclic orders: the finder lists a page from a long side, the truth as
/// printed), as a part of the page's diagonal in the frame.
public struct PageEvaluation: Sendable {
    /// The figures of one finder.
    public struct Finder: Sendable {
        /// Scenes with a whole page in them, and of those, found.
        public var wholePages = 0
        public var found = 0
        /// Found with the right paper size (A4 or Letter).
        public var classRight = 0
        /// The corner error of each found whole page.
        public var cornerErrors: [Double] = []
        /// Milliseconds per frame.
        public var milliseconds: [Double] = []

        public var foundRate: Double { wholePages == 0 ? 0 : Double(found) / Double(wholePages) }
        /// The part of whole pages found with a corner error of at most 1 % of the diagonal.
        public var accurateRate: Double { wholePages == 0 ? 0 : Double(cornerErrors.filter { $0 <= 0.01 }.count) / Double(wholePages) }
        public var medianCornerError: Double { Self.percentile(cornerErrors, 0.5) }
        public var p95CornerError: Double { Self.percentile(cornerErrors, 0.95) }

        static func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .infinity : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }

        public func percentileMilliseconds(_ p: Double) -> Double { Self.percentile(milliseconds, p) }
    }

    public var ours = Finder()
    public var baseline = Finder()
    /// Scenes without a page (empty platen, an ID document, a phone, a hand), and of those
    /// where a page was reported.
    public var withoutPage = 0
    public var falsePages = 0
    /// Of those, the scenes where the gate said ready (a page would be taken): "name (what lay there)".
    public var takenWithoutPage: [String] = []
    /// The scenes without a page where one was reported, "name (what lay there)".
    public var falsePageScenes: [String] = []
    /// The gate against the label: it said ready where the label is ready, and where it is not.
    public var labelledReady = 0
    public var gateReadyRight = 0
    public var gateReadyWrong = 0
    /// "name: label -> given" where the gate said ready on a scene not labelled so, or missed one.
    public var gateDisagreements: [String] = []
    public var scenes = 0

    public init() {}

    /// Runs each scene of `split` through a finder that learned its background from the idle
    /// frames (pages only), its guidance (one frame counting as held still), and the baseline.
    public static func run(
        _ data: VisionDataSet, split: VisionDataSet.Split, settings: DocumentFinder.Settings = VisionDataSet.finderSettings,
        guidance: DocumentGuidance.Settings = .init(), withBaseline: Bool = true
    ) throws -> PageEvaluation {
        var evaluation = PageEvaluation()
        var finders: [String: DocumentFinder] = [:]
        var still = guidance
        still.stillFrames = 1
        for scene in try data.scenes(split) {
            let finder = try data.finder(for: scene, settings: settings, finders: &finders)
            let image = try data.luma(scene)
            let start = ContinuousClock.now
            let observation = try finder.observe(image, classes: DocumentClass.pages)
            evaluation.ours.milliseconds.append(milliseconds(ContinuousClock.now - start))
            var guide = DocumentGuidance(settings: still)
            let state = guide.observe(observation)
            var baselineFound: Quadrilateral?
            if withBaseline {
                let baselineStart = ContinuousClock.now
                baselineFound = try DocumentFinder.baselineQuadrilateral(in: image)
                evaluation.baseline.milliseconds.append(milliseconds(ContinuousClock.now - baselineStart))
            }
            evaluation.record(scene, observation, state, baseline: baselineFound, withBaseline: withBaseline)
        }
        return evaluation
    }

    mutating func record(
        _ scene: VisionDataSet.Scene, _ observation: DocumentObservation, _ state: DocumentGuidance.State, baseline found: Quadrilateral?,
        withBaseline: Bool
    ) {
        scenes += 1
        if let truth = scene.corners, let truthClass = scene.documentClass, scene.whole {
            ours.wholePages += 1
            if let document = observation.document {
                ours.found += 1
                ours.cornerErrors.append(Self.cornerError(document.quadrilateral, truth))
                if document.documentClass == truthClass { ours.classRight += 1 }
            }
            if withBaseline {
                baseline.wholePages += 1
                if let found {
                    baseline.found += 1
                    baseline.cornerErrors.append(Self.cornerError(found, truth))
                }
            }
        }
        if scene.documentClass == nil {
            withoutPage += 1
            let what = "\(scene.name) (\(scene.negative ?? "nothing"))"
            if observation.document != nil {
                falsePages += 1
                falsePageScenes.append(what)
            }
            if state == .ready { takenWithoutPage.append(what) }
        }
        let ready = state == .ready
        if scene.expected == "ready" { labelledReady += 1 }
        if ready && scene.expected == "ready" { gateReadyRight += 1 }
        if ready && scene.expected != "ready" { gateReadyWrong += 1 }
        if ready != (scene.expected == "ready") {
            gateDisagreements.append("\(scene.name): \(scene.expected) -> \(DocumentEvaluation.label(state, found: observation.document != nil))")
        }
    }

    /// The mean corner distance in the best cyclic order, as a part of the truth's diagonal.
    public static func cornerError(_ found: Quadrilateral, _ truth: Quadrilateral) -> Double {
        var best = Double.infinity
        for shift in 0..<4 {
            var sum = 0.0
            for index in 0..<4 {
                let a = found.corners[(index + shift) % 4], b = truth.corners[index]
                sum += ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            }
            best = min(best, sum / 4)
        }
        return best / max(1, truth.diagonal)
    }

    /// Of the scenes labelled ready, the part the gate passed.
    public var gateRecall: Double { labelledReady == 0 ? 0 : Double(gateReadyRight) / Double(labelledReady) }
    /// Of the scenes the gate passed, the part labelled otherwise (a page not fit to read taken).
    public var gateFalseReadyRate: Double {
        let passed = gateReadyRight + gateReadyWrong
        return passed == 0 ? 0 : Double(gateReadyWrong) / Double(passed)
    }
    public var falsePageRate: Double { withoutPage == 0 ? 0 : Double(falsePages) / Double(withoutPage) }

    public var summary: [String] {
        func pct(_ x: Double) -> String { String(format: "%.1f %%", x * 100) }
        func finder(_ name: String, _ f: Finder) -> String {
            String(
                format: "%@: whole pages %d, found %@, corner error median %.2f %%, p95 %.2f %% of the diagonal, within 1 %%: %@",
                name, f.wholePages, pct(f.foundRate), f.medianCornerError * 100, f.p95CornerError * 100, pct(f.accurateRate))
        }
        var lines = [finder("ours", ours)]
        if baseline.wholePages > 0 { lines.append(finder("baseline", baseline)) }
        lines.append("ours: paper size right for \(pct(ours.found == 0 ? 0 : Double(ours.classRight) / Double(ours.found))) of found pages")
        lines.append(
            "ours: scenes without a page \(withoutPage), a page reported in \(pct(falsePageRate)) \(falsePageScenes), ready (taken) in \(takenWithoutPage.count)")
        lines.append("gate: labelled ready \(labelledReady), passed \(pct(gateRecall)) of them; of all passed, \(pct(gateFalseReadyRate)) not labelled ready")
        return lines
    }
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}
