import Foundation
public import Imaging
public import Vision

/// The generated vision test data (`scripts/vision-data/generate.py`, docs/vision-data.md):
/// camera scenes with their ground truth, by split, and the empty-station frames to learn
/// each background from.
public struct VisionDataSet: Sendable {
    /// The splits: tune on `train` and `dev`; report `heldout`, never tune on it. The paper
    /// data has a `sealed` split too: the held-out looks with seeds no run had used, made after
    /// the held-out split had been seen, and measured once (docs/vision.md).
    public enum Split: String, Sendable, CaseIterable {
        case train, dev, heldout, sealed
    }

    /// One scene's ground truth.
    public struct Scene: Sendable {
        public var name: String
        public var width: Int
        public var height: Int
        public var background: String
        public var documentClass: DocumentClass?
        public var side: String?
        /// Corners in the order of ``Quadrilateral`` (possibly outside the frame).
        public var corners: Quadrilateral?
        public var whole: Bool
        public var mrz: [String]?
        /// What was placed instead of a document (`hand`, `phone`, `book`, `photo`), if anything.
        public var negative: String?
        /// The guidance the scene alone should give: `none` (no document), `centerId`,
        /// `tooClose`, `moveCloser`, `tilt`, `holdStraight` or `ready`.
        public var expected: String
        public var blurPixels: Double
        public var path: String
    }

    public let root: String

    /// The horizontal field of view of the data's camera, in degrees: its focal length is
    /// 1.2 frame widths (docs/vision-data.md). A station is configured with its camera's.
    public static let horizontalFieldOfView = 2 * atan(0.5 / 1.2) * 180 / Double.pi

    /// Finder settings for the data's camera.
    public static var finderSettings: DocumentFinder.Settings {
        var settings = DocumentFinder.Settings()
        settings.horizontalFieldOfView = horizontalFieldOfView
        return settings
    }

    /// The data set under `root` (default: `.cache/vision-data` of the package, or
    /// `IDKIOSK_VISION_DATA`); nil when it has not been generated.
    public init?(root: String? = nil) {
        let path = root ?? ProcessInfo.processInfo.environment["IDKIOSK_VISION_DATA"] ?? Self.packageRoot + "/.cache/vision-data"
        guard FileManager.default.fileExists(atPath: path + "/scenes") else { return nil }
        self.root = path
    }

    /// Why a test that needs the data skips.
    public static let missing = "the generated vision data (.cache/vision-data): run `make vision-data`"

    /// The generated paper-document data (`scripts/vision-data/paper/generate.py`): pages of
    /// bills and statements in scenes, the `demo-pages` recording; `IDKIOSK_PAPER_DATA` or
    /// `.cache/vision-data/paper` of the package. Nil when it has not been generated.
    public static func paper(root: String? = nil) -> VisionDataSet? {
        VisionDataSet(root: root ?? ProcessInfo.processInfo.environment["IDKIOSK_PAPER_DATA"] ?? packageRoot + "/.cache/vision-data/paper")
    }

    public static let paperMissing = "the generated paper-document data (.cache/vision-data/paper): run `make vision-data`"

    static var packageRoot: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }

    /// The scenes of a split, in name order.
    public func scenes(_ split: Split) throws -> [Scene] {
        let folder = root + "/scenes/" + split.rawValue
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let truth = try JSONDecoder().decode(SceneFile.self, from: data)
            let stem = String(name.dropLast(".json".count))
            let corners = truth.document.map { Quadrilateral($0.corners.map { Point(x: $0[0], y: $0[1]) }) }
            return Scene(
                name: split.rawValue + "/" + stem, width: truth.size[0], height: truth.size[1], background: truth.background,
                documentClass: truth.document.flatMap { DocumentClass(rawValue: $0.class) }, side: truth.document?.side,
                corners: corners, whole: truth.document?.whole ?? false, mrz: truth.document?.mrz, negative: truth.negative,
                expected: truth.expected, blurPixels: truth.document?.blur_px ?? 0, path: folder + "/" + stem + ".jpg")
        }
    }

    /// The scene's frame as luma.
    public func luma(_ scene: Scene) throws -> LumaImage {
        var image = LumaImage()
        try JPEGCodec(fastDecode: false).decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: scene.path))), into: &image)
        return image
    }

    /// The empty-station frames of a background at a size (camera noise and JPEG, like the
    /// scenes), else its clean image (the generator makes idle frames at 1280x720 only).
    public func idleFrames(background: String, width: Int, height: Int) throws -> [LumaImage] {
        let folder = root + "/backgrounds"
        let prefix = "\(background)-\(width)x\(height)-idle-"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(prefix) && $0.hasSuffix(".jpg") }.sorted()
        if names.isEmpty {
            return [try PNGCodec.decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(background)-\(width)x\(height).png"))))]
        }
        return try names.map { name in
            var image = LumaImage()
            try JPEGCodec(fastDecode: false).decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))), into: &image)
            return image
        }
    }

    /// A finder that has learned the scene's station background from its idle frames, one
    /// per background and size, kept in `finders`.
    public func finder(
        for scene: Scene, settings: DocumentFinder.Settings = finderSettings, finders: inout [String: DocumentFinder]
    ) throws -> DocumentFinder {
        let key = "\(scene.background)-\(scene.width)x\(scene.height)"
        if let known = finders[key] { return known }
        let finder = try DocumentFinder(settings: settings)
        for (index, idle) in try idleFrames(background: scene.background, width: scene.width, height: scene.height).enumerated() {
            try finder.learnBackground(idle, weight: index == 0 ? 1 : 1 / Double(index + 1))
        }
        finders[key] = finder
        return finder
    }

    /// The path of a recorded sequence (`NAME.mjpeg`) and its per-frame ground truth.
    public func sequence(_ name: String) -> String { root + "/sequences/" + name + ".mjpeg" }

    /// The frames of a recorded sequence, decoded, each with whether a whole document
    /// lies in it (its ground truth).
    public func sequenceFrames(_ name: String) throws -> [(image: LumaImage, whole: Bool)] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sequence(name))))
        let truth = try JSONDecoder().decode([SequenceFrame?].self, from: Data(contentsOf: URL(fileURLWithPath: root + "/sequences/" + name + ".json")))
        // Each frame ends with an end-of-image marker right before the next start-of-image.
        var starts = [0]
        for i in 2..<max(2, data.count - 1) where data[i - 2] == 0xFF && data[i - 1] == 0xD9 && data[i] == 0xFF && data[i + 1] == 0xD8 {
            starts.append(i)
        }
        guard starts.count == truth.count else {
            throw TestFailure("\(name): \(starts.count) frames, \(truth.count) in its ground truth")
        }
        let codec = JPEGCodec(fastDecode: false)
        return try zip(starts, starts.dropFirst() + [data.count]).enumerated().map { index, range in
            var image = LumaImage()
            try codec.decodeLuma(Array(data[range.0..<range.1]), into: &image)
            return (image, truth[index]?.whole ?? false)
        }
    }

    private struct SequenceFrame: Decodable {
        var whole: Bool
    }

    private struct SceneFile: Decodable {
        struct Document: Decodable {
            var `class`: String
            var side: String?
            var corners: [[Double]]
            var whole: Bool
            var mrz: [String]?
            var blur_px: Double?
        }
        var size: [Int]
        var background: String
        var document: Document?
        var negative: String?
        var expected: String
    }
}
