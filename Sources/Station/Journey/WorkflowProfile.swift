public import Backend
public import ScanFlow

/// The journey a station offers (from `journey.workflow` and `journey.countries`): what
/// the station asks the backend for, and how the backend's answer becomes the controller's
/// ``ScanFlow/Workflow``.
public struct WorkflowProfile: Hashable, Sendable {
    public var preset: Configuration.WorkflowPreset
    public var countries: [String]
    public var workflowKey: Int
    public var dataCenter: Workflow.DataCenter

    public init(preset: Configuration.WorkflowPreset, countries: [String] = [], workflowKey: Int = 10, dataCenter: Workflow.DataCenter = .EU) {
        self.preset = preset
        self.countries = countries
        self.workflowKey = workflowKey
        self.dataCenter = dataCenter
    }

    public init(_ configuration: Configuration) {
        self.init(
            preset: configuration.journey.workflow, countries: configuration.journey.countries,
            workflowKey: configuration.backend.workflowKey,
            dataCenter: Workflow.DataCenter(rawValue: configuration.backend.dataCenter) ?? .EU)
    }

    /// The document types of the ID credential.
    var idTypes: [IdType] {
        switch preset {
        case .passportChipFace, .fastfill: [.PASSPORT]
        case .idCardChipFace: [.ID_CARD]
        case .authentication, .document: []
        }
    }

    var wantsFace: Bool { preset != .fastfill && preset != .document }

    /// The account request: credential filters only, never personal data.
    /// - Parameters:
    ///   - reference: the station's reference for this journey (no personal data).
    ///   - authentication: an Authentication's enrollment, as the display named it.
    public func accountRequest(reference: String, callbackURL: String? = nil, authentication: AuthenticationReference? = nil) -> AccountRequest {
        if preset == .authentication {
            var request = AccountRequest(
                customerInternalReference: reference, callbackUrl: callbackURL,
                workflowDefinition: WorkflowDefinition(key: WorkflowDefinition.authenticationKey, credentials: [CredentialFilter(category: .FACEMAP)]))
            switch authentication {
            case .enrollment(let id)?: request.enrollmentTransactionReference = id
            case .authenticationTransaction(let id)?: request.authenticationTransactionReference = id
            case nil: break
            }
            return request
        }
        if preset == .document {
            return AccountRequest(
                customerInternalReference: reference, callbackUrl: callbackURL,
                workflowDefinition: WorkflowDefinition(key: workflowKey, credentials: [CredentialFilter(category: .DOCUMENT)]))
        }
        var filters = [CredentialFilter(category: .ID, countries: countries.isEmpty ? nil : countries, types: idTypes)]
        if wantsFace { filters.append(CredentialFilter(category: .FACEMAP)) }
        return AccountRequest(
            customerInternalReference: reference, callbackUrl: callbackURL,
            workflowDefinition: WorkflowDefinition(key: workflowKey, credentials: filters))
    }

    /// The controller's workflow for the backend's answer; an Authentication's when the
    /// journey names its enrollment.
    public func workflow(for response: AccountResponse, token: SessionToken, authentication: AuthenticationReference? = nil) -> Workflow {
        let infos = response.workflowExecution.credentials.compactMap { credential -> Credential.Info? in
            switch credential.category {
            case .ID:
                let types = credential.type?.values ?? idTypes
                let documents = types.map { Document(Self.documentType($0), .plastic) }
                let offered = credential.country?.values ?? (countries.isEmpty ? ["XXX"] : countries)
                var byCountry: [String: [Document]] = [:]
                for country in offered { byCountry[country] = documents }
                return Credential.Info(
                    id: credential.id, category: .id, countries: byCountry, documentMode: .docFinder, faceMode: .faceLiveness,
                    chipReading: true, extractionOnly: preset == .fastfill)
            case .FACEMAP:
                return Credential.Info(id: credential.id, category: .face, faceMode: .faceLiveness)
            case .DOCUMENT:
                // A kiosk takes paper with its camera: it has no file to attach (no `file` mode).
                return Credential.Info(id: credential.id, category: .document, acquireModes: [.camera], documentMode: .docFinder)
            case .DATA:
                return nil
            }
        }
        let consent = response.consentItems.map { ConsentItem(id: $0.id, type: $0.type == "passive" ? .passive : .active, text: $0.text, url: $0.url) }
        let flow: Workflow.Flow = if let authentication { .authentication(authentication) } else if preset == .fastfill { .fastfill } else { .verification }
        return Workflow(
            flow: flow, credentials: infos, consentItems: consent.isEmpty ? nil : consent,
            dataCenter: dataCenter, token: token, livenessProviderVersion: 1)
    }

    static func documentType(_ type: IdType) -> Document.DocumentType {
        switch type {
        case .PASSPORT: .passport
        case .ID_CARD: .identityCard
        case .DRIVING_LICENSE: .drivingLicense
        case .VISA: .visa
        }
    }

    /// The upload classifier of a captured side; `index` is the image's place in its part
    /// (a paper document's page `index + 1` is `PAGE_<index + 1>`).
    static func classifier(for part: Credential.Part, index: Int = 0) -> PartClassifier {
        switch part {
        case .back: .back
        case .face: .face
        case .nfc: .nfc
        case .document: PartClassifier.page(index + 1) ?? .front
        case .front, .multipart, .digital: .front
        }
    }
}
