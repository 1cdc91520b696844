public import Imaging

extension CameraError {
    /// The camera error for a frame or recording that could not be converted or coded.
    ///
    /// The kind keeps its meaning in camera terms (a short frame is a bad file, as a
    /// damaged recording is); the C call and the library's message are kept as they are.
    public init(_ error: ImagingError) {
        let kind: Kind
        switch error.kind {
        case .codec: kind = .codec
        case .unsupportedFormat: kind = .unsupportedFormat
        case .malformedFrame: kind = .badFile
        case .invalidArgument: kind = .invalidArgument
        }
        self.init(kind: kind, call: error.call, message: error.message)
    }

    /// Runs imaging work where camera code converts or codes frames, so that its failures
    /// reach callers as camera errors.
    static func catching<T>(_ body: () throws(ImagingError) -> T) throws(CameraError) -> T {
        do {
            return try body()
        } catch {
            throw CameraError(error)
        }
    }
}
