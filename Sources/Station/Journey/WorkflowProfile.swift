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
        case .passportChipFace, .fastfill, .digitalIdentity: [.PASSPORT]
        case .idCardChipFace: [.ID_CARD]
        case .usDLBarcodeFace: [.DRIVING_LICENSE, .ID_CARD]
        case .authentication, .document: []
        }
    }

    var wantsFace: Bool { preset != .fastfill && preset != .digitalIdentity && preset != .document }

    /// The countries offered: the configured ones; for the barcode journey by default the
    /// United States and Canada (whose cards carry the AAMVA PDF417).
    var offeredCountries: [String] {
        if countries.isEmpty, preset == .usDLBarcodeFace { return ["USA", "CAN"] }
        return countries
    }

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
        var filters = [
            CredentialFilter(
                category: .ID, countries: offeredCountries.isEmpty ? nil : offeredCountries, types: idTypes,
                digitalIdentity: preset == .digitalIdentity ? true : nil)
        ]
        if wantsFace { filters.append(CredentialFilter(category: .FACEMAP)) }
        return AccountRequest(
            customerInternalReference: reference, callbackUrl: callbackURL,
            workflowDefinition: WorkflowDefinition(key: workflowKey, credentials: filters))
    }

    /// The controller's workflow for the backend's answer; an Authentication's when the
    /// journey names its enrollment.
    public func workflow(for response: AccountResponse, token: SessionToken, authentication: AuthenticationReference? = nil) -> Workflow {
        var handoffs: [DigitalHandoff] = []
        let infos = response.workflowExecution.credentials.compactMap { credential -> Credential.Info? in
            switch credential.category {
            case .ID:
                let types = credential.type?.values ?? idTypes
                let documents = types.map { Document(Self.documentType($0), .plastic) }
                // What the backend offers; where it names none, the configured countries. With
                // neither there is nothing to choose from: the credential offers no country
                // rather than an invented one, and the station refuses the workflow (F000010).
                let offered = credential.country?.values ?? offeredCountries
                var byCountry: [String: [Document]] = [:]
                for country in offered { byCountry[country] = documents }
                // Digital Identities the backend offers, by the countries each serves.
                var digital: [String: [DigitalDocument]] = [:]
                for offer in credential.digitalIdentities ?? [] {
                    for country in offer.countries.isEmpty ? offered : offer.countries {
                        digital[country, default: []].append(DigitalDocument(id: offer.provider, title: offer.title))
                        if byCountry[country] == nil { byCountry[country] = [] }
                    }
                    handoffs.append(DigitalHandoff(provider: offer.provider, url: offer.handoffUrl))
                }
                return Credential.Info(
                    id: credential.id, category: .id, countries: byCountry, digitalDocuments: digital,
                    documentMode: preset == .usDLBarcodeFace ? .barcode : .docFinder,
                    faceMode: .faceLiveness, chipReading: preset != .usDLBarcodeFace, extractionOnly: preset == .fastfill)
            case .FACEMAP:
                return Credential.Info(id: credential.id, category: .face, faceMode: .faceLiveness)
            case .DOCUMENT:
                // A kiosk takes paper with its camera: it has no file to attach (no `file` mode).
                return Credential.Info(id: credential.id, category: .document, acquireModes: [.camera], documentMode: .docFinder)
            case .DATA:
                return nil
            }
        }
        let consent = response.consentItems.map { ConsentItem(id: $0.id, type: Self.consentType($0.type), text: $0.text, url: $0.url) }
        let flow: Workflow.Flow = if let authentication { .authentication(authentication) } else if preset == .fastfill { .fastfill } else { .verification }
        // The data center and liveness provider version are what the backend said: the
        // controller compares them with the station's own (a data center the backend does
        // not name is refused).
        return Workflow(
            flow: flow, credentials: infos, consentItems: consent.isEmpty ? nil : consent,
            dataCenter: response.dataCenter.flatMap { Workflow.DataCenter(rawValue: $0.rawValue) }, token: token,
            livenessProviderVersion: response.livenessProviderVersion, digitalHandoffs: handoffs)
    }

    /// The API's consent type (`PASSIVE` or `ACTIVE`, docs/backend-api.yaml; any case): a
    /// type the station does not know asks for the person's explicit consent, the safe side.
    static func consentType(_ type: String) -> ConsentItem.ConsentType {
        type.uppercased() == "PASSIVE" ? .passive : .active
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
