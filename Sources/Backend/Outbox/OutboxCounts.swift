/// How many records the outbox holds and in which state: what support needs to see whether
/// deliveries flow, without a record's contents (counts and ages only, never an identifier).
public struct OutboxCounts: Codable, Hashable, Sendable {
    /// Every record, of any kind and state.
    public var records: Int
    /// Their plaintext sizes, summed.
    public var bytes: Int
    /// How long the oldest record has waited, in whole seconds; nil when the outbox is empty.
    public var oldestAgeSeconds: Int?
    /// Records by kind: `part` (an upload), `finalize` (the end of a journey), `quarantined`
    /// (could not be decrypted: set apart until the age limit wipes it).
    public var byKind: [String: Int]
    /// Records by delivery state: `new` (never tried), `retrying` (tried, waiting for the
    /// next attempt), `due` (its time has come, tried or not; a finalize still waits for
    /// the earlier records of its journey).
    public var byState: [String: Int]
    /// How many workflow executions (journeys) the records belong to.
    public var journeys: Int

    public init(records: Int, bytes: Int, oldestAgeSeconds: Int?, byKind: [String: Int], byState: [String: Int], journeys: Int) {
        self.records = records
        self.bytes = bytes
        self.oldestAgeSeconds = oldestAgeSeconds
        self.byKind = byKind
        self.byState = byState
        self.journeys = journeys
    }
}
