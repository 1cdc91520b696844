import Backend

/// What each workflow definition asks for, and which parts each credential takes.
enum WorkflowRequirements {
    /// 10011 ID only, 10013 ID and face, 10015 ID with chip, 10016 Authentication (the face
    /// only); explicit filters win.
    static func credentials(for definition: WorkflowDefinition) -> [CredentialFilter] {
        // An Authentication takes a face and nothing else, whatever the filters ask.
        if definition.key == WorkflowDefinition.authenticationKey { return [CredentialFilter(category: .FACEMAP)] }
        if let explicit = definition.credentials, !explicit.isEmpty { return explicit }
        switch definition.key {
        case 10013: return [CredentialFilter(category: .ID), CredentialFilter(category: .FACEMAP)]
        default: return [CredentialFilter(category: .ID)]
        }
    }

    /// The classifiers announced with upload URLs.
    static func classifiers(for category: CredentialCategory) -> [String] {
        switch category {
        case .ID: ["FRONT", "BACK", "FRONT_WITH_FLASH", "MRZ", "BARCODE", "NFC"]
        case .FACEMAP: ["FACE", "LIVENESS_0", "LIVENESS"]
        // A paper document's pages are PAGE_1, PAGE_2, ...: the first is announced, the rest
        // follow its pattern (docs/backend-api.yaml); FRONT and BACK stay for a two-sided one.
        case .DOCUMENT: ["FRONT", "BACK", "PAGE_1"]
        case .DATA: []
        }
    }

    /// The classifiers announced besides when the backend wants the camera's whole frames.
    static func fullFrameClassifiers(for category: CredentialCategory) -> [String] {
        category == .ID ? ["FRONT_FULL_FRAME", "BACK_FULL_FRAME"] : []
    }

    /// Whether a credential of this category takes the part.
    static func accepts(_ classifier: PartClassifier, for category: CredentialCategory, fullFrames: Bool = false) -> Bool {
        switch category {
        case .ID: [.front, .back, .frontWithFlash, .mrz, .barcode, .nfc].contains(classifier) || (fullFrames && [.frontFullFrame, .backFullFrame].contains(classifier))
        case .FACEMAP: classifier == .face || classifier == .livenessRecord || classifier.rawValue.hasPrefix("LIVENESS_")
        case .DOCUMENT: classifier == .front || classifier == .back || classifier.pageNumber != nil
        case .DATA: false
        }
    }
}
