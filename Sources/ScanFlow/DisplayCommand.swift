/// A command from the display to the controller: the inbound half of the Custom UI contract.
///
/// Each case is one of the controller's person-facing events; `Controller.handle(_:)`
/// applies it. Its JSON form is versioned like `DisplayMessage`'s (docs/events.md).
public enum DisplayCommand: Hashable, Sendable {
    case userConsented(itemID: String, decision: Bool)
    case startCredential(id: String)
    case setConfiguration(country: String, document: Document)
    case setAcquireMode(Credential.AcquireMode)
    case startScanPart(Credential.Part)
    case takeImage
    case confirm
    case retake
    case switchToFallback
    case pauseScan
    case retryScan
    case finishScanPart
    case finishCredential
    case finish
    case cancel
    case retryAfterError
    case userIsPresent
}
