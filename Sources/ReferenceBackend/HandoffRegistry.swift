import Backend
import Foundation

/// The open Digital Identity hand-offs: the one-time addresses a person's phone opens, and
/// where each stands (docs/backend-api.yaml, `DigitalIdentityStatus`).
///
/// Hand-offs live in memory: they last minutes (``lifetime``), so a backend restart voids
/// the open ones (the station sees 404 and ends the part with an error it may retry). The
/// outcome a finalisation needs is read from here at finalize and stored with the result.
/// Tokens are kept as their SHA-256 only.
actor HandoffRegistry {
    struct Entry {
        var executionId: String
        var credentialId: String
        /// The providers offered: the person chooses one on the phone.
        var providers: [DigitalIdentityProvider]
        var chosen: String?
        var state: DigitalIdentityStatus.State = .PENDING
        var attempt = 1
        var reason: String?
        var expiresAt: Date

        var status: DigitalIdentityStatus {
            DigitalIdentityStatus(provider: chosen, status: state, attempt: attempt, reason: reason)
        }
    }

    /// What the phone's page does.
    enum Outcome: String {
        case verify, fail, cancel
    }

    /// How long a hand-off may be used.
    let lifetime: TimeInterval
    private var entries: [[UInt8]: Entry] = [:]

    init(lifetime: TimeInterval = 600) {
        self.lifetime = lifetime
    }

    /// A new hand-off for a credential; the token goes into its address, only its hash is kept.
    func open(executionId: String, credentialId: String, providers: [DigitalIdentityProvider], now: Date) -> String {
        entries = entries.filter { $0.value.expiresAt > now.addingTimeInterval(-lifetime) }
        let token = StoreSecrets.randomToken()
        entries[StoreSecrets.hash(Array(token.utf8))] = Entry(
            executionId: executionId, credentialId: credentialId, providers: providers, expiresAt: now.addingTimeInterval(lifetime))
        return token
    }

    /// The hand-off of a credential, expired when its time is up.
    func status(executionId: String, credentialId: String, now: Date) -> DigitalIdentityStatus? {
        guard let key = entries.first(where: { $0.value.executionId == executionId && $0.value.credentialId == credentialId })?.key else { return nil }
        expireIfDue(key, now: now)
        return entries[key]?.status
    }

    /// The phone opened the address: the provider's session runs (again, after a failed attempt).
    /// - Returns: the entry as it is now; nil for an unknown token.
    func opened(token: String, now: Date) -> Entry? {
        let key = StoreSecrets.hash(Array(token.utf8))
        guard entries[key] != nil else { return nil }
        expireIfDue(key, now: now)
        switch entries[key]!.state {
        case .PENDING:
            entries[key]!.state = .OPENED
        case .FAILED:
            entries[key]!.state = .OPENED
            entries[key]!.attempt += 1
            entries[key]!.reason = nil
        case .OPENED, .VERIFIED, .CANCELLED, .EXPIRED:
            break
        }
        return entries[key]
    }

    /// What the person did at the provider; only an open session takes it.
    /// - Returns: the entry as it is now; nil for an unknown token.
    func finish(token: String, provider: String?, outcome: Outcome, now: Date) -> Entry? {
        let key = StoreSecrets.hash(Array(token.utf8))
        guard entries[key] != nil else { return nil }
        expireIfDue(key, now: now)
        guard entries[key]!.state == .OPENED else { return entries[key] }
        let offered = entries[key]!.providers
        entries[key]!.chosen = offered.first { $0.id == provider }?.id ?? offered.first?.id
        switch outcome {
        case .verify: entries[key]!.state = .VERIFIED
        case .fail:
            entries[key]!.state = .FAILED
            entries[key]!.reason = "NOT_VERIFIED"
        case .cancel: entries[key]!.state = .CANCELLED
        }
        return entries[key]
    }

    /// The outcome of each credential's hand-off in an execution, for its finalisation.
    func outcomes(executionId: String, now: Date) -> [(credentialId: String, status: DigitalIdentityStatus)] {
        let keys = entries.filter { $0.value.executionId == executionId }.map(\.key)
        for key in keys { expireIfDue(key, now: now) }
        return keys.compactMap { entries[$0] }.map { ($0.credentialId, $0.status) }.sorted { $0.credentialId < $1.credentialId }
    }

    private func expireIfDue(_ key: [UInt8], now: Date) {
        guard let entry = entries[key], now >= entry.expiresAt, !entry.state.isFinal || entry.state == .FAILED else { return }
        entries[key]!.state = .EXPIRED
    }
}
