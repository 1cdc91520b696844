extension Scan {
    /// A lifecycle step of a scan part that the display shows and that usually needs an
    /// answer from the person (seeds: `Jumio.Scan.Step`).
    public enum Step: Hashable, Sendable {
        /// The part needs preparation (the camera or the liveness provider is starting).
        case prepare(Credential.Part)
        /// The part started; a loading view can be dismissed.
        case started(Credential.Part, Scan.Mode)
        /// The scan view for the part should be on screen.
        case scanView(Credential.Part, Scan.Mode)
        /// A digital part shows its hand-off (the `digitalHandoff` message before it) and waits
        /// for the person to open it on their phone (the seeds' `Jumio.DigitalIdentity.View`).
        case digitalIdentityView(Credential.Part)
        /// The person verifies with the Digital Identity provider; show a loading indicator until
        /// the backend reports the outcome.
        case thirdPartyVerification(Credential.Part)
        /// All images of the part are taken: exactly once per part.
        case imageTaken(Credential.Part)
        /// The evidence is being processed; the camera preview is stopped.
        case processing(Credential.Part)
        /// The capture was usable: show it and ask to confirm or retake.
        case confirmationView(Credential.Part)
        /// Instant Feedback rejected the capture: show why and ask to retake.
        case rejectView([Credential.Part: RejectReason])
        /// The part has to be scanned again for the given reason.
        case retry(Credential.Part, Retry.Reason)
        /// The part is done and can be finished.
        case canFinish(Credential.Part)
        /// An add-on part follows (the chip after a passport's data page).
        case addonScanPart(Credential.Part)
        /// A multipart part moves on to its next side (front -> back).
        case nextPart(Credential.Part)
        /// The chip needs its key from the person: the card access number (CAN), or the
        /// document number with the dates of birth and expiry. The station answers
        /// `enterChipKey`; `switchToFallback` goes on without the chip.
        case chipKeyView(Credential.Part, Scan.ChipKeyReason)
    }

    /// Why the person is asked for the chip's key.
    public enum ChipKeyReason: String, Hashable, Sendable, Codable, CaseIterable {
        /// The MRZ was not read in time (or the document shows none).
        case notRead
        /// The chip refused every key read from the MRZ, or the key typed.
        case refused
    }
}
