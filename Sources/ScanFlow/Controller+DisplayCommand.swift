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
        case .setDigitalConfiguration(let country, let document):
            setConfiguration(country: country, digitalDocument: document)
        case .startScanPart(let part): startScanPart(part)
        case .takeImage: takeImage()
        case .lastPage: lastPage()
        case .confirm: confirm()
        case .retake: retake()
        case .switchToFallback: switchToFallback()
        case .pauseScan: pauseScan()
        case .retryScan: retryScan()
        case .handoffConfirmed: handoffConfirmed()
        case .finishScanPart: finishScanPart()
        case .finishCredential: finishCredential()
        case .finish: finish()
        case .cancel: cancel()
        case .retryAfterError: retryAfterError()
        case .userIsPresent: userIsPresent()
        case .enterChipKey(let key): enterChipKey(key)
        }
    }
}
