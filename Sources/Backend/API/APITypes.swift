public import Foundation

// The wire types of docs/backend-api.yaml. Names follow the spec's schemas.

/// `TokenResponse`: the answer of `POST /oauth2/token`.
public struct TokenResponse: Codable, Hashable, Sendable {
    public var accessToken: String
    public var tokenType: String
    public var expiresIn: Int

    public init(accessToken: String, tokenType: String = "Bearer", expiresIn: Int) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
    }
}

/// `CredentialCategory`.
public enum CredentialCategory: String, Codable, Hashable, Sendable, CaseIterable {
    case ID, FACEMAP, DOCUMENT, DATA
}

/// `IdType`.
public enum IdType: String, Codable, Hashable, Sendable, CaseIterable {
    case PASSPORT, DRIVING_LICENSE, ID_CARD, VISA
}

/// `{"values": [...]}` as the spec's credential filters write lists.
public struct ValueList<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    public var values: [Value]
    public init(_ values: [Value]) { self.values = values }
}

/// `CredentialFilter`: which credentials the workflow accepts.
public struct CredentialFilter: Codable, Hashable, Sendable {
    public var category: CredentialCategory
    public var country: ValueList<String>?
    public var type: ValueList<IdType>?
    /// `ID` only: a Digital Identity (seed 000's `Jumio.Document.Digital`) is accepted instead
    /// of a physical document; the backend offers its providers with hand-off addresses.
    public var digitalIdentity: Bool?

    public init(category: CredentialCategory, countries: [String]? = nil, types: [IdType]? = nil, digitalIdentity: Bool? = nil) {
        self.category = category
        self.country = countries.map(ValueList.init)
        self.type = types.map(ValueList.init)
        self.digitalIdentity = digitalIdentity
    }
}

/// `WorkflowDefinition`.
public struct WorkflowDefinition: Codable, Hashable, Sendable {
    /// 10011 ID only, 10013 ID and face, 10015 ID and chip, 10016 Authentication (a face
    /// against an enrollment's, seed 004; ``authenticationKey``).
    public var key: Int

    /// The definition of an Authentication: the face credential only, compared with the
    /// face of the enrollment the request names.
    public static let authenticationKey = 10016
    public var credentials: [CredentialFilter]?

    public init(key: Int, credentials: [CredentialFilter]? = nil) {
        self.key = key
        self.credentials = credentials
    }
}

/// `AccountRequest`: the body of `POST /api/v1/accounts` and `PUT /api/v1/accounts/{id}`.
public struct AccountRequest: Codable, Hashable, Sendable {
    public var customerInternalReference: String
    public var userReference: String?
    public var reportingCriteria: String?
    public var callbackUrl: String?
    /// Seconds.
    public var tokenLifetime: Int?
    public var workflowDefinition: WorkflowDefinition
    /// Authentication (seed 004): the workflow execution id of the finished verification the
    /// person enrolled with; their face is compared with its face.
    public var enrollmentTransactionReference: String?
    /// Authentication (seed 004): an Authentication the integrator's server created already
    /// (with an enrollment reference); the station only captures for it. Not set together
    /// with ``enrollmentTransactionReference``.
    public var authenticationTransactionReference: String?

    public init(
        customerInternalReference: String,
        userReference: String? = nil,
        reportingCriteria: String? = nil,
        callbackUrl: String? = nil,
        tokenLifetime: Int? = nil,
        workflowDefinition: WorkflowDefinition,
        enrollmentTransactionReference: String? = nil,
        authenticationTransactionReference: String? = nil
    ) {
        self.customerInternalReference = customerInternalReference
        self.userReference = userReference
        self.reportingCriteria = reportingCriteria
        self.callbackUrl = callbackUrl
        self.tokenLifetime = tokenLifetime
        self.workflowDefinition = workflowDefinition
        self.enrollmentTransactionReference = enrollmentTransactionReference
        self.authenticationTransactionReference = authenticationTransactionReference
    }

    /// Whether the request starts an Authentication: it names an enrollment or an
    /// Authentication created already. Such a journey needs the backend: it is never
    /// started from an execution prepared in advance.
    public var isAuthentication: Bool {
        enrollmentTransactionReference != nil || authenticationTransactionReference != nil
            || workflowDefinition.key == WorkflowDefinition.authenticationKey
    }

    /// Checks the three references: at most 100 characters, no personal data pattern.
    /// - Throws: ``ReferenceViolation`` naming the field (never its value).
    public func validate() throws(ReferenceViolation) {
        try ReferenceCheck.check(customerInternalReference, field: "customerInternalReference")
        if let userReference { try ReferenceCheck.check(userReference, field: "userReference") }
        if let reportingCriteria { try ReferenceCheck.check(reportingCriteria, field: "reportingCriteria") }
        if let enrollmentTransactionReference { try ReferenceCheck.check(enrollmentTransactionReference, field: "enrollmentTransactionReference") }
        if let authenticationTransactionReference {
            try ReferenceCheck.check(authenticationTransactionReference, field: "authenticationTransactionReference")
        }
    }
}

/// `Ref`: an object that only carries an id.
public struct Ref: Codable, Hashable, Sendable {
    public var id: String
    public init(id: String) { self.id = id }
}

/// `ConsentItem`.
public struct ConsentItemResponse: Codable, Hashable, Sendable {
    public var id: String
    public var type: String
    public var text: String
    public var url: String

    public init(id: String, type: String, text: String, url: String) {
        self.id = id
        self.type = type
        self.text = text
        self.url = url
    }
}

/// `CredentialResponse`: a credential to acquire and where its parts go.
public struct CredentialResponse: Codable, Hashable, Sendable {
    public struct API: Codable, Hashable, Sendable {
        /// Classifier to upload URL.
        public var parts: [String: String]
        public var workflowExecution: String
        public init(parts: [String: String], workflowExecution: String) {
            self.parts = parts
            self.workflowExecution = workflowExecution
        }
    }

    public var id: String
    public var category: CredentialCategory
    public var country: ValueList<String>?
    public var type: ValueList<IdType>?
    public var api: API
    /// The Digital Identities the person may verify with instead of a document, when the
    /// request accepted them (`CredentialFilter.digitalIdentity`) and the backend has any.
    public var digitalIdentities: [DigitalIdentityOffer]?

    public init(
        id: String, category: CredentialCategory, country: ValueList<String>? = nil, type: ValueList<IdType>? = nil, api: API,
        digitalIdentities: [DigitalIdentityOffer]? = nil
    ) {
        self.id = id
        self.category = category
        self.country = country
        self.type = type
        self.api = api
        self.digitalIdentities = digitalIdentities
    }
}

/// `AccountResponse`.
public struct AccountResponse: Codable, Hashable, Sendable, CustomStringConvertible {
    public struct SDK: Codable, Hashable, Sendable {
        public var token: String
        public init(token: String) { self.token = token }
    }

    public struct WorkflowExecution: Codable, Hashable, Sendable {
        public var id: String
        public var credentials: [CredentialResponse]
        public init(id: String, credentials: [CredentialResponse]) {
            self.id = id
            self.credentials = credentials
        }
    }

    public var timestamp: String
    public var account: Ref
    public var sdk: SDK
    public var consentItems: [ConsentItemResponse]
    public var workflowExecution: WorkflowExecution
    /// The data center the execution lives in; a station registered in another refuses it
    /// (the seeds' `dataCenterValidationFailed`). nil: the backend did not say, which a
    /// station refuses too.
    public var dataCenter: DataCenter?
    /// The version of the liveness provider the backend verifies the face credential's
    /// liveness with; a station whose liveness capture is another version refuses the
    /// workflow (the seeds' `dependencyWrongVersion`). nil: the backend checks no liveness.
    public var livenessProviderVersion: Int?

    public init(
        timestamp: String, account: Ref, sdk: SDK, consentItems: [ConsentItemResponse], workflowExecution: WorkflowExecution,
        dataCenter: DataCenter? = nil, livenessProviderVersion: Int? = nil
    ) {
        self.timestamp = timestamp
        self.account = account
        self.sdk = sdk
        self.consentItems = consentItems
        self.workflowExecution = workflowExecution
        self.dataCenter = dataCenter
        self.livenessProviderVersion = livenessProviderVersion
    }

    /// Ids only: the session token is a secret.
    public var description: String {
        "AccountResponse(account: \(account.id), workflowExecution: \(workflowExecution.id), credentials: \(workflowExecution.credentials.count))"
    }
}

/// `PartClassifier`.
public struct PartClassifier: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init?(rawValue: String) {
        switch rawValue {
        case "FRONT", "BACK", "FACE", "FRONT_WITH_FLASH", "FRONT_FULL_FRAME", "BACK_FULL_FRAME", "NFC", "MRZ", "BARCODE", "LIVENESS":
            self.rawValue = rawValue
        default:
            // LIVENESS_0...LIVENESS_99; PAGE_1...PAGE_99 (a paper document's pages, no leading zero).
            guard let prefix = ["LIVENESS_", "PAGE_"].first(where: rawValue.hasPrefix) else { return nil }
            let digits = rawValue.dropFirst(prefix.count)
            guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
            if prefix == "PAGE_", digits.first == "0" { return nil }
            self.rawValue = rawValue
        }
    }

    public static let front = PartClassifier(rawValue: "FRONT")!
    public static let back = PartClassifier(rawValue: "BACK")!
    public static let face = PartClassifier(rawValue: "FACE")!
    public static let frontWithFlash = PartClassifier(rawValue: "FRONT_WITH_FLASH")!
    /// The camera's whole frame a document's side was cropped from; uploaded only when the
    /// backend announces it among a credential's parts.
    public static let frontFullFrame = PartClassifier(rawValue: "FRONT_FULL_FRAME")!
    public static let backFullFrame = PartClassifier(rawValue: "BACK_FULL_FRAME")!
    public static let nfc = PartClassifier(rawValue: "NFC")!
    public static let mrz = PartClassifier(rawValue: "MRZ")!
    /// The barcode on a card's back as the station decoded it (JSON, `BarcodeData`).
    public static let barcode = PartClassifier(rawValue: "BARCODE")!
    /// The record of a liveness capture (JSON): its light challenge, the LED's state in each
    /// `LIVENESS_<n>` frame, the station's own checks.
    public static let livenessRecord = PartClassifier(rawValue: "LIVENESS")!
    /// A liveness frame, 0...99.
    public static func liveness(_ index: Int) -> PartClassifier? { PartClassifier(rawValue: "LIVENESS_\(index)") }

    /// A page of a paper document (a DOCUMENT credential), 1...99.
    public static func page(_ number: Int) -> PartClassifier? { PartClassifier(rawValue: "PAGE_\(number)") }

    /// The page number of a `PAGE_<n>` classifier.
    public var pageNumber: Int? { rawValue.hasPrefix("PAGE_") ? Int(rawValue.dropFirst("PAGE_".count)) : nil }

    /// Whether the body is a JPEG image (otherwise JSON).
    public var isImage: Bool { self != .nfc && self != .mrz && self != .barcode && self != .livenessRecord }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let value = PartClassifier(rawValue: raw) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown part classifier"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// `Decision`.
public enum Decision: String, Codable, Hashable, Sendable, CaseIterable {
    case PASSED, WARNING, REJECTED, NOT_EXECUTED
}

/// `Status` of a workflow execution.
public enum WorkflowStatus: String, Codable, Hashable, Sendable, CaseIterable {
    case INITIATED, ACQUIRED, PROCESSED, SESSION_EXPIRED, TOKEN_EXPIRED
}

/// `ChipCheck`: how the chip answered a check only the chip can answer (Active or Chip
/// Authentication): the backend cannot run it again, so the station's word travels.
public struct ChipCheck: Codable, Hashable, Sendable {
    public enum Outcome: String, Codable, Hashable, Sendable, CaseIterable {
        /// The chip proved it holds the private key its data groups name.
        case PASSED
        /// The chip did not prove it: a clone, or a chip whose key does not match DG15 or DG14.
        case FAILED
        /// The chip does not offer the check (no DG15, no DG14, an algorithm not supported).
        case NOT_SUPPORTED
    }

    public var outcome: Outcome
    /// Why, for a technician; never personal data.
    public var reason: String?

    public init(_ outcome: Outcome, reason: String? = nil) {
        self.outcome = outcome
        self.reason = reason
    }

    private enum CodingKeys: String, CodingKey { case outcome, reason }

    /// Also reads the bare `Decision` earlier stations sent for `activeAuthentication`
    /// (`PASSED`, `REJECTED`, `NOT_EXECUTED`), which an outbox may still hold.
    public init(from decoder: any Decoder) throws {
        if let legacy = try? decoder.singleValueContainer().decode(Decision.self) {
            switch legacy {
            case .PASSED: self.init(.PASSED)
            case .REJECTED, .WARNING: self.init(.FAILED)
            case .NOT_EXECUTED: self.init(.NOT_SUPPORTED)
            }
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(Outcome.self, forKey: .outcome), reason: try container.decodeIfPresent(String.self, forKey: .reason))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
}

/// `ChipData`: what the station's chip reader read, with its own verification.
public struct ChipData: Codable, Hashable, Sendable, CustomStringConvertible {
    public struct StationVerification: Codable, Hashable, Sendable {
        public var passiveAuthentication: Decision
        /// Active Authentication as the chip answered; nil when the station did not try.
        public var activeAuthentication: ChipCheck?
        /// Chip Authentication (from DG14, or PACE-CAM) as the chip answered; nil when the
        /// station did not try.
        public var chipAuthentication: ChipCheck?
        /// `BAC` or `PACE`.
        public var accessControl: String
        public init(passiveAuthentication: Decision, activeAuthentication: ChipCheck? = nil, chipAuthentication: ChipCheck? = nil, accessControl: String) {
            self.passiveAuthentication = passiveAuthentication
            self.activeAuthentication = activeAuthentication
            self.chipAuthentication = chipAuthentication
            self.accessControl = accessControl
        }
    }

    /// Raw data groups keyed `DG1`, `DG2`, ..., `SOD`.
    public var dataGroups: [String: Data]
    public var stationVerification: StationVerification

    public init(dataGroups: [String: Data], stationVerification: StationVerification) {
        self.dataGroups = dataGroups
        self.stationVerification = stationVerification
    }

    public var description: String { "ChipData(\(dataGroups.keys.sorted().joined(separator: ",")), <redacted>)" }
}

/// `MrzData`: the zone the station's camera read.
public struct MrzData: Codable, Hashable, Sendable, CustomStringConvertible {
    public var lines: [String]
    public init(lines: [String]) { self.lines = lines }
    public var description: String { "MrzData(<redacted>)" }
}

/// `BarcodeData`: the barcode on a card's back as the station's camera decoded it (for
/// `PDF417`, an AAMVA record). The bytes travel as base64: a record holds control characters.
public struct BarcodeData: Codable, Hashable, Sendable, CustomStringConvertible {
    public var format: String
    public var data: Data

    public init(format: String, bytes: [UInt8]) {
        self.format = format
        data = Data(bytes)
    }

    public var description: String { "BarcodeData(\(format), \(data.count) bytes, <redacted>)" }
}

/// `CapabilityResult`.
public struct CapabilityResult: Codable, Hashable, Sendable {
    public var id: String
    public var credentialId: String?
    public var decision: Decision
    public var reason: String?

    public init(id: String, credentialId: String? = nil, decision: Decision, reason: String? = nil) {
        self.id = id
        self.credentialId = credentialId
        self.decision = decision
        self.reason = reason
    }
}

/// `PartResponse`: the instant feedback on an upload.
public struct PartResponse: Codable, Hashable, Sendable {
    public var classifier: PartClassifier
    public var status: String
    public var usability: CapabilityResult

    public init(classifier: PartClassifier, status: String = "UPLOADED", usability: CapabilityResult) {
        self.classifier = classifier
        self.status = status
        self.usability = usability
    }
}

/// `FinalizeRequest`: the optional body of a finalize. `extractionOnly` (seed 002 Fastfill):
/// the backend extracts the document's data and makes no verification decision (no face is
/// compared or checked for liveness); the decision is `NOT_EXECUTED`.
public struct FinalizeRequest: Codable, Hashable, Sendable {
    public var extractionOnly: Bool?
    public init(extractionOnly: Bool? = nil) { self.extractionOnly = extractionOnly }
}

/// `StatusResponse`.
public struct StatusResponse: Codable, Hashable, Sendable {
    public struct WorkflowExecution: Codable, Hashable, Sendable {
        public var id: String
        public var status: WorkflowStatus
        public var definitionKey: Int
        public init(id: String, status: WorkflowStatus, definitionKey: Int) {
            self.id = id
            self.status = status
            self.definitionKey = definitionKey
        }
    }

    public var account: Ref
    public var workflowExecution: WorkflowExecution

    public init(account: Ref, workflowExecution: WorkflowExecution) {
        self.account = account
        self.workflowExecution = workflowExecution
    }
}

/// `IDResult`: the seeds' `Jumio.IDResult` fields. Personal data: redacted description.
public struct IDResult: Codable, Hashable, Sendable, CustomStringConvertible {
    public var issuingCountry: String?
    public var idType: IdType?
    public var idSubType: String?
    public var firstName: String?
    public var lastName: String?
    public var dateOfBirth: String?
    public var issuingDate: String?
    public var expiryDate: String?
    public var documentNumber: String?
    public var personalNumber: String?
    public var gender: String?
    public var nationality: String?
    /// From the chip's DG11, its parts joined with ", ".
    public var placeOfBirth: String?
    /// The street of the permanent address: the first part of DG11's address, or a
    /// barcode's street.
    public var address: String?
    /// The city of the permanent address: the second part of DG11's address, or a barcode's.
    public var city: String?
    /// From the chip's DG12, its parts joined with ", ". Kiosk extension of the seeds' fields.
    public var issuingAuthority: String?
    public var mrzLine1: String?
    public var mrzLine2: String?
    public var mrzLine3: String?
    /// Country of residence (ISO 3166-1 alpha-3), from a barcode's address.
    public var country: String?
    /// The subdivision of the address: the last characters of its ISO 3166-2 code (`VA`, `ON`).
    public var subdivision: String?
    public var postalCode: String?
    /// `manual`, `barcode`, `nfc` or `mrz`.
    public var extractionMethod: String?

    public init() {}

    public var description: String { "IDResult(<redacted>)" }
}

/// `FaceResult`: the seeds' `Jumio.FaceResult`; `passed` is nil when not executed.
public struct FaceResult: Codable, Hashable, Sendable {
    public var passed: Bool?
    public var extractionMethod: String?
    public init(passed: Bool?, extractionMethod: String? = nil) {
        self.passed = passed
        self.extractionMethod = extractionMethod
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(passed, forKey: .passed)
        try container.encodeIfPresent(extractionMethod, forKey: .extractionMethod)
    }
}

/// `WorkflowExecutionDetails`: the full result of a workflow execution.
public struct WorkflowExecutionDetails: Codable, Hashable, Sendable, CustomStringConvertible {
    public struct Workflow: Codable, Hashable, Sendable {
        public var id: String
        public var status: WorkflowStatus
        public var definitionKey: Int
        public var customerInternalReference: String?
        public var userReference: String?
        public init(id: String, status: WorkflowStatus, definitionKey: Int, customerInternalReference: String? = nil, userReference: String? = nil) {
            self.id = id
            self.status = status
            self.definitionKey = definitionKey
            self.customerInternalReference = customerInternalReference
            self.userReference = userReference
        }
    }

    public struct Risk: Codable, Hashable, Sendable {
        public var score: Double
        public init(score: Double) { self.score = score }
    }

    public struct OverallDecision: Codable, Hashable, Sendable {
        public var type: Decision
        public var risk: Risk
        public init(type: Decision, risk: Risk) {
            self.type = type
            self.risk = risk
        }
    }

    public struct Capabilities: Codable, Hashable, Sendable {
        public var usability: [CapabilityResult] = []
        public var extraction: [CapabilityResult] = []
        public var dataChecks: [CapabilityResult] = []
        public var imageChecks: [CapabilityResult] = []
        public var liveness: [CapabilityResult] = []
        public var similarity: [CapabilityResult] = []
        public var chipAuthentication: [CapabilityResult] = []
        public init() {}

        /// Every result, for deciding.
        public var all: [CapabilityResult] {
            usability + extraction + dataChecks + imageChecks + liveness + similarity + chipAuthentication
        }
    }

    public var account: Ref
    public var createdAt: String?
    public var completedAt: String?
    public var workflow: Workflow
    public var decision: OverallDecision
    public var capabilities: Capabilities
    public var idResult: IDResult?
    public var faceResult: FaceResult?

    public init(
        account: Ref, createdAt: String?, completedAt: String?, workflow: Workflow,
        decision: OverallDecision, capabilities: Capabilities, idResult: IDResult?, faceResult: FaceResult?
    ) {
        self.account = account
        self.createdAt = createdAt
        self.completedAt = completedAt
        self.workflow = workflow
        self.decision = decision
        self.capabilities = capabilities
        self.idResult = idResult
        self.faceResult = faceResult
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account, forKey: .account)
        try container.encodeIfPresent(createdAt, forKey: .createdAt)
        try container.encode(completedAt, forKey: .completedAt)
        try container.encode(workflow, forKey: .workflow)
        try container.encode(decision, forKey: .decision)
        try container.encode(capabilities, forKey: .capabilities)
        try container.encodeIfPresent(idResult, forKey: .idResult)
        try container.encodeIfPresent(faceResult, forKey: .faceResult)
    }

    public var description: String {
        "WorkflowExecutionDetails(\(workflow.id), \(workflow.status.rawValue), \(decision.type.rawValue))"
    }
}

/// `EncryptionKey`.
public struct EncryptionKey: Codable, Hashable, Sendable {
    public var keyId: String
    public var algorithm: String
    public var publicKey: String
    public init(keyId: String, algorithm: String = "RSA-OAEP-256", publicKey: String) {
        self.keyId = keyId
        self.algorithm = algorithm
        self.publicKey = publicKey
    }
}

/// `Callback`: ids and status only.
public struct CallbackBody: Codable, Hashable, Sendable {
    public struct WorkflowExecution: Codable, Hashable, Sendable {
        public var id: String
        public var status: WorkflowStatus
        public init(id: String, status: WorkflowStatus) {
            self.id = id
            self.status = status
        }
    }

    public var callbackSentAt: String
    public var account: Ref
    public var workflowExecution: WorkflowExecution

    public init(callbackSentAt: String, account: Ref, workflowExecution: WorkflowExecution) {
        self.callbackSentAt = callbackSentAt
        self.account = account
        self.workflowExecution = workflowExecution
    }
}

/// `Error`: the body of every error answer.
public struct APIErrorBody: Codable, Hashable, Sendable {
    public enum Code: String, Codable, Hashable, Sendable, CaseIterable {
        case INVALID_REQUEST, UNAUTHORIZED, INVALID_TOKEN, NOT_FOUND, IDEMPOTENCY_CONFLICT
        case TRANSACTION_FINISHED, SESSION_EXPIRED, TOKEN_EXPIRED, KEY_EXPIRED
        case TOO_LARGE, RATE_LIMITED, INTERNAL
        /// The enrollment or authentication transaction reference cannot be used (seed 004's L).
        case REFERENCE_INVALID
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
}
