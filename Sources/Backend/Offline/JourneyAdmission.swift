public import Foundation
import KioskTime

/// Decides how each new journey gets its workflow execution under an ``OfflinePolicy``:
/// created online, taken from the executions prepared in advance, or refused.
///
/// A state machine without I/O: ``JourneyStarter`` feeds it events and performs the
/// actions it returns. Time is the caller's wall clock, because session tokens expire
/// on the backend's wall clock.
public struct JourneyAdmission: Sendable {
    /// What to do next for a journey.
    public enum Action: Sendable, Equatable {
        /// Call `POST /api/v1/accounts` and report the outcome.
        case createOnline
        /// Start the journey with this execution prepared in advance; its parts go to the outbox.
        case usePrepared(AccountResponse)
        /// Refuse the journey with this error (the journey shows its code).
        case refuse(BackendError)
    }

    /// An execution initiated in advance and when its session token expires.
    public struct Prepared: Sendable, Equatable {
        public var response: AccountResponse
        public var expiresAt: Date
    }

    private enum Connectivity: Sendable {
        /// The last call reached the backend (or none was made yet).
        case reachable
        /// The last call failed to reach it; online attempts wait until `recheckAt`.
        case unreachable(error: BackendError, recheckAt: Date)
    }

    public let policy: OfflinePolicy
    private var connectivity: Connectivity = .reachable
    private var pool: [Prepared] = []

    public init(policy: OfflinePolicy) {
        self.policy = policy
    }

    /// How many prepared executions are usable at `now`.
    public func usablePrepared(at now: Date) -> Int {
        pool.filter { isUsable($0, at: now) }.count
    }

    /// Whether the last call reached the backend.
    public var isReachable: Bool {
        if case .reachable = connectivity { return true }
        return false
    }

    // MARK: Events

    /// A visitor starts a journey.
    public mutating func journeyRequested(now: Date) -> Action {
        switch connectivity {
        case .reachable:
            return .createOnline
        case .unreachable(let error, let recheckAt):
            return now >= recheckAt ? .createOnline : offline(error, now: now)
        }
    }

    /// `POST /api/v1/accounts` answered.
    public mutating func createSucceeded() {
        connectivity = .reachable
    }

    /// `POST /api/v1/accounts` failed; a connectivity failure falls back to the policy.
    public mutating func createFailed(_ error: BackendError, now: Date) -> Action {
        guard error.meansOffline else { return .refuse(error) }
        connectivity = .unreachable(error: error, recheckAt: now.addingTimeInterval(policy.recheckInterval.inSeconds))
        return offline(error, now: now)
    }

    /// The refill is due: drops prepared executions that no longer live long enough and
    /// returns how many to initiate now (0 while offline until the recheck time, then one probe).
    public mutating func refillRequested(now: Date) -> Int {
        dropShortLived(at: now)
        let missing = max(0, policy.preparedExecutions - pool.count)
        guard missing > 0 else { return 0 }
        switch connectivity {
        case .reachable: return missing
        case .unreachable(_, let recheckAt): return now >= recheckAt ? 1 : 0
        }
    }

    /// An execution was initiated in advance at `now`.
    public mutating func prepared(_ response: AccountResponse, now: Date) {
        connectivity = .reachable
        pool.append(Prepared(response: response, expiresAt: now.addingTimeInterval(Double(policy.tokenLifetime))))
    }

    /// Whether the backend should be asked again whether it answers: it did not at the last
    /// call, and the recheck interval has passed.
    public func isProbeDue(at now: Date) -> Bool {
        if case .unreachable(_, let recheckAt) = connectivity { return now >= recheckAt }
        return false
    }

    /// The backend answered a probe.
    public mutating func probeSucceeded() {
        connectivity = .reachable
    }

    /// Initiating in advance (or a probe) failed.
    public mutating func prepareFailed(_ error: BackendError, now: Date) {
        guard error.meansOffline else { return }
        connectivity = .unreachable(error: error, recheckAt: now.addingTimeInterval(policy.recheckInterval.inSeconds))
    }

    // MARK: Internals

    private mutating func offline(_ error: BackendError, now: Date) -> Action {
        guard policy.mode == .queue else { return .refuse(error) }
        dropShortLived(at: now)
        // Oldest first: it expires first.
        guard !pool.isEmpty else { return .refuse(error) }
        return .usePrepared(pool.removeFirst().response)
    }

    private mutating func dropShortLived(at now: Date) {
        let minimum = policy.minimumRemainingLifetime.inSeconds
        pool.removeAll { $0.expiresAt.timeIntervalSince(now) < minimum }
    }

    private func isUsable(_ prepared: Prepared, at now: Date) -> Bool {
        prepared.expiresAt.timeIntervalSince(now) >= policy.minimumRemainingLifetime.inSeconds
    }
}
