import Foundation
public import Vision

/// The document finder and guidance measured on a split of the generated scenes against
/// their ground truth: detection, corner accuracy (the Jaccard index, SmartDoc 2015's
/// measure), class, false documents, and agreement of the guidance with the label.
public struct DocumentEvaluation: Sendable {
    /// Scenes with a whole document in them.
    public var wholeDocuments = 0
    /// Of those, found (any class).
    public var found = 0
    /// The Jaccard index of each found whole document against its ground truth.
    public var jaccard: [Double] = []
    /// Found whole documents whose shape class is right (TD2 and TD3 share one).
    public var classRight = 0
    /// Scenes with no document (a hand, a phone, a book, a photo, or nothing).
    public var withoutDocument = 0
    /// Of those, where a document was reported.
    public var falseDocuments = 0
    /// Labels and the guidance given, as "label -> given" counts.
    public var guidance: [String: Int] = [:]
    public var guidanceAgreed = 0
    /// The scenes whose guidance differed from the label: "name: label -> given".
    public var disagreements: [String] = []
    public var scenes = 0
    /// Milliseconds of each `observe` call.
    public var milliseconds: [Double] = []

    public init() {}

    /// Runs each scene through a finder that has learned its station's background from
    /// the idle frames, and a guidance that takes one frame as held still.
    public static func run(
        _ data: VisionDataSet, split: VisionDataSet.Split, settings: DocumentFinder.Settings = VisionDataSet.finderSettings,
        guidance: DocumentGuidance.Settings = .init(), limit: Int? = nil
    ) throws -> DocumentEvaluation {
        var evaluation = DocumentEvaluation()
        var finders: [String: DocumentFinder] = [:]
        var still = guidance
        still.stillFrames = 1
        for scene in try data.scenes(split).prefix(limit ?? .max) {
            let finder = try data.finder(for: scene, settings: settings, finders: &finders)
            let image = try data.luma(scene)
            let start = ContinuousClock.now
            let observation = try finder.observe(image)
            let elapsed = ContinuousClock.now - start
            evaluation.milliseconds.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            var guide = DocumentGuidance(settings: still)
            evaluation.record(scene, observation, guide.observe(observation))
        }
        return evaluation
    }

    mutating func record(_ scene: VisionDataSet.Scene, _ observation: DocumentObservation, _ state: DocumentGuidance.State) {
        scenes += 1
        if let truth = scene.corners, let truthClass = scene.documentClass, scene.whole {
            wholeDocuments += 1
            if let document = observation.document {
                found += 1
                jaccard.append(document.quadrilateral.jaccardIndex(with: truth))
                if Self.shape(document.documentClass) == Self.shape(truthClass) { classRight += 1 }
            }
        }
        if scene.documentClass == nil {
            withoutDocument += 1
            if observation.document != nil { falseDocuments += 1 }
        }
        let given = Self.label(state, found: observation.document != nil)
        guidance["\(scene.expected) -> \(given)", default: 0] += 1
        if given == scene.expected {
            guidanceAgreed += 1
        } else {
            disagreements.append("\(scene.name): \(scene.expected) -> \(given)\(scene.negative.map { " (\($0))" } ?? "")")
        }
    }

    /// The label a state stands for (nothing found is `centerId`, as the seeds say it);
    /// `holdStill` (one blurred frame) is its own.
    static func label(_ state: DocumentGuidance.State, found: Bool) -> String {
        switch state {
        case .centerId: "centerId"
        case .tooClose: "tooClose"
        case .moveCloser: "moveCloser"
        case .tilt: "tilt"
        case .holdStraight: "holdStraight"
        case .holdStill: "holdStill"
        case .ready: "ready"
        }
    }

    static func shape(_ documentClass: DocumentClass) -> String {
        switch documentClass {
        case .td1: "ID-1"
        case .td2, .td3: "ID-3"
        case .a4: "A4"
        case .letter: "Letter"
        }
    }

    public var foundRate: Double { wholeDocuments == 0 ? 0 : Double(found) / Double(wholeDocuments) }
    public var meanJaccard: Double { jaccard.isEmpty ? 0 : jaccard.reduce(0, +) / Double(jaccard.count) }
    /// The part of whole documents found with a Jaccard index of at least 0.95 (missed ones count as below).
    public var accurateRate: Double { wholeDocuments == 0 ? 0 : Double(jaccard.filter { $0 >= 0.95 }.count) / Double(wholeDocuments) }
    public var classRate: Double { found == 0 ? 0 : Double(classRight) / Double(found) }
    public var falseDocumentRate: Double { withoutDocument == 0 ? 0 : Double(falseDocuments) / Double(withoutDocument) }
    public var guidanceRate: Double { scenes == 0 ? 0 : Double(guidanceAgreed) / Double(scenes) }

    public func percentile(_ p: Double) -> Double {
        let sorted = milliseconds.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    public var summary: [String] {
        func pct(_ x: Double) -> String { String(format: "%.1f %%", x * 100) }
        return [
            "scenes \(scenes); whole documents \(wholeDocuments), found \(pct(foundRate)); Jaccard mean \(String(format: "%.3f", meanJaccard)), >= 0.95 for \(pct(accurateRate)) of them",
            "shape class right \(pct(classRate)); scenes without a document \(withoutDocument), a document reported in \(pct(falseDocumentRate))",
            "guidance agrees with the label in \(pct(guidanceRate)); observe median \(String(format: "%.2f", percentile(0.5))) ms, p95 \(String(format: "%.2f", percentile(0.95))) ms",
        ]
    }
}
