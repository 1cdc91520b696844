public import Backend
import Crypto
import Foundation
public import Hummingbird
public import Logging
import HTTPTypes
import NIOCore
import NIOPosix

/// The reference backend's HTTP API (docs/backend-api.yaml) on Hummingbird 2.
public struct ReferenceServer: Sendable {
    public struct Configuration: Sendable {
        /// The base of the part URLs in answers; nil takes `http://` and the request's Host.
        public var publicBaseURL: String?
        /// Seconds an access token lives.
        public var accessTokenLifetime = 3600
        /// The largest part accepted.
        public var maxPartBytes = 10 << 20
        public var passiveAuthentication: any PassiveAuthenticationVerifier = NoTrustStore()
        /// Similarity and liveness; without the face models both are NOT_EXECUTED.
        public var faces: any FaceVerifier = NoFaceModels()
        /// Brightness and sharpness thresholds of uploaded images.
        public var imageQuality = ImageQualityThresholds()
        /// Publishes a key for application-layer encryption; nil publishes none (404).
        public var encryption: EncryptionKeyring?
        /// Whether an ID credential asks for the camera's whole frames beside the crops
        /// (FRONT_FULL_FRAME, BACK_FULL_FRAME among its parts).
        public var fullFrames = false
        /// The Digital Identity providers offered to ID credentials that accept one; none by
        /// default: the only one the reference backend has is simulated (its page lets anyone
        /// share an identity), for demos and tests.
        public var digitalIdentityProviders: [DigitalIdentityProvider] = []
        /// How long a Digital Identity hand-off may be used, in seconds.
        public var handoffLifetime: Double = 600
        /// The consent items every new journey is asked for.
        public var consent = ConsentOffer.passive
        /// The data center this backend serves, said in every workflow initiation's answer.
        public var dataCenter: DataCenter = .EU
        /// The countries (ISO 3166-1 alpha-3) an ID credential accepts when the request
        /// names none; empty: the request's filter as it is (any country).
        public var countries: [String] = []

        public init(publicBaseURL: String? = nil) {
            self.publicBaseURL = publicBaseURL
        }
    }

    let store: any ReferenceStore
    let configuration: Configuration
    let faults: FaultPlan?
    /// The open Digital Identity hand-offs (in memory: they last minutes).
    let handoffs: HandoffRegistry

    /// - Parameter faults: injected failures for fault tests and demos; nil in production.
    public init(store: any ReferenceStore, configuration: Configuration = .init(), faults: FaultPlan? = nil) {
        self.store = store
        self.configuration = configuration
        self.faults = faults
        handoffs = HandoffRegistry(lifetime: configuration.handoffLifetime)
    }

    /// The router with every route of the API.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        if let faults { router.add(middleware: FaultMiddleware(plan: faults)) }
        router.post("/oauth2/token") { request, _ in await respond { () throws(APIFailure) in try await token(request) } }
        router.post("/api/v1/accounts") { request, _ in
            await respond { () throws(APIFailure) in try await initiate(request, accountId: nil) }
        }
        router.put("/api/v1/accounts/:accountId") { request, context in
            await respond { () throws(APIFailure) in try await initiate(request, accountId: try parameter("accountId", context)) }
        }
        let execution = "/api/v1/accounts/:accountId/workflow-executions/:executionId"
        router.post("\(execution)/credentials/:credentialId/parts/:classifier") { request, context in
            await respond { () throws(APIFailure) in try await uploadPart(request, context) }
        }
        router.put(RouterPath(execution)) { request, context in
            await respond { () throws(APIFailure) in try await finalize(request, context) }
        }
        router.get(RouterPath(execution)) { request, context in
            await respond { () throws(APIFailure) in try await retrieve(request, context) }
        }
        router.get("\(execution)/status") { request, context in
            await respond { () throws(APIFailure) in try await status(request, context) }
        }
        router.get("\(execution)/credentials/:credentialId/digital-identity") { request, context in
            await respond { () throws(APIFailure) in try await digitalIdentity(request, context) }
        }
        // The person's phone: the hand-off page stands in for the provider's app (no bearer
        // token: the address's one-time token is the secret).
        router.get("/handoff/:token") { request, context in await handoffPage(request, context) }
        router.post("/handoff/:token") { request, context in await handoffAnswer(request, context) }
        router.get("/api/v1/encryption-key") { request, _ in
            await respond { () throws(APIFailure) in
                _ = try await authorize(request)
                guard let keyring = configuration.encryption else {
                    throw APIFailure(.notFound, .NOT_FOUND, "no encryption key published")
                }
                return try json(await keyring.published())
            }
        }
        return router
    }

    /// The application, bound to `host:port` (port 0 picks a free one; `onServerRunning` learns it).
    public func makeApplication(
        host: String, port: Int, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "idkiosk-backend"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }

    // MARK: Routes

    private func token(_ request: Request) async throws(APIFailure) -> Response {
        var request = request
        let body = try await collect(&request, limit: 4096)
        let form = String(decoding: body, as: UTF8.self)
        guard form.split(separator: "&").contains("grant_type=client_credentials") else {
            throw APIFailure(.badRequest, .INVALID_REQUEST, "grant_type must be client_credentials")
        }
        guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
              let colon = decoded.firstIndex(of: ":")
        else {
            throw APIFailure(.unauthorized, .UNAUTHORIZED, "client credentials required", basicChallenge: true)
        }
        let clientId = String(decoded[..<colon]), secret = String(decoded[decoded.index(after: colon)...])
        guard try await db({ try await store.authenticate(clientId: clientId, secret: secret) }) else {
            throw APIFailure(.unauthorized, .UNAUTHORIZED, "client credentials refused", basicChallenge: true)
        }
        let lifetime = configuration.accessTokenLifetime
        let token = try await db { try await store.issueToken(clientId: clientId, lifetime: lifetime) }
        return try json(TokenResponse(accessToken: token, expiresIn: lifetime))
    }

    private func initiate(_ request: Request, accountId: String?) async throws(APIFailure) -> Response {
        let clientId = try await authorize(request)
        var request = request
        let body = try await collect(&request, limit: 64 << 10)
        guard let account = try? JSONDecoder().decode(AccountRequest.self, from: body) else {
            throw APIFailure(.badRequest, .INVALID_REQUEST, "body is not an AccountRequest")
        }
        do { try account.validate() } catch {
            throw APIFailure(.unprocessableContent, .INVALID_REQUEST, error.description)
        }
        if let lifetime = account.tokenLifetime, !(60...86_400).contains(lifetime) {
            throw APIFailure(.unprocessableContent, .INVALID_REQUEST, "tokenLifetime out of range")
        }
        if let url = account.callbackUrl, URL(string: url)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw APIFailure(.unprocessableContent, .INVALID_REQUEST, "callbackUrl is not an http(s) URL")
        }
        let base = baseURL(request)
        if let reference = account.authenticationTransactionReference {
            // A station takes an Authentication the integrator's server created.
            guard account.enrollmentTransactionReference == nil, accountId == nil else {
                throw APIFailure(.unprocessableContent, .INVALID_REQUEST, "authenticationTransactionReference stands alone: no enrollment reference, no account path")
            }
            let lifetime = account.tokenLifetime ?? InitiationPlan.defaultTokenLifetime
            guard var response = try await db({
                try await store.takeAuthentication(clientId: clientId, executionId: reference, lifetime: lifetime, baseURL: base)
            }) else {
                throw APIFailure(.unprocessableContent, .REFERENCE_INVALID, "authenticationTransactionReference names no open Authentication of this client")
            }
            response.consentItems = configuration.consent.items(baseURL: base)
            return try json(announced(response))
        }
        if account.workflowDefinition.key == WorkflowDefinition.authenticationKey {
            guard let reference = account.enrollmentTransactionReference else {
                throw APIFailure(.unprocessableContent, .REFERENCE_INVALID, "an Authentication (10016) needs enrollmentTransactionReference")
            }
            _ = try await enrollmentFace(clientId: clientId, executionId: reference)
        } else if account.enrollmentTransactionReference != nil {
            throw APIFailure(.unprocessableContent, .INVALID_REQUEST, "enrollmentTransactionReference belongs to an Authentication (10016)")
        }
        // What the backend offers when the station names no country: the credential's
        // filter (answered, stored, and checked against the document) is its list.
        var offered = account
        if !configuration.countries.isEmpty, offered.workflowDefinition.key != WorkflowDefinition.authenticationKey {
            var credentials = WorkflowRequirements.credentials(for: offered.workflowDefinition)
            for index in credentials.indices where credentials[index].category == .ID && (credentials[index].country?.values ?? []).isEmpty {
                credentials[index].country = ValueList(configuration.countries)
            }
            offered.workflowDefinition.credentials = credentials
        }
        guard var response = try await db({ try await store.initiate(clientId: clientId, request: offered, existingAccountId: accountId, baseURL: base) }) else {
            throw APIFailure(.notFound, .NOT_FOUND, "no such account")
        }
        response.consentItems = configuration.consent.items(baseURL: base)
        if configuration.fullFrames {
            for index in response.workflowExecution.credentials.indices {
                var credential = response.workflowExecution.credentials[index]
                for classifier in WorkflowRequirements.fullFrameClassifiers(for: credential.category) {
                    credential.api.parts[classifier] = "\(credential.api.workflowExecution)/credentials/\(credential.id)/parts/\(classifier)"
                }
                response.workflowExecution.credentials[index] = credential
            }
        }
        try await offerDigitalIdentities(&response, request: account, baseURL: base)
        return try json(announced(response))
    }

    /// The answer with what a station checks before it starts: this backend's data center,
    /// and the liveness provider version its face checks verify when the workflow has a face.
    func announced(_ response: AccountResponse) -> AccountResponse {
        var response = response
        response.dataCenter = configuration.dataCenter
        if response.workflowExecution.credentials.contains(where: { $0.category == .FACEMAP }) {
            response.livenessProviderVersion = configuration.faces.livenessProviderVersion
        }
        return response
    }

    private func uploadPart(_ request: Request, _ context: BasicRequestContext) async throws(APIFailure) -> Response {
        let clientId = try await authorize(request)
        let (row, _) = try await ownedExecution(clientId, context)
        let credentialId = try parameter("credentialId", context)
        guard let classifier = PartClassifier(rawValue: try parameter("classifier", context)) else {
            throw APIFailure(.badRequest, .INVALID_REQUEST, "unknown part classifier")
        }
        guard let key = request.headers[HTTPField.Name("Idempotency-Key")!], (8...128).contains(key.count) else {
            throw APIFailure(.badRequest, .INVALID_REQUEST, "Idempotency-Key header required")
        }
        var request = request
        let body = try await openIfSealed(request, try await collect(&request, limit: configuration.maxPartBytes))
        let requestHash = StoreSecrets.hash(Array("\(credentialId)/\(classifier.rawValue)/".utf8) + Array(body))
        if let earlier = try await db({ try await store.idempotentAnswer(clientId: clientId, key: key) }) {
            guard earlier.requestHash == requestHash else {
                throw APIFailure(.conflict, .IDEMPOTENCY_CONFLICT, "Idempotency-Key reused for another request")
            }
            return Self.raw(earlier.body, status: .init(code: earlier.status))
        }
        try await checkSession(request, row)
        guard let category = try await db({ try await store.credentialCategory(executionId: row.id, credentialId: credentialId) }) else {
            throw APIFailure(.notFound, .NOT_FOUND, "no such credential")
        }
        guard WorkflowRequirements.accepts(classifier, for: category, fullFrames: configuration.fullFrames) else {
            throw APIFailure(.unprocessableContent, .INVALID_REQUEST, "the credential takes no such part")
        }
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.hasPrefix(classifier.isImage ? "image/jpeg" : "application/json") else {
            throw APIFailure(.unsupportedMediaType, .INVALID_REQUEST, "wrong Content-Type for the part")
        }
        let thresholds = configuration.imageQuality
        let usability = try await offload { ReferenceChecks.usability(of: classifier, body: body, credentialId: credentialId, thresholds: thresholds) }
        let answer = PartResponse(classifier: classifier, usability: usability)
        let encoded = try encode(answer)
        try await db {
            try await store.storePart(
                clientId: clientId, key: key, requestHash: requestHash, executionId: row.id, credentialId: credentialId,
                classifier: classifier, body: body, answer: encoded
            )
        }
        return Self.raw(encoded, status: .ok)
    }

    private func finalize(_ request: Request, _ context: BasicRequestContext) async throws(APIFailure) -> Response {
        let clientId = try await authorize(request)
        let (row, accountId) = try await ownedExecution(clientId, context)
        if row.status == .PROCESSED {
            // Finalize is idempotent: a repeat answers like the first.
            return try json(StatusResponse(account: Ref(id: accountId), workflowExecution: .init(id: row.id, status: .PROCESSED, definitionKey: row.definitionKey)))
        }
        try await checkSession(request, row)
        // The body is optional: `{"extractionOnly": true}` is a Fastfill journey's (seed 002).
        var request = request
        let body = try await collect(&request, limit: 4 << 10)
        let finalize = body.isEmpty ? FinalizeRequest() : try? JSONDecoder().decode(FinalizeRequest.self, from: body)
        guard let extractionOnly = finalize.map({ $0.extractionOnly ?? false }) else {
            throw APIFailure(.badRequest, .INVALID_REQUEST, "body is not a FinalizeRequest")
        }
        let parts = try await db { try await store.parts(executionId: row.id) }
        // An Authentication compares with its enrollment's face, checked again now: a
        // verification whose data was deleted in between can no longer be used (L).
        var enrollment: [UInt8]?
        if row.definitionKey == WorkflowDefinition.authenticationKey {
            guard let id = row.enrollmentId else {
                throw APIFailure(.unprocessableContent, .REFERENCE_INVALID, "the Authentication names no enrollment")
            }
            enrollment = try await enrollmentFace(clientId: clientId, executionId: id)
        }
        let now = store.now()
        let (definitionKey, verifier, imageQuality, faces) = (row.definitionKey, configuration.passiveAuthentication, configuration.imageQuality, configuration.faces)
        let enrollmentFace = enrollment
        let digital = await handoffs.outcomes(executionId: row.id, now: now).map { DigitalIdentityOutcome(credentialId: $0.credentialId, status: $0.status) }
        let outcome = try await offload {
            ReferenceChecks.evaluate(
                parts: parts, definitionKey: definitionKey, today: now, verifier: verifier, imageQuality: imageQuality, faces: faces,
                enrollmentFace: enrollmentFace, digitalIdentities: digital, extractionOnly: extractionOnly)
        }
        let stamp = ISO8601DateFormatter()
        let details = WorkflowExecutionDetails(
            account: Ref(id: accountId),
            createdAt: stamp.string(from: Date(timeIntervalSince1970: row.createdAt)),
            completedAt: stamp.string(from: now),
            workflow: .init(id: row.id, status: .PROCESSED, definitionKey: row.definitionKey,
                            customerInternalReference: row.customerReference, userReference: row.userReference),
            decision: .init(type: outcome.decision, risk: .init(score: outcome.riskScore)),
            capabilities: outcome.capabilities,
            idResult: outcome.idResult,
            faceResult: outcome.faceResult
        )
        var callback: QueuedCallback?
        if let url = row.callbackURL {
            let body = CallbackBody(callbackSentAt: stamp.string(from: now), account: Ref(id: accountId), workflowExecution: .init(id: row.id, status: .PROCESSED))
            callback = QueuedCallback(clientId: clientId, url: url, body: try encode(body))
        }
        let encodedDetails = try encode(details)
        try await db { try await store.complete(executionId: row.id, result: encodedDetails, callback: callback) }
        return try json(StatusResponse(account: Ref(id: accountId), workflowExecution: .init(id: row.id, status: .PROCESSED, definitionKey: row.definitionKey)))
    }

    private func status(_ request: Request, _ context: BasicRequestContext) async throws(APIFailure) -> Response {
        let clientId = try await authorize(request)
        let (row, accountId) = try await ownedExecution(clientId, context)
        return try json(StatusResponse(account: Ref(id: accountId), workflowExecution: .init(id: row.id, status: row.status, definitionKey: row.definitionKey)))
    }

    private func retrieve(_ request: Request, _ context: BasicRequestContext) async throws(APIFailure) -> Response {
        let clientId = try await authorize(request)
        let (row, accountId) = try await ownedExecution(clientId, context)
        if let result = row.result { return Self.raw(result, status: .ok) }
        let details = WorkflowExecutionDetails(
            account: Ref(id: accountId),
            createdAt: ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: row.createdAt)),
            completedAt: nil,
            workflow: .init(id: row.id, status: row.status, definitionKey: row.definitionKey,
                            customerInternalReference: row.customerReference, userReference: row.userReference),
            decision: .init(type: .NOT_EXECUTED, risk: .init(score: 0)),
            capabilities: .init(), idResult: nil, faceResult: nil
        )
        return try json(details)
    }

    /// The face an Authentication is compared with: the enrollment's face image, else its
    /// chip portrait. The enrollment must be this client's finished verification (not an
    /// Authentication) that PASSED and still holds a face.
    /// - Throws: REFERENCE_INVALID (seed 004's L) saying which condition failed.
    private func enrollmentFace(clientId: String, executionId: String) async throws(APIFailure) -> [UInt8] {
        func invalid(_ why: String) -> APIFailure { APIFailure(.unprocessableContent, .REFERENCE_INVALID, "enrollmentTransactionReference: \(why)") }
        guard let row = try await db({ try await store.execution(clientId: clientId, executionId: executionId) }) else {
            throw invalid("no verification of this client has this id")
        }
        guard row.definitionKey != WorkflowDefinition.authenticationKey else { throw invalid("an Authentication is no enrollment") }
        guard row.status == .PROCESSED, let result = row.result,
            let details = try? JSONDecoder().decode(WorkflowExecutionDetails.self, from: result)
        else { throw invalid("the verification is not finished") }
        guard details.decision.type == .PASSED else { throw invalid("the verification did not pass") }
        let parts = try await db { try await store.parts(executionId: row.id) }
        guard let face = ReferenceChecks.enrollmentFace(in: parts) else { throw invalid("the verification holds no face") }
        return face
    }

    /// The plaintext of an upload sealed with application-layer encryption, else the body as sent.
    private func openIfSealed(_ request: Request, _ body: Data) async throws(APIFailure) -> Data {
        guard let scheme = request.headers[HTTPField.Name("X-Encryption")!] else { return body }
        guard scheme == ApplicationLayerEncryption.scheme, let keyring = configuration.encryption,
              let keyId = request.headers[HTTPField.Name("X-Encryption-Key-Id")!],
              let wrapped = request.headers[HTTPField.Name("X-Wrapped-Key")!].flatMap({ Data(base64Encoded: $0) })
        else {
            throw APIFailure(.badRequest, .KEY_EXPIRED, "encryption scheme or key not accepted")
        }
        let opened: Data?
        do { opened = try await keyring.open(body: body, keyId: keyId, wrappedKey: wrapped) } catch {
            throw APIFailure(.badRequest, .INVALID_REQUEST, "sealed body does not open")
        }
        guard let opened else { throw APIFailure(.badRequest, .KEY_EXPIRED, "encryption key no longer accepted") }
        return opened
    }

    // MARK: Authorization

    /// The client of the request's bearer token.
    func authorize(_ request: Request) async throws(APIFailure) -> String {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw APIFailure(.unauthorized, .INVALID_TOKEN, "bearer token required", bearerChallenge: true)
        }
        let token = String(header.dropFirst(7))
        guard let clientId = try await db({ try await store.client(forToken: token) }) else {
            throw APIFailure(.unauthorized, .INVALID_TOKEN, "access token invalid or expired", bearerChallenge: true)
        }
        return clientId
    }

    /// The execution of the path, when it is this client's; another client's is "not found".
    func ownedExecution(_ clientId: String, _ context: BasicRequestContext) async throws(APIFailure) -> (ExecutionRow, String) {
        let accountId = try parameter("accountId", context)
        let executionId = try parameter("executionId", context)
        guard var row = try await db({ try await store.execution(clientId: clientId, accountId: accountId, executionId: executionId) }) else {
            throw APIFailure(.notFound, .NOT_FOUND, "no such workflow execution")
        }
        if row.status == .INITIATED || row.status == .ACQUIRED, store.now().timeIntervalSince1970 >= row.tokenExpiresAt {
            // Never used: the token expired. Started (parts uploaded) but not finalized: the session expired.
            let expired: WorkflowStatus = row.status == .INITIATED ? .TOKEN_EXPIRED : .SESSION_EXPIRED
            row.status = expired
            let id = row.id
            try await db { try await store.setStatus(executionId: id, expired) }
        }
        return (row, accountId)
    }

    /// The session token must be the execution's, and the execution still open.
    func checkSession(_ request: Request, _ row: ExecutionRow) async throws(APIFailure) {
        guard let token = request.headers[HTTPField.Name("X-Session-Token")!],
              StoreSecrets.constantTimeEqual(StoreSecrets.hash(Array(token.utf8)), row.sessionTokenHash)
        else {
            throw APIFailure(.forbidden, .UNAUTHORIZED, "session token does not belong to the workflow execution")
        }
        switch row.status {
        case .INITIATED, .ACQUIRED: return
        case .TOKEN_EXPIRED: throw APIFailure(.gone, .TOKEN_EXPIRED, "session token expired")
        case .SESSION_EXPIRED: throw APIFailure(.gone, .SESSION_EXPIRED, "session expired")
        case .PROCESSED: throw APIFailure(.gone, .TRANSACTION_FINISHED, "workflow execution already finished")
        }
    }

    // MARK: Helpers

    func parameter(_ name: String, _ context: BasicRequestContext) throws(APIFailure) -> String {
        guard let value = context.parameters.get(name), !value.isEmpty else {
            throw APIFailure(.badRequest, .INVALID_REQUEST, "missing \(name)")
        }
        return value
    }

    private func baseURL(_ request: Request) -> String {
        if let configured = configuration.publicBaseURL {
            return configured.hasSuffix("/") ? String(configured.dropLast()) : configured
        }
        return "http://\(request.head.authority ?? "localhost")"
    }

    private func collect(_ request: inout Request, limit: Int) async throws(APIFailure) -> Data {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIFailure(.contentTooLarge, .TOO_LARGE, "body larger than \(limit) bytes")
        } catch {
            throw APIFailure(.badRequest, .INVALID_REQUEST, "body could not be read")
        }
    }

    private func db<T>(_ body: () async throws -> T) async throws(APIFailure) -> T {
        do { return try await body() } catch {
            throw APIFailure(.internalServerError, .INTERNAL, "storage failed")
        }
    }

    /// Runs CPU-heavy checks (JPEG decoding, signatures) on NIO's blocking thread pool, so
    /// they do not hold the few threads of Swift's cooperative pool that every request shares.
    private func offload<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws(APIFailure) -> T {
        do { return try await NIOThreadPool.singleton.runIfActive(body) } catch {
            throw APIFailure(.serviceUnavailable, .INTERNAL, "shutting down")
        }
    }

    private func encode(_ value: some Encodable) throws(APIFailure) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { return try encoder.encode(value) } catch {
            throw APIFailure(.internalServerError, .INTERNAL, "could not encode the answer")
        }
    }

    func json(_ value: some Encodable) throws(APIFailure) -> Response {
        Self.raw(try encode(value), status: .ok)
    }

    static func raw(_ data: Data, status: HTTPResponse.Status, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func failure(_ failure: APIFailure) -> Response {
        let data = (try? JSONEncoder().encode(failure.body)) ?? Data()
        var headers = HTTPFields()
        if failure.bearerChallenge { headers[.wwwAuthenticate] = #"Bearer error="invalid_token""# }
        if failure.basicChallenge { headers[.wwwAuthenticate] = #"Basic realm="idkiosk""# }
        if let retryAfter = failure.retryAfter { headers[.retryAfter] = String(retryAfter) }
        return raw(data, status: failure.status, headers: headers)
    }

    private func respond(_ body: () async throws(APIFailure) -> Response) async -> Response {
        do { return try await body() } catch { return Self.failure(error) }
    }
}

/// An error answer of the API.
struct APIFailure: Error {
    var status: HTTPResponse.Status
    var body: APIErrorBody
    var retryAfter: Int?
    var bearerChallenge = false
    var basicChallenge = false

    init(_ status: HTTPResponse.Status, _ code: APIErrorBody.Code, _ message: String, retryAfter: Int? = nil, bearerChallenge: Bool = false, basicChallenge: Bool = false) {
        self.status = status
        self.body = APIErrorBody(code: code, message: message)
        self.retryAfter = retryAfter
        self.bearerChallenge = bearerChallenge
        self.basicChallenge = basicChallenge
    }
}
