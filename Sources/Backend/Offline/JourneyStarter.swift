public import Foundation
public import Logging
public import ServiceLifecycle

/// Starts journeys under an ``OfflinePolicy``: online when the backend answers, else from
/// an execution prepared in advance (``OfflinePolicy/Mode/queue``) or not at all.
///
/// The prepared executions live in memory: after a restart the station prepares new ones
/// once the backend is reachable. Their session tokens are secrets and never logged.
public actor JourneyStarter {
    /// How a journey got its execution.
    public enum Start: Sendable, Equatable {
        /// Created for this journey by the backend.
        case online(AccountResponse)
        /// Prepared in advance; the backend is unreachable, so parts wait in the outbox.
        case offline(AccountResponse)

        public var response: AccountResponse {
            switch self {
            case .online(let response), .offline(let response): response
            }
        }
    }

    private let backend: any VerificationBackend
    private let template: AccountRequest
    private let logger: Logger
    private let now: @Sendable () -> Date
    private var admission: JourneyAdmission
    private var probing = false

    /// - Parameters:
    ///   - template: the request of executions prepared in advance (its references are
    ///     the station's, not a visitor's; its `tokenLifetime` is the policy's).
    ///   - now: the wall clock session tokens expire on.
    public init(
        backend: any VerificationBackend, policy: OfflinePolicy, template: AccountRequest, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.backend = backend
        var template = template
        template.tokenLifetime = policy.tokenLifetime
        self.template = template
        self.logger = logger
        self.now = now
        self.admission = JourneyAdmission(policy: policy)
    }

    /// Whether the last call to the backend reached it (true before the first).
    public var isReachable: Bool { admission.isReachable }

    /// Asks the backend whether it answers again, when it did not at the last call and the
    /// policy's recheck interval has passed (one probe at a time; nothing is created there).
    public func probeIfDue() async {
        guard !probing, admission.isProbeDue(at: now()) else { return }
        probing = true
        defer { probing = false }
        do {
            try await backend.probe()
            admission.probeSucceeded()
            logger.notice("the backend answers again")
        } catch {
            admission.prepareFailed(error, now: now())
        }
    }

    /// How many prepared executions a journey could use now.
    public var usablePrepared: Int { admission.usablePrepared(at: now()) }

    /// The execution for a new journey.
    /// - Throws: ``BackendError``: the backend's refusal, or while offline the connectivity
    ///   error (E or A) when the policy refuses new journeys or no prepared execution is left.
    public func start(_ request: AccountRequest) async throws(BackendError) -> Start {
        if request.isAuthentication {
            // The backend checks the enrollment now, and no prepared execution names one: an
            // Authentication starts online or not at all, whatever the policy.
            do {
                let response = try await backend.createAccount(request)
                admission.createSucceeded()
                return .online(response)
            } catch {
                logger.warning("authentication refused", metadata: ["code": "\(error.code)"])
                throw error
            }
        }
        var action = admission.journeyRequested(now: now())
        while true {
            switch action {
            case .createOnline:
                do {
                    let response = try await backend.createAccount(request)
                    admission.createSucceeded()
                    return .online(response)
                } catch {
                    action = admission.createFailed(error, now: now())
                }
            case .usePrepared(let response):
                logger.notice("journey started offline from a prepared execution", metadata: ["workflowExecution": "\(response.workflowExecution.id)"])
                return .offline(response)
            case .refuse(let error):
                logger.warning("journey refused", metadata: ["code": "\(error.code)", "mode": "\(admission.policy.mode.rawValue)"])
                throw error
            }
        }
    }

    /// Drops prepared executions that no longer live long enough and initiates the
    /// missing ones; while offline, one probe per recheck interval.
    /// - Returns: how many were prepared.
    @discardableResult
    public func refill() async -> Int {
        var prepared = 0
        for _ in 0..<admission.refillRequested(now: now()) {
            do {
                let response = try await backend.createAccount(template)
                admission.prepared(response, now: now())
                prepared += 1
            } catch {
                admission.prepareFailed(error, now: now())
                logger.info("could not prepare a workflow execution", metadata: ["code": "\(error.code)"])
                break
            }
        }
        return prepared
    }
}

/// Keeps a ``JourneyStarter``'s prepared executions topped up: a Service of the station.
public struct JourneyStarterRefill<C: Clock>: Service where C.Duration == Duration {
    let starter: JourneyStarter
    let interval: Duration
    let clock: C

    public init(starter: JourneyStarter, interval: Duration = .seconds(60), clock: C) {
        self.starter = starter
        self.interval = interval
        self.clock = clock
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await starter.refill()
                do { try await clock.sleep(for: interval) } catch { return }
            }
        }
    }
}
