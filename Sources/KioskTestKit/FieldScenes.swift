import Foundation
public import Imaging

/// Camera stills of documents on a platen with their truth, in one format: the field scenes
/// (scripts/vision-data/field, docs/vision-data.md "Field scenes": the project's own, split
/// train / heldout / sealed) and the clean-room stills (scripts/cleanroom-data,
/// docs/cleanroom-data.md: made without reading the vision code, for measuring only).
public enum FieldScenes {
    /// A still's truth (the fields the measurements use).
    public struct Truth: Decodable, Sendable {
        public let width: Int
        public let height: Int
        /// "TD1", "TD2", "TD3"; nil without a document.
        public let `class`: String?
        /// "card", "loose", "booklet"; nil without a document.
        public let layout: String?
        /// The lines printed on the side shown; nil when it has none.
        public let mrz: [String]?
        /// Whether every character cell of the MRZ is in the frame, sharp and clear of glare
        /// and thumbs.
        public let mrz_readable: Bool
        /// The data page's corners in reading order (top-left first), in frame pixels.
        public let corners: [[Double]]?
        /// plain, wood, stone, fabric, printed, photo.
        public let surface: String
        /// normal, visa_decoy, two_documents, text_page, partial_mrz, empty, non_document.
        public let `case`: String
        /// The guidance the station should give: centerId, tooClose, moveCloser, tilt,
        /// holdStraight, holdStill or ready.
        public let guidance: String?
        /// Whether an LED's glare lies on the document (a reject reason, not a guidance state).
        public let glare: Bool?
        /// The length of the motion blur on the page, in millimetres.
        public let motion_blur_mm: Double?
        /// The defocus (the field scenes' Gaussian's deviation on the page, mm; 0 when sharp).
        public let defocus_mm: Double?
    }

    /// One still: its name (`NNNN`), truth and the path of its frame.
    public struct Still: Sendable {
        public let name: String
        public let truth: Truth
        public let path: String

        /// The same camera's view of the empty platen (`NNNN-platen.jpg`).
        public var platenPath: String { String(path.dropLast(4)) + "-platen.jpg" }

        /// The frame's luma.
        public func luma() throws -> LumaImage {
            var image = LumaImage()
            try JPEGCodec().decodeLuma([UInt8](Data(contentsOf: URL(fileURLWithPath: path))), into: &image)
            return image
        }
    }

    /// The field scenes' split folder.
    public static func folder(_ split: String) -> String {
        VisionCrops.packageRoot.appendingPathComponent(".cache/vision-data/field/" + split).path
    }

    /// Whether the field scenes' `split` is there (`make field-data`).
    public static func has(_ split: String) -> Bool {
        FileManager.default.fileExists(atPath: folder(split) + "/0000.json")
    }

    /// Every still of `folder` (`NNNN.json` beside `NNNN.jpg`), by name.
    public static func stills(in folder: String) throws -> [Still] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let base = folder + "/" + String(name.dropLast(5))
            let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: base + ".json")))
            return Still(name: String(name.dropLast(5)), truth: truth, path: base + ".jpg")
        }
    }
}
