/// A misuse of the controller by its owner (seeds: `Jumio.LogicalError`).
///
/// An event that is not allowed in the current state never crashes and never changes
/// the state: it returns `.logicalError` naming the rule that was broken.
public enum LogicalError: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible, Error {
    /// The workflow needs a liveness provider version the station does not have.
    case dependencyWrongVersion
    /// The seeds' error for a feature the SDK lacks. The kiosk implements every part, the
    /// digital one as a hand-off, so it never sends it; it stays for the contract.
    case notYetImplemented
    /// The controller is not running: it was not started, or its journey has ended (start a new one).
    case deadController
    /// `retryAfterError` without a pending retryable error.
    case errorNotRetryable
    /// A credential was started before every active consent item was accepted, or a
    /// consent answer names an item the workflow does not have.
    case needToConsentFirst
    /// `finish` while a credential is still open or unfinished.
    case controllerNotCompleted
    /// An event other than `cancel` while the controller finalises.
    case isBeingFinished
    /// A credential was started while another one is open.
    case multipleCredentials
    /// The credential is not part of the workflow, or none is open.
    case unknownCredential
    /// The credential was already finished.
    case deadCredential
    /// `finishCredential` before all its parts are done, or a scan part needs a configuration first.
    case credentialNotCompleted
    /// A scan part was started while another one is open.
    case multipleScanParts
    /// The part is not one of the credential's parts, or no scan part is open.
    case unknownScanPart
    /// The scan part is not at the step the event needs (e.g. `finishScanPart` before `canFinish`).
    case scanPartNotCompleted
    /// The scan part was already finished.
    case deadScanPart
    /// `switchToFallback` in a mode that has no fallback.
    case noFallbackAvailable
    /// `takeImage` outside a manual capture.
    case takePictureNotAllowed
    /// The workflow's token is missing or already expired.
    case tokenValidationFailed
    /// The workflow belongs to another data center than the station is configured for.
    case dataCenterValidationFailed
    /// Kiosk extension: a Fastfill (extraction-only) workflow asks for a face. Fastfill
    /// extracts document data and verifies nothing, so it has no face step (seed 002).
    case faceNotAllowedInFastfill

    public var description: String { rawValue }
}
