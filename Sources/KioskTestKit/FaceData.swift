import Foundation

/// The generated face data of scripts/face-data (`.cache/face-data`, docs/face-data.md):
/// single frames, liveness sequences and the simulated person's station assets.
public struct FaceData: Sendable {
    public let root: String

    /// `IDKIOSK_FACE_DATA`, else `.cache/face-data` of the package; nil when not generated.
    public init?() {
        let root = ProcessInfo.processInfo.environment["IDKIOSK_FACE_DATA"] ?? VisionCrops.packageRoot.appendingPathComponent(".cache/face-data").path
        guard FileManager.default.fileExists(atPath: root + "/stamp.json") else { return nil }
        self.root = root
    }

    public static let missing = "the generated face data in .cache/face-data (make face-data)"

    /// The station assets of the simulated person (``Camera/LitFaceCamera``).
    public var station: String { root + "/station" }

    /// A folder of recordings whose `face-lit/` shows `identity` in `presentation` (links to
    /// the shared assets and a `person.json` of its own). The caller removes `folder`.
    public func litRecordings(in folder: String, identity: String = "collins", presentation: String) throws {
        let lit = folder + "/face-lit"
        try FileManager.default.createDirectory(atPath: lit, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: station) where name != "person.json" {
            try FileManager.default.createSymbolicLink(atPath: lit + "/" + name, withDestinationPath: station + "/" + name)
        }
        let person = try JSONSerialization.data(withJSONObject: ["identity": identity, "presentation": presentation])
        try person.write(to: URL(fileURLWithPath: lit + "/person.json"))
    }

    /// The liveness sequences of a split: each recording and its truth file.
    public func livenessSequences(_ split: String) -> [(recording: String, truth: String)] {
        let base = root + "/liveness/" + split
        var result: [(String, String)] = []
        for kind in ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).sorted() {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: base + "/" + kind)) ?? []).sorted() where name.hasSuffix(".json") {
                let stem = base + "/" + kind + "/" + String(name.dropLast(5))
                result.append((stem + ".mjpeg", stem + ".json"))
            }
        }
        return result
    }
}
