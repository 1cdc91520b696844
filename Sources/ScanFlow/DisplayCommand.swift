/// A command from the display to the controller: the inbound half of the Custom UI contract.
///
/// Each case is one of the controller's person-facing events; `Controller.handle(_:)`
/// applies it. Its JSON form is versioned like `DisplayMessage`'s (docs/events.md).
public enum DisplayCommand: Hashable, Sendable {
    case userConsented(itemID: String, decision: Bool)
    case startCredential(id: String)
    case setConfiguration(country: String, document: Document)
    case setAcquireMode(Credential.AcquireMode)
    case setDigitalConfiguration(country: String, digitalDocument: DigitalDocument)
    case startScanPart(Credential.Part)
    case takeImage
    /// The person says the page just taken was the document's last (a paper document taken
    /// page by page): the part's images are complete.
    case lastPage
    case confirm
    case retake
    case switchToFallback
    case pauseScan
    case retryScan
    /// The person says they opened the Digital Identity hand-off on their phone.
    case handoffConfirmed
    case finishScanPart
    case finishCredential
    case finish
    case cancel
    case retryAfterError
    case userIsPresent
    /// The chip's key the person typed on `chipKeyView`. Personal data: it prints redacted.
    case enterChipKey(ChipAccessKey)
}
