import Foundation
public import Imaging
public import Vision

/// The perspective-corrected document crops of the generated vision data
/// (`.cache/vision-data/crops`, made by scripts/vision-data/generate.py; docs/vision-data.md)
/// and the models (`.cache/models`, made by `make vision-models`) that the MRZ tests read.
public enum VisionCrops {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `.cache/models` of the package.
    public static let models = packageRoot.appendingPathComponent(".cache/models").path
    /// The crops: `IDKIOSK_VISION_DATA/crops`, else `.cache/vision-data/crops` of the package.
    public static let crops = (ProcessInfo.processInfo.environment["IDKIOSK_VISION_DATA"] ?? packageRoot.appendingPathComponent(".cache/vision-data").path) + "/crops"

    public static var hasModel: Bool { FileManager.default.fileExists(atPath: models + "/" + MRZModel.fileName) }
    public static func hasCrops(_ split: String) -> Bool { !((try? FileManager.default.contentsOfDirectory(atPath: crops + "/" + split)) ?? []).isEmpty }

    /// The MRZ model, loaded once; nil when it is missing or refused.
    public static let model: MRZModel? = try? MRZModel(folder: models)

    /// A document crop and its ground truth.
    public struct Crop: Sendable {
        public let name: String
        public let image: LumaImage
        public let documentClass: String
        public let side: String
        /// The MRZ lines, nil when the crop shows none.
        public let mrz: [String]?
    }

    struct Truth: Decodable {
        let `class`: String
        let side: String
        let mrz: [String]?
    }

    /// Every crop of `split` (`train`, `dev`, `heldout`), by name.
    public static func crops(_ split: String) throws -> [Crop] {
        let folder = crops + "/" + split
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pgm") }.sorted()
        return try names.map { name in
            let base = folder + "/" + String(name.dropLast(4))
            let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: base + ".json")))
            return Crop(name: name, image: try pgm(base + ".pgm"), documentClass: truth.class, side: truth.side, mrz: truth.mrz)
        }
    }

    public struct FormatError: Error {}

    /// An 8-bit binary PGM (P5).
    public static func pgm(_ path: String) throws -> LumaImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var index = 0
        func token() throws -> Int {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != 10 { index += 1 }
                } else if bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 10 || bytes[index] == 13 {
                    index += 1
                } else {
                    break
                }
            }
            var value = 0, digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                value = value * 10 + Int(bytes[index] - 48)
                index += 1
                digits += 1
            }
            guard digits > 0 else { throw FormatError() }
            return value
        }
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5") else { throw FormatError() }
        index = 2
        let width = try token(), height = try token(), maximum = try token()
        index += 1
        guard maximum == 255, bytes.count - index >= width * height else { throw FormatError() }
        return LumaImage(width: width, height: height, pixels: Array(bytes[index..<(index + width * height)]))
    }
}
