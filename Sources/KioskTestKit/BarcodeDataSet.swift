import Foundation
public import Imaging
public import Vision

/// The generated barcode data (`scripts/barcode-data/generate.py`, docs/vision-data.md
/// "Barcode data"): camera frames of North American cards' fronts and backs, each back's
/// PDF417 encoding an AAMVA record, with the record's bytes and fields as ground truth.
public struct BarcodeDataSet: Sendable {
    /// Tune on `train`; report `heldout`. `sealed`: the held-out stations and colour schemes
    /// with seeds no run had used, made after the held-out split had been measured three
    /// times, and measured once (docs/vision.md).
    public enum Split: String, Sendable, CaseIterable {
        case train, heldout, sealed
    }

    /// The fields a parser must find in a scene's record (the generator's own account).
    public struct Fields: Sendable, Decodable {
        public var iin: String
        public var version: Int
        public var kind: String
        public var country: String
        public var documentNumber: String
        public var familyName: String
        public var firstName: String
        public var middleNames: String?
        public var dateOfBirth: String
        public var expiryDate: String
        public var issuingDate: String
        public var sex: String
        public var street: String?
        public var city: String?
        public var jurisdiction: String?
        public var postalCode: String?
    }

    public struct Scene: Sendable {
        public var name: String
        public var width: Int
        public var height: Int
        public var background: String
        /// What the generator drew: ready, small, tilted, rotated, blurred, front.
        public var kind: String
        /// The card's corners as printed.
        public var corners: Quadrilateral
        /// The record's bytes on a back; nil on a front (no barcode).
        public var record: [UInt8]?
        public var fields: Fields?
        /// The PDF417's module width in frame pixels.
        public var modulePixels: Double?
        public var path: String
    }

    public let root: String

    /// The data set under `root` (default: `.cache/barcode-data` of the package, or
    /// `IDKIOSK_BARCODE_DATA`); nil when it has not been generated.
    public init?(root: String? = nil) {
        let path = root ?? ProcessInfo.processInfo.environment["IDKIOSK_BARCODE_DATA"] ?? VisionDataSet.packageRoot + "/.cache/barcode-data"
        guard FileManager.default.fileExists(atPath: path + "/scenes") else { return nil }
        self.root = path
    }

    /// Why a test that needs the data skips.
    public static let missing = "the generated barcode data (.cache/barcode-data): run `make vision-data`"

    private struct SceneFile: Decodable {
        struct Card: Decodable {
            struct Barcode: Decodable {
                var text: String
                var fields: Fields
                var module_px: Double
            }
            var side: String
            var corners: [[Double]]
            var barcode: Barcode?
        }
        var size: [Int]
        var background: String
        var `case`: String
        var card: Card
    }

    /// The scenes of a split, in name order.
    public func scenes(_ split: Split) throws -> [Scene] {
        let folder = root + "/scenes/" + split.rawValue
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let truth = try JSONDecoder().decode(SceneFile.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            let stem = String(name.dropLast(".json".count))
            return Scene(
                name: split.rawValue + "/" + stem, width: truth.size[0], height: truth.size[1], background: truth.background, kind: truth.case,
                corners: Quadrilateral(truth.card.corners.map { Point(x: $0[0], y: $0[1]) }),
                // The generator writes the record as text, one character per byte.
                record: truth.card.barcode.map { $0.text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } },
                fields: truth.card.barcode?.fields, modulePixels: truth.card.barcode?.module_px, path: folder + "/" + stem + ".jpg")
        }
    }

    /// The scene's frame as luma.
    public func luma(_ scene: Scene) throws -> LumaImage {
        var image = LumaImage()
        try JPEGCodec(fastDecode: false).decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: scene.path))), into: &image)
        return image
    }

    /// A finder that has learned the scene's station from its idle frames, one per station and size.
    public func finder(for scene: Scene, finders: inout [String: DocumentFinder]) throws -> DocumentFinder {
        let key = "\(scene.background)-\(scene.width)x\(scene.height)"
        if let known = finders[key] { return known }
        let finder = try DocumentFinder(settings: VisionDataSet.finderSettings)
        let folder = root + "/backgrounds"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(key + "-idle-") }.sorted()
        for (index, name) in names.enumerated() {
            var idle = LumaImage()
            try JPEGCodec(fastDecode: false).decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))), into: &idle)
            try finder.learnBackground(idle, weight: index == 0 ? 1 : 1 / Double(index + 1))
        }
        finders[key] = finder
        return finder
    }

    /// The recording of a card shown front then back (`sequences/us-dl-front-back.mjpeg`).
    public var frontBackRecording: String { root + "/sequences/us-dl-front-back.mjpeg" }
}

/// The station's barcode reading measured on a split, against ZXing on the whole frame.
public struct BarcodeEvaluation: Sendable {
    public struct Counts: Sendable {
        public var backs = 0
        /// Backs whose record was decoded exactly.
        public var decoded = 0
        /// Symbols decoded to other bytes than encoded (must stay 0), on backs or fronts.
        public var wrong = 0
        /// Fronts on which a symbol was reported (there is none).
        public var phantom = 0
        public var fronts = 0
        /// Time spent reading, per frame.
        public var seconds: [Double] = []
        /// Backs decoded and seen, by what the generator drew (ready, small, tilted, rotated, blurred).
        public var byKind: [String: (decoded: Int, backs: Int)] = [:]

        public var rate: Double { backs == 0 ? 0 : Double(decoded) / Double(backs) }
        public var medianMilliseconds: Double {
            let sorted = seconds.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2] * 1000
        }
        public var meanMilliseconds: Double { seconds.isEmpty ? 0 : seconds.reduce(0, +) / Double(seconds.count) * 1000 }
    }

    /// The station's way: the document finder (which learned the platen) finds the card, its
    /// perspective-corrected crop is read (``CardBarcodeReader``).
    public var pipeline = Counts()
    /// ZXing-C++ with its default hints on the whole frame.
    public var wholeFrame = Counts()
    /// Backs on which the finder found no card.
    public var notFound = 0

    /// Runs both readers on every scene of `split`; `limit` takes the first scenes only.
    public static func run(_ data: BarcodeDataSet, split: BarcodeDataSet.Split, limit: Int? = nil) throws -> BarcodeEvaluation {
        var evaluation = BarcodeEvaluation()
        var finders: [String: DocumentFinder] = [:]
        let card = CardBarcodeReader()
        let baseline = PDF417Reader()
        let clock = ContinuousClock()
        var scenes = try data.scenes(split)
        if let limit { scenes = Array(scenes.prefix(limit)) }
        for scene in scenes {
            let luma = try data.luma(scene)
            let finder = try data.finder(for: scene, finders: &finders)
            var ours: PDF417Symbol?
            let pipelineTime = try clock.measure {
                let observation = try finder.observe(luma, learning: false, measureQuality: false)
                if let document = observation.document {
                    ours = try card.read(luma, card: document.quadrilateral)
                } else {
                    evaluation.notFound += scene.record == nil ? 0 : 1
                }
            }
            var theirs: PDF417Symbol?
            let baselineTime = try clock.measure { theirs = try baseline.read(luma) }
            evaluation.pipeline.record(scene, ours, seconds: pipelineTime.secondsValue)
            evaluation.wholeFrame.record(scene, theirs, seconds: baselineTime.secondsValue)
        }
        return evaluation
    }
}

extension BarcodeEvaluation.Counts {
    mutating func record(_ scene: BarcodeDataSet.Scene, _ symbol: PDF417Symbol?, seconds: Double) {
        self.seconds.append(seconds)
        if let record = scene.record {
            backs += 1
            byKind[scene.kind, default: (0, 0)].backs += 1
            guard let symbol else { return }
            if symbol.bytes == record {
                decoded += 1
                byKind[scene.kind, default: (0, 0)].decoded += 1
            } else {
                wrong += 1
            }
        } else {
            fronts += 1
            if symbol != nil { phantom += 1 }
        }
    }
}

extension Duration {
    fileprivate var secondsValue: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
