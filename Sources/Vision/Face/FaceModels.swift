import Foundation
import Imaging
import Synchronization

/// The two model files of the face analysis, loaded once: dlib's 5-point shape predictor
/// (landmarks) and its face recognition ResNet (embeddings), from the PyPI package
/// face-recognition-models 0.3.0 (CC0; docs/vision-models.md). Each file is checked
/// against the SHA-256 of the file that package ships before dlib reads it.
///
/// Detection needs no model (``FaceDetector`` uses dlib's built-in HOG detector); without
/// these files a face is found but has no landmarks, no guidance beyond its box, and no
/// embedding.
public final class FaceModels: Sendable {
    public static let landmarksFileName = "shape_predictor_5_face_landmarks.dat"
    public static let embeddingFileName = "dlib_face_recognition_resnet_model_v1.dat"
    /// The files' SHA-256 as face-recognition-models 0.3.0 ships them.
    public static let digests = [
        landmarksFileName: "c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888",
        embeddingFileName: "55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30",
    ]

    /// What loading cost: wall time, the files' size (what the models hold in memory, at
    /// least), and the growth of the process's resident memory while they loaded (0 when the
    /// allocator reused memory another part of the process had given back).
    public struct Cost: Hashable, Sendable {
        public var milliseconds: Double
        public var fileBytes: Int
        public var residentBytes: Int
    }

    public let cost: Cost
    private let shape: Mutex<OpaquePointer>
    private let net: Mutex<OpaquePointer>

    /// Loads both files from `folder`.
    /// - Throws: ``FaceModelError``: a file missing, unreadable, of another checksum, or one
    ///   dlib cannot read.
    public init(folder: String) throws(FaceModelError) {
        let start = ContinuousClock.now
        let before = Self.residentBytes()
        let landmarks = (folder as NSString).appendingPathComponent(Self.landmarksFileName)
        let embedding = (folder as NSString).appendingPathComponent(Self.embeddingFileName)
        try Self.check(landmarks, expected: Self.digests[Self.landmarksFileName]!)
        try Self.check(embedding, expected: Self.digests[Self.embeddingFileName]!)
        let shape = try Self.load(landmarks, Dlib.loadShape)
        guard Dlib.points(shape) == 5 else {
            Dlib.destroyShape(shape)
            throw .corrupt(path: landmarks, reason: "the predictor gives \(Dlib.points(shape)) points, not 5")
        }
        let net: OpaquePointer
        do {
            net = try Self.load(embedding, Dlib.loadNet)
        } catch {
            Dlib.destroyShape(shape)
            throw error
        }
        self.shape = Mutex(shape)
        self.net = Mutex(net)
        let elapsed = ContinuousClock.now - start
        let sizes = [landmarks, embedding].map { ((try? FileManager.default.attributesOfItem(atPath: $0)[.size]) as? Int) ?? 0 }
        cost = Cost(
            milliseconds: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
            fileBytes: sizes.reduce(0, +), residentBytes: max(0, Self.residentBytes() - before))
    }

    deinit {
        shape.withLock { Dlib.destroyShape($0) }
        net.withLock { Dlib.destroyNet($0) }
    }

    func landmarks(in image: LumaImage, box: FaceBox) throws(VisionError) -> FaceLandmarks {
        let points = try shape.withLock { shape throws(VisionError) in try Dlib.landmarks(shape, in: image, box: box).get() }
        guard let landmarks = FaceLandmarks(dlibOrder: points) else {
            throw VisionError(kind: .library, call: "idkdl_landmarks", message: "\(points.count) points, not 5")
        }
        return landmarks
    }

    func embedding(ofChip chip: RGBImage) throws(VisionError) -> [Float] {
        try net.withLock { net throws(VisionError) in try Dlib.embed(net, chip: chip).get() }
    }

    private static func check(_ path: String, expected: String) throws(FaceModelError) {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        let actual: String
        switch Dlib.sha256(path: path) {
        case .success(let digest): actual = digest
        case .failure(let failure): throw .unreadable(path: path, errno: failure.errno)
        }
        guard actual == expected else { throw .checksumMismatch(path: path, expected: expected, actual: actual) }
    }

    private static func load(
        _ path: String, _ loader: (String) -> Result<OpaquePointer, Dlib.DlibLoadFailure>
    ) throws(FaceModelError) -> OpaquePointer {
        switch loader(path) {
        case .success(let handle): return handle
        case .failure(.corrupt(let reason)): throw .corrupt(path: path, reason: reason)
        case .failure(.other(let error)): throw .library(error)
        }
    }

    /// The process's resident set, from /proc/self/statm (0 where there is none).
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
