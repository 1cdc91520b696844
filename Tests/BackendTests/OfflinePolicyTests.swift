import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Synchronization
import Testing

/// The offline policy's decisions, by the actions of its state machine.
@Suite struct JourneyAdmissionTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let down = BackendError(.noConnection, call: .createAccount, message: "connect refused")

    static func response(_ id: String) -> AccountResponse {
        AccountResponse(timestamp: "", account: Ref(id: "acc-\(id)"), sdk: .init(token: "t-\(id)"), consentItems: [],
                        workflowExecution: .init(id: id, credentials: []))
    }

    @Test func refuseModeRefusesWhileOfflineThenTriesOnlineAfterTheRecheckInterval() {
        var admission = JourneyAdmission(policy: OfflinePolicy(mode: .refuseNewJourneys, recheckInterval: .seconds(30)))
        #expect(admission.refillRequested(now: Self.start) == 0)
        #expect(admission.journeyRequested(now: Self.start) == .createOnline)
        #expect(admission.createFailed(Self.down, now: Self.start) == .refuse(Self.down))
        #expect(!admission.isReachable)
        // Within the interval, no journey waits for another connect timeout.
        #expect(admission.journeyRequested(now: Self.start + 10) == .refuse(Self.down))
        #expect(admission.journeyRequested(now: Self.start + 30) == .createOnline)
        admission.createSucceeded()
        #expect(admission.isReachable)
    }

    @Test func queueModeUsesPreparedExecutionsOldestFirstWhileOffline() {
        let policy = OfflinePolicy(mode: .queue, preparedExecutions: 2, tokenLifetime: 86_400, minimumRemainingLifetime: .seconds(3600))
        var admission = JourneyAdmission(policy: policy)
        #expect(admission.refillRequested(now: Self.start) == 2)
        admission.prepared(Self.response("a"), now: Self.start)
        admission.prepared(Self.response("b"), now: Self.start + 1)
        #expect(admission.refillRequested(now: Self.start + 2) == 0)
        #expect(admission.journeyRequested(now: Self.start + 5) == .createOnline)
        #expect(admission.createFailed(Self.down, now: Self.start + 5) == .usePrepared(Self.response("a")))
        #expect(admission.journeyRequested(now: Self.start + 6) == .usePrepared(Self.response("b")))
        #expect(admission.journeyRequested(now: Self.start + 7) == .refuse(Self.down))
        // Offline, the refill probes once per recheck interval.
        #expect(admission.refillRequested(now: Self.start + 8) == 0)
        #expect(admission.refillRequested(now: Self.start + 40) == 1)
    }

    @Test func preparedExecutionsThatWouldExpireTooSoonAreNotUsed() {
        let policy = OfflinePolicy(mode: .queue, preparedExecutions: 1, tokenLifetime: 7200, minimumRemainingLifetime: .seconds(3600))
        var admission = JourneyAdmission(policy: policy)
        admission.prepared(Self.response("a"), now: Self.start)
        #expect(admission.usablePrepared(at: Self.start + 3600) == 1)
        #expect(admission.usablePrepared(at: Self.start + 3601) == 0)
        _ = admission.journeyRequested(now: Self.start + 3601)
        #expect(admission.createFailed(Self.down, now: Self.start + 3601) == .refuse(Self.down))
        // The refill replaces it.
        #expect(admission.refillRequested(now: Self.start + 3602) == 0)
        #expect(admission.refillRequested(now: Self.start + 3700) == 1)
    }

    @Test func anAnswerThatIsNotAboutConnectivityIsNotOffline() {
        var admission = JourneyAdmission(policy: OfflinePolicy(mode: .queue, preparedExecutions: 1))
        admission.prepared(Self.response("a"), now: Self.start)
        let refused = BackendError(.credentials, call: .createAccount, httpStatus: 401, message: "client credentials refused")
        _ = admission.journeyRequested(now: Self.start)
        #expect(admission.createFailed(refused, now: Self.start) == .refuse(refused))
        #expect(admission.isReachable)
        #expect(admission.usablePrepared(at: Self.start) == 1)
    }
}

/// The station against the reference backend going down for hours and coming back.
@Suite struct OfflineJourneyTests {
    @Test func queuedJourneyStartsOfflineAndDrainsWhenTheBackendReturns() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let clock = ManualTime(Date())
            let policy = OfflinePolicy(mode: .queue, preparedExecutions: 1, tokenLifetime: 86_400, minimumRemainingLifetime: .seconds(3600))
            let starter = JourneyStarter(backend: client, policy: policy, template: Fixtures.account(), logger: LoopbackBackend.logger, now: { clock.now })
            #expect(await starter.refill() == 1)

            // The backend goes away: every call answers 503.
            await backend.faults.inject(.status(503), times: 10_000, pathContains: "/")
            let accountsBefore = await backend.faults.requestCount(pathContains: "POST /api/v1/accounts")
            let start = try await starter.start(Fixtures.account())
            guard case .offline(let response) = start else { throw TestFailure("expected an offline start") }
            // A second visitor is refused at once: no prepared execution left, and no new connect attempt.
            let refused = await #expect(throws: BackendError.self) { try await starter.start(Fixtures.account()) }
            #expect(refused?.kind == .network)
            #expect(await backend.faults.requestCount(pathContains: "POST /api/v1/accounts") == accountsBefore + 1)

            // The journey's parts and finalize wait in the outbox.
            let fixture = try OutboxFixture()
            defer { fixture.remove() }
            let outbox = try fixture.open(now: { clock.now })
            let execution = ExecutionRef(response)
            let id = try response.credential(.ID)
            try await outbox.enqueue(PartUpload(execution: execution, credentialId: id.id, classifier: .front, body: Fixtures.jpeg(width: 1280, height: 800)))
            try await outbox.enqueue(PartUpload(execution: execution, credentialId: id.id, classifier: .mrz, body: Fixtures.mrzPart(Fixtures.validMRZ)))
            try await outbox.enqueue(.finalize(execution))
            let sender = OutboxSender(outbox: outbox, backend: client, clock: ContinuousClock(), logger: LoopbackBackend.logger, random: { 0 })
            #expect(try await sender.drainOnce() == 0)

            // Hours later the backend returns.
            clock.advance(seconds: 3 * 3600)
            await backend.faults.clear()
            var delivered = 0
            for _ in 0..<5 where delivered < 3 { delivered += try await sender.drainOnce() }
            #expect(delivered == 3)
            #expect(try await outbox.stats().records == 0)
            let details = try await client.retrieve(execution)
            #expect(details.workflow.status == .PROCESSED)
            #expect(details.idResult?.documentNumber == "L898902C3")

            // New journeys start online again once the recheck interval passed.
            clock.advance(seconds: 60)
            guard case .online = try await starter.start(Fixtures.account()) else { throw TestFailure("expected an online start") }
        }
    }

    @Test func refuseNewJourneysWhileDownThenStartOnlineWhenBack() async throws {
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let clock = ManualTime(Date())
            let starter = JourneyStarter(backend: client, policy: OfflinePolicy(mode: .refuseNewJourneys), template: Fixtures.account(),
                                         logger: LoopbackBackend.logger, now: { clock.now })
            #expect(await starter.refill() == 0)
            await backend.faults.inject(.status(503), times: 10_000, pathContains: "/")
            let refused = await #expect(throws: BackendError.self) { try await starter.start(Fixtures.account()) }
            #expect(refused?.isRetryable == true)
            await backend.faults.clear()
            clock.advance(seconds: 60)
            guard case .online(let response) = try await starter.start(Fixtures.account()) else { throw TestFailure("expected an online start") }
            #expect(try await client.status(ExecutionRef(response)).workflowExecution.status == .INITIATED)
        }
    }
}
