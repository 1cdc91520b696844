/// A timer the controller asked its owner to run.
///
/// The owner keeps at most one timer per `Kind`: scheduling a kind replaces the earlier
/// timer of that kind. When it fires the owner calls `timeoutFired(_:)` with this value;
/// the generation lets the controller ignore a firing that lost a race with a newer schedule.
public struct Timeout: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The session lifetime (the token's lifetime): its end is the J error.
        case session
        /// Nobody answered the step on screen: first a warning, then the end of the journey.
        case inactivity
        /// A device (camera) did not start in time.
        case device
    }

    public let kind: Kind
    public let generation: Int

    public init(_ kind: Kind, generation: Int) {
        self.kind = kind
        self.generation = generation
    }

    public var description: String { "\(kind.rawValue)#\(generation)" }
}
