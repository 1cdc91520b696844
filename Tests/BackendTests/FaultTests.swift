import AsyncHTTPClient
import Backend
import Foundation
import KioskTestKit
import NIOPosix
import ReferenceBackend
import Testing

/// What the station sees when the backend is down, failing, slow, rate limiting or
/// expiring its token mid-journey.
@Suite struct FaultTests {
    @Test func backendDownIsENoConnectionAfterRetries() async throws {
        // A port that was just free: bind, learn it, close.
        let closedPort = try await LoopbackBackend.with { $0.port }
        // The station sets a short connect timeout: AHC keeps trying a refused connect until it.
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(timeout: .init(connect: .milliseconds(300))))
        var configuration = HTTPVerificationBackend<ContinuousClock>.Configuration(baseURL: "http://127.0.0.1:\(closedPort)", clientId: "x", clientSecret: "y")
        configuration.retry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(10))
        let client = HTTPVerificationBackend(configuration: configuration, httpClient: httpClient, clock: ContinuousClock(), logger: LoopbackBackend.logger)
        let error = await #expect(throws: BackendError.self) {
            try await client.status(ExecutionRef(accountId: "a", workflowExecutionId: "b", sessionToken: "c"))
        }
        try await httpClient.shutdown()
        #expect(error?.kind == .noConnection)
        #expect(error?.code == "noConnection.token")
        #expect(error?.isRetryable == true)
    }

    @Test func serverErrorsAreRetriedThenSucceed() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            await backend.faults.inject(.status(503), times: 2, pathContains: "/status")
            let status = try await client.status(ExecutionRef(account))
            #expect(status.workflowExecution.status == .INITIATED)
            #expect(await backend.faults.requestCount(pathContains: "/status") == 3)
        }
    }

    @Test func persistentServerErrorsEndWithARetryableA() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            await backend.faults.inject(.status(500), times: 10, pathContains: "/status")
            let error = await #expect(throws: BackendError.self) { try await client.status(ExecutionRef(account)) }
            #expect(error?.code == "network.status.500")
            #expect(error?.isRetryable == true)
            #expect(await backend.faults.requestCount(pathContains: "/status") == 3)
        }
    }

    @Test func nonIdempotentAccountCreationIsNotRetriedOnServerError() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            await backend.faults.inject(.status(502), times: 1, pathContains: "/api/v1/accounts", method: "POST")
            let error = await #expect(throws: BackendError.self) { try await client.createAccount(Fixtures.account()) }
            #expect(error?.code == "network.createAccount.502")
            #expect(await backend.faults.requestCount(pathContains: "POST /api/v1/accounts") == 1)
        }
    }

    @Test func slowAnswerTimesOutAndIsRetried() async throws {
        try await LoopbackBackend.with { backend in
            let account = try await backend.client().createAccount(Fixtures.account())
            // The timeout only has to be far below the injected delay and far above a loaded
            // machine's answer time (the suite runs in parallel on two cores).
            let impatient = backend.client { $0.requestTimeout = .seconds(1) }
            await backend.faults.inject(.delay(.seconds(3)), times: 1, pathContains: "/status")
            let status = try await impatient.status(ExecutionRef(account))
            #expect(status.workflowExecution.status == .INITIATED)
            #expect(await backend.faults.requestCount(pathContains: "/status") == 2)

            let once = backend.client {
                $0.requestTimeout = .seconds(1)
                $0.retry.maxAttempts = 1
            }
            await backend.faults.inject(.delay(.seconds(3)), times: 1, pathContains: "/status")
            let error = await #expect(throws: BackendError.self) { try await once.status(ExecutionRef(account)) }
            #expect(error?.kind == .network)
            #expect(error?.isRetryable == true)
        }
    }

    @Test func tokenExpiredMidJourneyIsRefreshedTransparently() async throws {
        try await LoopbackBackend.with(configure: { $0.accessTokenLifetime = 600 }) { backend in
            // The station's refresh margin is shorter than the jump, so its cache still
            // believes in the token: the backend's 401 must trigger the refresh.
            let client = backend.client { $0.tokenRefreshMargin = .seconds(1) }
            let account = try await client.createAccount(Fixtures.account(tokenLifetime: 3600))
            let id = try account.credential(.ID)
            backend.time.advance(seconds: 700)
            let answer = try await client.uploadPart(PartUpload(execution: ExecutionRef(account), credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            #expect(answer.usability.decision == .PASSED)
            #expect(await backend.faults.requestCount(pathContains: "/oauth2/token") == 2)

            try await backend.store.revokeTokens(clientId: backend.station.id)
            #expect(try await client.status(ExecutionRef(account)).workflowExecution.status == .ACQUIRED)
            #expect(await backend.faults.requestCount(pathContains: "/oauth2/token") == 3)
        }
    }

    @Test func tokenIsCachedAcrossCalls() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account())
            for _ in 0..<3 { _ = try await client.status(ExecutionRef(account)) }
            #expect(await backend.faults.requestCount(pathContains: "/oauth2/token") == 1)
        }
    }

    @Test func rateLimitHonoursRetryAfterEvenForAccountCreation() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            await backend.faults.inject(.status(429, retryAfter: 0), times: 1, pathContains: "/oauth2/token")
            await backend.faults.inject(.status(429, retryAfter: 0), times: 1, pathContains: "/api/v1/accounts", method: "POST")
            let account = try await client.createAccount(Fixtures.account())
            #expect(!account.workflowExecution.id.isEmpty)
            #expect(await backend.faults.requestCount(pathContains: "/oauth2/token") == 2)
            #expect(await backend.faults.requestCount(pathContains: "POST /api/v1/accounts") == 2)
        }
    }

    @Test func retryAfterLongerThanTheStationWaitsGivesUpWithA() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            await backend.faults.inject(.status(429, retryAfter: 3600), times: 1, pathContains: "/oauth2/token")
            let error = await #expect(throws: BackendError.self) { try await client.createAccount(Fixtures.account()) }
            #expect(error?.code == "network.token.429")
            #expect(await backend.faults.requestCount(pathContains: "/oauth2/token") == 1)
        }
    }
}

@Suite struct ConnectionResetTests {
    /// The connection is reset while the part's bytes flow: A (retryable), and the
    /// station's next try with the same idempotency key stores the part once.
    @Test func resetMidUploadIsARetryableAAndTheRepeatIsStoredOnce() async throws {
        try await LoopbackBackend.with { backend in
            try await ResettingProxy.with(targetPort: backend.port, resets: 2, afterBytes: 16 << 10) { proxy, port in
                let client = backend.client { configuration in
                    configuration.baseURL = "http://127.0.0.1:\(port)"
                    configuration.retry = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(10), maxDelay: .milliseconds(20))
                }
                let account = try await client.createAccount(Fixtures.account())
                let body = Fixtures.jpeg(width: 1920, height: 1080)
                #expect(body.count > 16 << 10)
                let upload = PartUpload(execution: ExecutionRef(account), credentialId: try account.credential(.ID).id, classifier: .front, body: body)
                // Both attempts are reset mid-upload.
                let error = await #expect(throws: BackendError.self) { try await client.uploadPart(upload) }
                #expect(error?.code == "network.uploadPart")
                #expect(error?.isRetryable == true)
                #expect(proxy.resetCount == 2)
                #expect(try await backend.store.partCount(executionId: account.workflowExecution.id) == 0)
                // Later (the outbox's next delivery) the same upload goes through, once.
                let answer = try await client.uploadPart(upload)
                #expect(answer.usability.decision == .PASSED)
                _ = try await client.uploadPart(upload)
                #expect(try await backend.store.partCount(executionId: account.workflowExecution.id) == 1)
                #expect(try await backend.store.deliveredKeys(clientId: backend.station.id) == [upload.idempotencyKey])
            }
        }
    }
}
