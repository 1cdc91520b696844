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

extension Controller {
    /// Applies a command from the display.
    ///
    /// - Returns: the actions of the matching event function.
    public mutating func handle(_ command: DisplayCommand) -> [Action] {
        switch command {
        case .userConsented(let itemID, let decision): userConsented(itemID: itemID, decision: decision)
        case .startCredential(let id): startCredential(id: id)
        case .setConfiguration(let country, let document): setConfiguration(country: country, document: document)
        case .setAcquireMode(let mode): setAcquireMode(mode)
        case .startScanPart(let part): startScanPart(part)
        case .takeImage: takeImage()
        case .confirm: confirm()
        case .retake: retake()
        case .switchToFallback: switchToFallback()
        case .pauseScan: pauseScan()
        case .retryScan: retryScan()
        case .finishScanPart: finishScanPart()
        case .finishCredential: finishCredential()
        case .finish: finish()
        case .cancel: cancel()
        case .retryAfterError: retryAfterError()
        case .userIsPresent: userIsPresent()
        }
    }
}
