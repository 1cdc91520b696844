public import AsyncHTTPClient
import Foundation
import KioskTime
public import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The station's client of docs/backend-api.yaml over HTTP(S).
///
/// It gets and caches the OAuth2 token (``TokenCache``), puts a timeout on every call,
/// retries idempotent calls by ``RetryPolicy`` and maps every failure to a
/// ``BackendError``. The caller owns the `HTTPClient` (and its TLS configuration) and
/// the clock; sleeping happens here, never in the policies.
public actor HTTPVerificationBackend<C: Clock>: VerificationBackend where C.Duration == Duration, C.Instant: Sendable {
    public struct Configuration: Sendable, CustomStringConvertible, CustomReflectable {
        /// `https://eu.backend.example/` or, in tests, `http://127.0.0.1:port/`.
        public var baseURL: String
        public var clientId: String
        public var clientSecret: String
        /// The whole deadline of one attempt, connect included.
        public var requestTimeout: Duration = .seconds(15)
        /// Uploads carry images: a longer deadline.
        public var uploadTimeout: Duration = .seconds(60)
        public var retry = RetryPolicy()
        public var tokenRefreshMargin: Duration = .seconds(60)
        /// The largest answer read.
        public var maxResponseBytes = 4 << 20
        /// Seal uploads with ``ApplicationLayerEncryption`` when the backend publishes a key.
        public var applicationLayerEncryption = true
        /// Public key pinning: every call then goes over a connection whose validated chain
        /// holds a pinned key, else fails with B before the request is sent. nil: the
        /// `HTTPClient`'s normal TLS validation only.
        public var pinning: SPKIPinning?

        public init(baseURL: String, clientId: String, clientSecret: String) {
            self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
            self.clientId = clientId
            self.clientSecret = clientSecret
        }

        /// The base URL of a data center, as the station's configuration maps them.
        /// - Throws: ``BackendError`` (F) when the data center has no URL.
        public init(dataCenter: DataCenter, endpoints: DataCenterEndpoints, clientId: String, clientSecret: String) throws(BackendError) {
            self.init(baseURL: try endpoints.baseURL(for: dataCenter), clientId: clientId, clientSecret: clientSecret)
        }

        /// No secret in it.
        public var description: String { "Configuration(\(baseURL), client \(clientId))" }

        /// `dump` and other mirrors must not reach the secret either.
        public var customMirror: Mirror { Mirror(self, children: ["baseURL": baseURL, "clientId": clientId]) }
    }

    private let configuration: Configuration
    private let httpClient: HTTPClient
    private let clock: C
    private let logger: Logger
    private let random: @Sendable () -> Double
    private var tokens: TokenCache<C.Instant>
    private var tokenWaiters: [CheckedContinuation<Void, Never>] = []
    private var encryption: EncryptionState = .unknown
    private var pinnedTransport: PinnedHTTPSTransport?

    private enum EncryptionState {
        case unknown
        case notPublished
        case key(ApplicationLayerEncryption)
    }

    /// - Parameters:
    ///   - random: a number in `0..<1` for the backoff jitter; tests pass a fixed one.
    public init(
        configuration: Configuration,
        httpClient: HTTPClient,
        clock: C,
        logger: Logger,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.clock = clock
        self.logger = logger
        self.random = random
        self.tokens = TokenCache(refreshMargin: configuration.tokenRefreshMargin)
    }

    // MARK: VerificationBackend

    public func createAccount(_ request: AccountRequest) async throws(BackendError) -> AccountResponse {
        try validate(request, call: .createAccount)
        let body = try encode(request, call: .createAccount)
        return try await send(.createAccount, method: .POST, path: "/api/v1/accounts", body: body, idempotent: false)
    }

    public func updateAccount(id: String, _ request: AccountRequest) async throws(BackendError) -> AccountResponse {
        try validate(request, call: .updateAccount)
        let body = try encode(request, call: .updateAccount)
        return try await send(.updateAccount, method: .PUT, path: "/api/v1/accounts/\(try segment(id, .updateAccount))", body: body, idempotent: false)
    }

    public func uploadPart(_ upload: PartUpload) async throws(BackendError) -> PartResponse {
        let e = upload.execution
        let path = try executionPath(e, .uploadPart) + "/credentials/\(try segment(upload.credentialId, .uploadPart))/parts/\(upload.classifier.rawValue)"
        var body = upload.body
        var headers = [("Idempotency-Key", upload.idempotencyKey), ("X-Session-Token", e.sessionToken)]
        if configuration.applicationLayerEncryption, let ale = try await currentEncryption() {
            // Sealed once: the retries of this call send the same bytes.
            let sealed = try ale.seal(upload.body)
            body = sealed.body
            headers += sealed.headers
        }
        do {
            return try await send(
                .uploadPart, method: .POST, path: path, body: body, contentType: upload.contentType,
                extraHeaders: headers, idempotent: true, timeout: configuration.uploadTimeout
            )
        } catch {
            // The backend rotated its key: this journey ends with I, the next one fetches the new key.
            if error.kind == .encryptionKeyInvalid { encryption = .unknown }
            throw error
        }
    }

    /// The backend's published key, fetched once; nil when it publishes none (404).
    private func currentEncryption() async throws(BackendError) -> ApplicationLayerEncryption? {
        switch encryption {
        case .key(let ale): return ale
        case .notPublished: return nil
        case .unknown:
            do {
                let key: EncryptionKey = try await send(.encryptionKey, method: .GET, path: "/api/v1/encryption-key", body: nil, idempotent: true)
                let ale = try ApplicationLayerEncryption(key)
                encryption = .key(ale)
                return ale
            } catch where error.kind == .forbidden && error.httpStatus == 404 {
                encryption = .notPublished
                return nil
            }
        }
    }

    public func finalize(_ execution: ExecutionRef, extractionOnly: Bool) async throws(BackendError) -> StatusResponse {
        // A verification's finalize has no body, as before; Fastfill's says it is extraction only.
        let body = extractionOnly ? try? JSONEncoder().encode(FinalizeRequest(extractionOnly: true)) : nil
        return try await send(
            .finalize, method: .PUT, path: try executionPath(execution, .finalize), body: body,
            extraHeaders: [("X-Session-Token", execution.sessionToken)], idempotent: true
        )
    }

    public func status(_ execution: ExecutionRef) async throws(BackendError) -> StatusResponse {
        try await send(.status, method: .GET, path: try executionPath(execution, .status) + "/status", body: nil, idempotent: true)
    }

    public func retrieve(_ execution: ExecutionRef) async throws(BackendError) -> WorkflowExecutionDetails {
        try await send(.retrieve, method: .GET, path: try executionPath(execution, .retrieve), body: nil, idempotent: true)
    }

    public func digitalIdentity(_ execution: ExecutionRef, credentialId: String) async throws(BackendError) -> DigitalIdentityStatus {
        try await send(
            .digitalIdentity, method: .GET,
            path: try executionPath(execution, .digitalIdentity) + "/credentials/\(try segment(credentialId, .digitalIdentity))/digital-identity",
            body: nil, extraHeaders: [("X-Session-Token", execution.sessionToken)], idempotent: true)
    }

    /// A new access token, past the cache: only the backend's answer says it is there.
    public func probe() async throws(BackendError) {
        do {
            let answer = try await fetchToken()
            tokens.fetched(token: answer.accessToken, expiresIn: .seconds(max(answer.expiresIn, 1)), now: clock.now)
        } catch {
            throw error.error
        }
    }

    // MARK: Token

    /// A fresh access token, fetched once for all concurrent callers.
    func accessToken() async throws(BackendError) -> String {
        while true {
            switch tokens.tokenNeeded(now: clock.now) {
            case .use(let token):
                return token
            case .awaitFetch:
                await withCheckedContinuation { tokenWaiters.append($0) }
            case .waitUntil(let instant):
                let wait = clock.now.duration(to: instant)
                if wait > configuration.retry.maxRetryAfter {
                    throw BackendError(.network, call: .token, httpStatus: 429, message: "token endpoint rate limited")
                }
                do { try await clock.sleep(until: instant, tolerance: nil) } catch {
                    throw BackendError(.network, call: .token, message: "cancelled while rate limited")
                }
            case .fetch:
                do {
                    let answer = try await fetchToken()
                    tokens.fetched(token: answer.accessToken, expiresIn: .seconds(max(answer.expiresIn, 1)), now: clock.now)
                    resumeTokenWaiters()
                    return answer.accessToken
                } catch {
                    tokens.fetchFailed(retryAfter: error.retryAfter, now: clock.now)
                    resumeTokenWaiters()
                    throw error.error
                }
            }
        }
    }

    /// One token request, without retries and without touching the cached token: whether the
    /// backend can be reached and accepts this station (TLS with the configured pins and
    /// trust roots, the client credentials), and its clock. For `idkiosk diag backend`.
    public func diagnose() async -> BackendProbe {
        let credentials = Data("\(configuration.clientId):\(configuration.clientSecret)".utf8).base64EncodedString()
        var request = HTTPClientRequest(url: configuration.baseURL + "/oauth2/token")
        request.method = .POST
        let body = Data("grant_type=client_credentials".utf8)
        request.headers.add(name: "Authorization", value: "Basic \(credentials)")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(bytes: body))
        let stopwatch = Stopwatch(clock)
        do {
            let (status, headers, data) = try await perform(request, body: body, timeout: configuration.requestTimeout, call: .token)
            let serverDate = headers.first(name: "Date").flatMap(BackendProbe.httpDate)
            var error: BackendError?
            if !(200..<300).contains(status) {
                error = Self.error(forStatus: status, body: data, call: .token)
            } else if (try? JSONDecoder().decode(TokenResponse.self, from: data)) == nil {
                error = BackendError(.network, call: .token, httpStatus: status, message: "the answer is not a token")
            }
            return BackendProbe(
                tokenIssued: error == nil, error: error, httpStatus: status, roundTrip: stopwatch.elapsed, serverDate: serverDate, localDate: Date())
        } catch let error as BackendError {
            return BackendProbe(tokenIssued: false, error: error, httpStatus: nil, roundTrip: stopwatch.elapsed, serverDate: nil, localDate: Date())
        } catch {
            return BackendProbe(
                tokenIssued: false, error: Self.error(forTransport: error, call: .token), httpStatus: nil, roundTrip: stopwatch.elapsed,
                serverDate: nil, localDate: Date())
        }
    }

    private func resumeTokenWaiters() {
        let waiters = tokenWaiters
        tokenWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    private struct TokenFailure: Error {
        var error: BackendError
        var retryAfter: Duration?
    }

    private func fetchToken() async throws(TokenFailure) -> TokenResponse {
        let credentials = Data("\(configuration.clientId):\(configuration.clientSecret)".utf8).base64EncodedString()
        do {
            let (body, _) = try await exchange(
                .token, method: .POST, path: "/oauth2/token", body: Data("grant_type=client_credentials".utf8),
                contentType: "application/x-www-form-urlencoded", extraHeaders: [("Authorization", "Basic \(credentials)")],
                idempotent: true, authenticated: false, timeout: configuration.requestTimeout
            )
            return try decode(TokenResponse.self, from: body, call: .token)
        } catch {
            throw TokenFailure(error: error, retryAfter: error.httpStatus == 429 ? lastRetryAfter : nil)
        }
    }

    /// The Retry-After of the last 429 the token endpoint gave, for the cache's hold-off.
    private var lastRetryAfter: Duration?

    // MARK: Exchange

    private func send<Answer: Decodable>(
        _ call: BackendError.Call, method: HTTPMethod, path: String, body: Data?, contentType: String = "application/json",
        extraHeaders: [(String, String)] = [], idempotent: Bool, timeout: Duration? = nil
    ) async throws(BackendError) -> Answer {
        let (answer, _) = try await exchange(
            call, method: method, path: path, body: body, contentType: contentType, extraHeaders: extraHeaders,
            idempotent: idempotent, authenticated: true, timeout: timeout ?? configuration.requestTimeout
        )
        return try decode(Answer.self, from: answer, call: call)
    }

    /// One call with its retries; a 401 on an authenticated call refreshes the token once.
    private func exchange(
        _ call: BackendError.Call, method: HTTPMethod, path: String, body: Data?, contentType: String,
        extraHeaders: [(String, String)], idempotent: Bool, authenticated: Bool, timeout: Duration
    ) async throws(BackendError) -> (Data, Int) {
        var attempt = 0
        var refreshedToken = false
        while true {
            attempt += 1
            var request = HTTPClientRequest(url: configuration.baseURL + path)
            request.method = method
            var token: String?
            if authenticated {
                let fresh = try await accessToken()
                token = fresh
                request.headers.add(name: "Authorization", value: "Bearer \(fresh)")
            }
            for (name, value) in extraHeaders { request.headers.add(name: name, value: value) }
            if let body {
                request.headers.add(name: "Content-Type", value: contentType)
                request.body = .bytes(ByteBuffer(bytes: body))
            }

            let failure: BackendError
            var retryAfter: Duration?
            do {
                let (status, headers, data) = try await perform(request, body: body, timeout: timeout, call: call)
                if (200..<300).contains(status) {
                    logger.debug("backend call done", metadata: ["call": "\(call)", "attempt": "\(attempt)", "status": "\(status)"])
                    return (data, status)
                }
                if status == 401, authenticated, !refreshedToken, let token {
                    // The token expired or was revoked mid-journey: the request was not
                    // processed, so one more try with a new token is safe for every call.
                    tokens.rejected(token: token)
                    refreshedToken = true
                    attempt -= 1
                    logger.info("access token refused, refreshing", metadata: ["call": "\(call)"])
                    continue
                }
                retryAfter = Self.retryAfter(headers)
                if call == .token { lastRetryAfter = retryAfter }
                failure = Self.error(forStatus: status, body: data, call: call)
            } catch let error as BackendError {
                throw error
            } catch {
                failure = Self.error(forTransport: error, call: call)
            }

            // A 429 was not processed: retrying it is safe even for a non-idempotent call.
            let safe = idempotent || failure.httpStatus == 429
            let decision = configuration.retry.decide(attempt: attempt, idempotent: safe, error: failure, retryAfter: retryAfter, random: random())
            logger.notice(
                "backend call failed",
                metadata: ["call": "\(call)", "attempt": "\(attempt)", "code": "\(failure.code)", "retry": "\(decision)"]
            )
            switch decision {
            case .giveUp:
                throw failure
            case .retry(let delay):
                do { try await clock.sleep(for: delay) } catch { throw failure }
            }
        }
    }

    /// One attempt: through the pinned transport when pinning is configured, else the `HTTPClient`.
    private func perform(
        _ request: HTTPClientRequest, body: Data?, timeout: Duration, call: BackendError.Call
    ) async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        if let pinning = configuration.pinning {
            let transport: PinnedHTTPSTransport
            if let existing = pinnedTransport {
                transport = existing
            } else {
                do { transport = try PinnedHTTPSTransport(pinning: pinning, group: httpClient.eventLoopGroup) } catch {
                    throw BackendError(.secureConnection, call: call, message: "TLS context for pinning failed", cause: "\(error)")
                }
                pinnedTransport = transport
            }
            let answer = try await transport.execute(
                method: request.method, url: request.url, headers: request.headers, body: body, timeout: timeout,
                maxResponseBytes: configuration.maxResponseBytes, call: call
            )
            return (answer.status, answer.headers, answer.body)
        }
        let response = try await httpClient.execute(request, timeout: .nanoseconds(timeout.wholeNanoseconds))
        let collected = try await response.body.collect(upTo: configuration.maxResponseBytes)
        return (Int(response.status.code), response.headers, Data(collected.readableBytesView))
    }

    // MARK: Mapping

    static func error(forStatus status: Int, body: Data, call: BackendError.Call) -> BackendError {
        let apiError = try? JSONDecoder().decode(APIErrorBody.self, from: body)
        if apiError?.code == .KEY_EXPIRED {
            return BackendError(.encryptionKeyInvalid, call: call, httpStatus: status, message: "encryption key no longer accepted")
        }
        if apiError?.code == .REFERENCE_INVALID {
            return BackendError(.referenceInvalid, call: call, httpStatus: status, message: "enrollment or authentication reference cannot be used")
        }
        let code = apiError?.code.rawValue ?? "none"
        switch status {
        case 401:
            return BackendError(.credentials, call: call, httpStatus: status, message: "credentials refused", cause: code)
        case 403, 404:
            return BackendError(.forbidden, call: call, httpStatus: status, message: "not found for this station", cause: code)
        case 410:
            return BackendError(.transactionFinished, call: call, httpStatus: status, message: "transaction finished or expired", cause: code)
        case 408, 429, 500...599:
            return BackendError(.network, call: call, httpStatus: status, message: "backend unavailable", cause: code)
        default:
            return BackendError(.rejected, call: call, httpStatus: status, message: "request refused", cause: code)
        }
    }

    static func error(forTransport error: any Error, call: BackendError.Call) -> BackendError {
        let cause = String(describing: type(of: error))
        if error is NIOSSLError || error is NIOSSLExtraError {
            return BackendError(.secureConnection, call: call, message: "TLS failed", cause: "\(error)")
        }
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout, .socksHandshakeTimeout:
                return BackendError(.noConnection, call: call, message: "could not connect", cause: "\(client)")
            case .tlsHandshakeTimeout:
                return BackendError(.secureConnection, call: call, message: "TLS handshake timed out", cause: "\(client)")
            default:
                return BackendError(.network, call: call, message: "exchange failed", cause: "\(client)")
            }
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel {
            return BackendError(.noConnection, call: call, message: "could not connect", cause: "connect timeout")
        }
        if error is NIOConnectionError {
            return BackendError(.noConnection, call: call, message: "could not connect", cause: cause)
        }
        if let io = error as? IOError, [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN].contains(io.errnoCode) {
            return BackendError(.noConnection, call: call, message: "could not connect", cause: "errno \(io.errnoCode)")
        }
        return BackendError(.network, call: call, message: "exchange failed", cause: cause)
    }

    static func retryAfter(_ headers: HTTPHeaders) -> Duration? {
        guard let value = headers.first(name: "Retry-After"), let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }


    // MARK: Helpers

    private func validate(_ request: AccountRequest, call: BackendError.Call) throws(BackendError) {
        do { try request.validate() } catch {
            throw BackendError(.rejected, call: call, message: "reference refused before sending: \(error)")
        }
    }

    private func encode(_ value: some Encodable, call: BackendError.Call) throws(BackendError) -> Data {
        do { return try JSONEncoder().encode(value) } catch {
            throw BackendError(.rejected, call: call, message: "could not encode the request")
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data, call: BackendError.Call) throws(BackendError) -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw BackendError(.network, call: call, httpStatus: 200, message: "answer does not match the API")
        }
    }

    private func executionPath(_ e: ExecutionRef, _ call: BackendError.Call) throws(BackendError) -> String {
        "/api/v1/accounts/\(try segment(e.accountId, call))/workflow-executions/\(try segment(e.workflowExecutionId, call))"
    }

    /// Ids are UUIDs or similar: anything that would change the path is refused.
    private func segment(_ id: String, _ call: BackendError.Call) throws(BackendError) -> String {
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }) else {
            throw BackendError(.rejected, call: call, message: "malformed id")
        }
        return id
    }
}
