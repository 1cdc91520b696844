extension Controller {
    /// Something the owner has to do after an event: show, capture, upload, time or wipe.
    ///
    /// Actions are returned in the order they must be performed.
    public enum Action: Hashable, Sendable {
        /// Send a message to the display (the Custom UI contract, see docs/events.md).
        case display(DisplayMessage)

        /// Start the camera pipeline for a mode; answer with `cameraStarted()` or `deviceLost(.camera)`.
        case startCamera(Scan.Mode)
        case stopCamera
        /// Take the picture now: the person pressed the shutter in a manual mode.
        case captureImage
        /// Stop detection while a help screen is shown; the preview goes on (seed 002 `pauseScan`).
        case pauseDetection
        /// Resume detection after a help screen (seed 002 `retryScan`).
        case resumeDetection
        /// Ask the person for a file (document credential in `file` mode); answer with `imageCaptured`.
        case requestFile

        /// Read the chip with this key; the chip reader reports progress and the end.
        case startChipRead(ChipAccessKey)
        case stopChipRead

        /// Send a part's images to the backend; answer with `partProcessed` or `scanFailed`.
        case uploadPart(Credential.Part, [CapturedImage])
        /// Send what the chip reader read to the backend.
        case uploadChipData
        /// Ask the backend to finalise the transaction; answer with `finalized` or `finalizeFailed`.
        case finalize(extractionOnly: Bool)

        /// Run a timer and call `timeoutFired` when it ends; it replaces the timer of the same kind.
        case scheduleTimeout(Timeout, after: Duration)
        case cancelTimeout(Timeout.Kind)

        /// Forget every image, chip datum and token of the session, in memory and in the outbox queue
        /// of parts not yet sent. Always the last action of a journey.
        case wipeSession
    }
}

extension Controller.Action {
    /// Whether the action starts the camera, which arms the device timer.
    var startsCamera: Bool {
        if case .startCamera = self { return true }
        return false
    }
}
