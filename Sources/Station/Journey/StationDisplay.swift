public import Capture
public import ScanFlow

/// Where the station loop shows things: the display server, or a test's recorder.
public protocol StationDisplay: Sendable {
    /// A message of the journey, to every display (and replayed to displays that connect later).
    func show(_ message: DisplayMessage) async
    /// A station screen outside the journey's contract (idle, out of service, the decision).
    func show(_ screen: StationScreen) async
    /// The answer to one display's command that did not fit the state (a stale screen).
    func answer(_ message: DisplayMessage, to client: DisplayClient) async
}

/// Which display sent a command.
public struct DisplayClient: Hashable, Sendable {
    public var id: Int
    public init(_ id: Int) { self.id = id }
}

/// What the display shows outside a journey, and the station's notices inside one.
public enum StationScreen: Hashable, Sendable {
    /// Waiting for a person: the display says how to start.
    case idle(start: [Configuration.StartTrigger])
    /// A journey is being set up with the backend.
    case starting
    /// A device is missing or the backend refuses journeys; the station comes back by itself.
    case outOfService([DeviceHealth])
    /// The document left the reader during the chip read: "put it back" (the read resumes).
    case documentLifted
    /// The document is back and the read goes on.
    case documentReturned
    /// The backend's decision for the journey that just ended, or `nil` when it is not known
    /// yet (the outbox delivers later); `reference` is the workflow execution id.
    case decision(reference: String, decision: String?)
}

/// What the person did on the display: a journey command or a station command.
public enum StationInput: Hashable, Sendable {
    case command(DisplayCommand)
    /// A touch on the idle screen.
    case startJourney
}
