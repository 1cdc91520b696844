import Foundation
import Testing
@testable import Backend

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .milliseconds(350), maxRetryAfter: .seconds(10))
    let network = BackendError(.network, call: .uploadPart, httpStatus: 503, message: "x")

    @Test func backoffGrowsExponentiallyAndIsCapped() {
        #expect(policy.backoff(attempt: 1, random: 1) == .milliseconds(100))
        #expect(policy.backoff(attempt: 2, random: 1) == .milliseconds(200))
        #expect(policy.backoff(attempt: 3, random: 1) == .milliseconds(350))
        #expect(policy.backoff(attempt: 40, random: 1) == .milliseconds(350))
    }

    @Test func jitterScalesTheCeiling() {
        #expect(policy.backoff(attempt: 2, random: 0) == .zero)
        #expect(policy.backoff(attempt: 2, random: 0.5) == .milliseconds(100))
    }

    @Test func retriesOnlyIdempotentRetryableCallsWithinTheLimit() {
        #expect(policy.decide(attempt: 1, idempotent: true, error: network, retryAfter: nil, random: 1) == .retry(after: .milliseconds(100)))
        #expect(policy.decide(attempt: 1, idempotent: false, error: network, retryAfter: nil, random: 1) == .giveUp)
        #expect(policy.decide(attempt: 4, idempotent: true, error: network, retryAfter: nil, random: 1) == .giveUp)
        let credentials = BackendError(.credentials, call: .token, httpStatus: 401, message: "x")
        #expect(policy.decide(attempt: 1, idempotent: true, error: credentials, retryAfter: nil, random: 1) == .giveUp)
        let finished = BackendError(.transactionFinished, call: .uploadPart, httpStatus: 410, message: "x")
        #expect(policy.decide(attempt: 1, idempotent: true, error: finished, retryAfter: nil, random: 1) == .giveUp)
    }

    @Test func retryAfterReplacesBackoffUnlessTooLong() {
        #expect(policy.decide(attempt: 1, idempotent: true, error: network, retryAfter: .seconds(3), random: 0) == .retry(after: .seconds(3)))
        #expect(policy.decide(attempt: 1, idempotent: true, error: network, retryAfter: .seconds(11), random: 0) == .giveUp)
    }
}

@Suite struct TokenCacheTests {
    typealias Cache = TokenCache<ContinuousClock.Instant>
    let t0 = ContinuousClock.now

    @Test func fetchesOnceThenReusesUntilTheRefreshMargin() {
        var cache = Cache(refreshMargin: .seconds(60))
        #expect(cache.tokenNeeded(now: t0) == .fetch)
        #expect(cache.tokenNeeded(now: t0) == .awaitFetch)
        cache.fetched(token: "a", expiresIn: .seconds(600), now: t0)
        #expect(cache.tokenNeeded(now: t0 + .seconds(539)) == .use("a"))
        #expect(cache.tokenNeeded(now: t0 + .seconds(540)) == .fetch)
    }

    @Test func shortLivedTokensRefreshAtHalfTheirLife() {
        var cache = Cache(refreshMargin: .seconds(60))
        _ = cache.tokenNeeded(now: t0)
        cache.fetched(token: "a", expiresIn: .seconds(10), now: t0)
        #expect(cache.tokenNeeded(now: t0 + .seconds(4)) == .use("a"))
        #expect(cache.tokenNeeded(now: t0 + .seconds(5)) == .fetch)
    }

    @Test func rejectedTokenIsForgottenButNotANewerOne() {
        var cache = Cache()
        _ = cache.tokenNeeded(now: t0)
        cache.fetched(token: "a", expiresIn: .seconds(600), now: t0)
        cache.rejected(token: "old")
        #expect(cache.tokenNeeded(now: t0) == .use("a"))
        cache.rejected(token: "a")
        #expect(cache.tokenNeeded(now: t0) == .fetch)
    }

    @Test func rateLimitHoldsOffUntilRetryAfter() {
        var cache = Cache()
        _ = cache.tokenNeeded(now: t0)
        cache.fetchFailed(retryAfter: .seconds(5), now: t0)
        #expect(cache.tokenNeeded(now: t0 + .seconds(1)) == .waitUntil(t0 + .seconds(5)))
        #expect(cache.tokenNeeded(now: t0 + .seconds(5)) == .fetch)
    }

    @Test func failureWithoutRetryAfterFetchesAgainAtOnce() {
        var cache = Cache()
        _ = cache.tokenNeeded(now: t0)
        cache.fetchFailed(retryAfter: nil, now: t0)
        #expect(cache.tokenNeeded(now: t0) == .fetch)
    }
}

@Suite struct BackendErrorTests {
    @Test func codesNameKindCallAndStatus() {
        #expect(BackendError(.network, call: .uploadPart, httpStatus: 503, message: "").code == "network.uploadPart.503")
        #expect(BackendError(.noConnection, call: .token, message: "").code == "noConnection.token")
        #expect(BackendError(.credentials, call: .token, httpStatus: 401, message: "").code == "credentials.token.401")
        #expect(BackendError(.secureConnection, call: .createAccount, message: "").code == "secureConnection.createAccount")
        #expect(BackendError(.encryptionKeyInvalid, call: .uploadPart, httpStatus: 400, message: "").code == "encryptionKeyInvalid.uploadPart.400")
        #expect(BackendError(.transactionFinished, call: .finalize, httpStatus: 410, message: "").code == "transactionFinished.finalize.410")
        let error = BackendError(.network, call: .status, httpStatus: 502, message: "backend unavailable", cause: "UNAVAILABLE")
        #expect(error.description == "network.status.502: backend unavailable cause: UNAVAILABLE")
    }

    @Test func onlyNetworkAndConnectionAreRetryable() {
        #expect(BackendError(.network, call: .status, message: "").isRetryable)
        #expect(BackendError(.noConnection, call: .status, message: "").isRetryable)
        for kind in [BackendError.Kind.secureConnection, .credentials, .forbidden, .encryptionKeyInvalid, .transactionFinished, .rejected, .notConfigured] {
            #expect(!BackendError(kind, call: .status, message: "").isRetryable)
        }
    }

    @Test func statusMapping() {
        typealias Client = HTTPVerificationBackend<ContinuousClock>
        #expect(Client.error(forStatus: 401, body: .init(), call: .status).kind == .credentials)
        #expect(Client.error(forStatus: 404, body: .init(), call: .status).kind == .forbidden)
        #expect(Client.error(forStatus: 410, body: .init(), call: .status).kind == .transactionFinished)
        #expect(Client.error(forStatus: 429, body: .init(), call: .status).kind == .network)
        #expect(Client.error(forStatus: 502, body: .init(), call: .status).kind == .network)
        #expect(Client.error(forStatus: 422, body: .init(), call: .status).kind == .rejected)
        let keyExpired = #"{"code":"KEY_EXPIRED","message":"m"}"#.data(using: .utf8)!
        #expect(Client.error(forStatus: 400, body: keyExpired, call: .uploadPart).kind == .encryptionKeyInvalid)
    }
}

@Suite struct ReferenceCheckTests {
    @Test func acceptsOpaqueReferences() throws {
        try ReferenceCheck.check("kiosk-7/2026-11-22/0042", field: "customerInternalReference")
        try ReferenceCheck.check("CAMPAIGN A", field: "reportingCriteria")
    }

    @Test func refusesPersonalDataPatternsAndLength() {
        #expect(throws: ReferenceViolation(field: "userReference", rule: .looksLikeEmail)) {
            try ReferenceCheck.check("jane.doe@example.org", field: "userReference")
        }
        #expect(throws: ReferenceViolation(field: "f", rule: .looksLikeMRZ)) {
            try ReferenceCheck.check("P<UTOERIKSSON<<ANNA", field: "f")
        }
        #expect(throws: ReferenceViolation(field: "f", rule: .looksLikeMRZ)) {
            try ReferenceCheck.check("L898902C<3UTO6908061F9406236", field: "f")
        }
        #expect(throws: ReferenceViolation(field: "f", rule: .tooLong)) {
            try ReferenceCheck.check(String(repeating: "a", count: 101), field: "f")
        }
    }
}

@Suite struct ConfigurationTests {
    typealias Configuration = HTTPVerificationBackend<ContinuousClock>.Configuration

    @Test func dataCentersAreConfiguration() throws {
        let endpoints = DataCenterEndpoints([.EU: "https://eu.backend.example/", .US: "https://us.backend.example"])
        #expect(try Configuration(dataCenter: .EU, endpoints: endpoints, clientId: "c", clientSecret: "s").baseURL == "https://eu.backend.example")
        let error = #expect(throws: BackendError.self) { try Configuration(dataCenter: .SG, endpoints: endpoints, clientId: "c", clientSecret: "s") }
        #expect(error?.code == "notConfigured.token")
    }

    @Test func theSecretReachesNoDescriptionOrDump() {
        let configuration = Configuration(baseURL: "http://127.0.0.1:1", clientId: "station-7", clientSecret: "s3cr3t-value")
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains("s3cr3t-value"))
        #expect(!"\(configuration)".contains("s3cr3t-value"))
        #expect(!String(reflecting: configuration).contains("s3cr3t-value"))
        let upload = PartUpload(
            execution: ExecutionRef(accountId: "a", workflowExecutionId: "w", sessionToken: "session-secret"),
            credentialId: "c", classifier: .front, body: Data("P<UTOERIKSSON".utf8)
        )
        #expect(!"\(upload)".contains("session-secret"))
        #expect(!"\(upload)".contains("ERIKSSON"))
        var dumpedUpload = ""
        dump(upload, to: &dumpedUpload)
        #expect(!dumpedUpload.contains("session-secret"))
    }
}
