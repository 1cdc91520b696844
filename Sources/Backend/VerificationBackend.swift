public import Foundation

/// What the station asks of a verification backend, one function per call of
/// docs/backend-api.yaml. Every function throws ``BackendError``; the station maps its
/// kind, call and status to the code the journey shows.
public protocol VerificationBackend: Sendable {
    /// `POST /api/v1/accounts`: a new account and workflow execution. Not idempotent, not retried.
    func createAccount(_ request: AccountRequest) async throws(BackendError) -> AccountResponse
    /// `PUT /api/v1/accounts/{id}`: a new workflow execution for an existing account.
    func updateAccount(id: String, _ request: AccountRequest) async throws(BackendError) -> AccountResponse
    /// Uploads one part; idempotent by its key, so retried.
    func uploadPart(_ upload: PartUpload) async throws(BackendError) -> PartResponse
    /// `PUT .../workflow-executions/{id}`: ends the acquisition; idempotent. `extractionOnly`
    /// (Fastfill): the backend extracts the data and decides nothing.
    func finalize(_ execution: ExecutionRef, extractionOnly: Bool) async throws(BackendError) -> StatusResponse
    func status(_ execution: ExecutionRef) async throws(BackendError) -> StatusResponse
    func retrieve(_ execution: ExecutionRef) async throws(BackendError) -> WorkflowExecutionDetails
    /// `GET .../credentials/{id}/digital-identity`: where the credential's Digital Identity
    /// hand-off stands (the station asks while the person is on their phone).
    func digitalIdentity(_ execution: ExecutionRef, credentialId: String) async throws(BackendError) -> DigitalIdentityStatus
    /// Whether the backend answers, by a call that changes nothing there (the HTTP client asks
    /// for a new access token): how a station that refuses journeys offline finds it back.
    func probe() async throws(BackendError)
}

extension VerificationBackend {
    /// A backend that offers no Digital Identity has no hand-off to tell about.
    public func digitalIdentity(_ execution: ExecutionRef, credentialId: String) async throws(BackendError) -> DigitalIdentityStatus {
        throw BackendError(.notConfigured, call: .digitalIdentity, message: "this backend offers no Digital Identity")
    }
}

extension VerificationBackend {
    /// Ends the acquisition of a verification (not extraction only).
    public func finalize(_ execution: ExecutionRef) async throws(BackendError) -> StatusResponse {
        try await finalize(execution, extractionOnly: false)
    }
}

/// One workflow execution of one account, with its session token.
public struct ExecutionRef: Hashable, Sendable, Codable, CustomStringConvertible, CustomReflectable {
    public var accountId: String
    public var workflowExecutionId: String
    public var sessionToken: String

    public init(accountId: String, workflowExecutionId: String, sessionToken: String) {
        self.accountId = accountId
        self.workflowExecutionId = workflowExecutionId
        self.sessionToken = sessionToken
    }

    public init(_ response: AccountResponse) {
        self.init(accountId: response.account.id, workflowExecutionId: response.workflowExecution.id, sessionToken: response.sdk.token)
    }

    /// Ids only: the session token is a secret.
    public var description: String { "ExecutionRef(\(accountId), \(workflowExecutionId))" }

    public var customMirror: Mirror { Mirror(self, children: ["accountId": accountId, "workflowExecutionId": workflowExecutionId]) }
}

/// One part to upload: the images or chip data are personal data and never printed.
public struct PartUpload: Hashable, Sendable, Codable, CustomStringConvertible, CustomReflectable {
    public var execution: ExecutionRef
    public var credentialId: String
    public var classifier: PartClassifier
    /// JPEG for images, JSON (`ChipData`, `MrzData`) for NFC and MRZ.
    public var body: Data
    /// Makes a repeated upload harmless; the outbox keeps it with the record.
    public var idempotencyKey: String

    public init(execution: ExecutionRef, credentialId: String, classifier: PartClassifier, body: Data, idempotencyKey: String = UUID().uuidString) {
        self.execution = execution
        self.credentialId = credentialId
        self.classifier = classifier
        self.body = body
        self.idempotencyKey = idempotencyKey
    }

    public var contentType: String { classifier.isImage ? "image/jpeg" : "application/json" }

    public var description: String {
        "PartUpload(\(execution.workflowExecutionId), \(classifier), \(body.count) bytes, <redacted>)"
    }

    /// No body and no session token in mirrors either.
    public var customMirror: Mirror { Mirror(self, children: ["execution": execution, "classifier": classifier, "bytes": body.count]) }
}
