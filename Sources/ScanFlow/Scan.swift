/// The seeds' `Jumio.Scan` namespace: how a part is scanned (`Mode`), the lifecycle
/// steps that need an answer (`Step`) and the information shown while scanning (`Update`).
public enum Scan {
    /// How a scan part captures its evidence.
    ///
    /// `faceLiveness` is the kiosk's certified-liveness slot where the seeds say `faceIProov`.
    public enum Mode: String, Hashable, Sendable, Codable, CaseIterable {
        case manual
        case docFinder
        case barcode
        case nfc
        case faceManual
        case faceLiveness
        case file
        case web

        /// The mode the seeds fall back to when this one does not work for the person
        /// (`switchToFallback`); `nil` when there is nothing simpler to offer.
        public var fallback: Mode? {
            switch self {
            case .docFinder, .barcode: .manual
            case .faceLiveness: .faceManual
            case .manual, .nfc, .faceManual, .file, .web: nil
            }
        }

        /// Whether the person presses a shutter button in this mode (`takeImage`).
        public var hasShutter: Bool {
            self == .manual || self == .faceManual
        }

        /// Whether this mode captures through the station's camera.
        public var usesCamera: Bool {
            switch self {
            case .manual, .docFinder, .barcode, .faceManual, .faceLiveness: true
            case .nfc, .file, .web: false
            }
        }
    }
}
