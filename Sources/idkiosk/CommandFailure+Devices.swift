import Camera
import Flash

extension ExitStatus {
    /// The status for a camera failure: missing or unusable devices vs. failing ones.
    init(_ error: CameraError) {
        switch error.kind {
        case .notFound, .unplugged, .permissionDenied, .notACaptureDevice: self = .deviceMissing
        case .badFile: self = .badInput
        case .busy, .timeout, .noSuitableMode, .invalidArgument, .controlNotSupported, .codec, .unsupportedFormat, .notStreaming, .failed:
            self = .deviceError
        }
    }

    /// The status for a flash failure: a chip or line that is not there vs. one that fails.
    init(_ error: FlashError) {
        switch error.kind {
        case .chipNotFound, .lineNotFound, .permissionDenied: self = .deviceMissing
        case .lineBusy, .released, .failed: self = .deviceError
        }
    }
}

extension CommandFailure {
    init(_ error: CameraError) {
        self.init(ExitStatus(error), error.description, hint: error.hint)
    }

    init(_ error: FlashError) {
        self.init(ExitStatus(error), error.description, hint: error.hint)
    }

    init(_ summary: CameraDiagnosticReport.ErrorSummary) {
        self.init(CameraError(kind: summary.kind, call: summary.call, errno: summary.errno, message: summary.message))
    }

    init(_ summary: FlashReport.ErrorSummary) {
        self.init(FlashError(kind: summary.kind, call: summary.call, errno: summary.errno, message: summary.message))
    }
}
