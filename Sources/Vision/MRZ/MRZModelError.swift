/// Why an MRZ model file cannot be used. The station reports it and reads no MRZ; it
/// never crashes on a bad file.
public enum MRZModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model file is not there (run `make vision-models`).
    case missing(path: String)
    /// The manifest beside the model is not there, or does not list the model.
    case notInManifest(path: String, name: String)
    /// The file's SHA-256 is not the one its manifest gives.
    case checksumMismatch(path: String, expected: String, actual: String)
    /// The file does not start with the model's magic bytes.
    case wrongMagic(path: String)
    /// The file is a model of a version this reader does not know.
    case unsupportedVersion(path: String, found: UInt32)
    /// The file is truncated or its shapes do not fit the reader.
    case corrupt(path: String, reason: String)
    /// The file exists but cannot be read.
    case unreadable(path: String, errno: Int32)

    /// A short stable code for logs and the command line.
    public var code: String {
        switch self {
        case .missing: "model-missing"
        case .notInManifest: "model-not-in-manifest"
        case .checksumMismatch: "model-checksum"
        case .wrongMagic: "model-magic"
        case .unsupportedVersion: "model-version"
        case .corrupt: "model-corrupt"
        case .unreadable: "model-unreadable"
        }
    }

    public var description: String {
        switch self {
        case .missing(let path): "MRZ model \(path) is missing; make it with `make vision-models`"
        case .notInManifest(let path, let name): "\(path) does not list \(name); make it with `make vision-models`"
        case .checksumMismatch(let path, let expected, let actual): "MRZ model \(path) has SHA-256 \(actual), its manifest says \(expected)"
        case .wrongMagic(let path): "\(path) is not an MRZ model (wrong magic bytes)"
        case .unsupportedVersion(let path, let found): "MRZ model \(path) is version \(found); this reader knows version \(MRZModel.version)"
        case .corrupt(let path, let reason): "MRZ model \(path) is corrupt: \(reason)"
        case .unreadable(let path, let errno): "cannot read MRZ model \(path) (errno \(errno))"
        }
    }
}
