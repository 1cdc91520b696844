public import ScanFlow

/// What the station shows on every connected display.
///
/// A journey's screens come from `ScanFlow.Controller` (`flow`); the screens between
/// journeys belong to the station (`station`).
public enum DisplayEvent: Hashable, Sendable {
    /// A message of the running journey (the Custom UI contract, docs/events.md).
    case flow(DisplayMessage)
    /// A station-level screen that is not part of a journey.
    case station(StationScreen)
}

/// Station-level screens that are not part of a journey.
public enum StationScreen: Hashable, Sendable {
    /// Waiting for a person; a journey starts by the listed triggers.
    case idle(startBy: [StartTrigger])
    /// A device the station needs is missing; the list holds every device's state.
    case outOfService(devices: [DeviceStatus])
    /// A journey is being prepared (workflow initiation with the backend).
    case starting
    /// During the chip read the document left the reader: "put it back, keep it still"; the
    /// read resumes by itself. A notice within the journey: not replayed.
    case documentLifted
    /// The document is back on the reader and the read goes on. Not replayed.
    case documentReturned
    /// The journey that just ended, as the backend decided it: `reference` is the workflow
    /// execution id a member of staff can look up; `decision` (`PASSED`, `WARNING`,
    /// `REJECTED`, `NOT_EXECUTED`) is `nil` while the backend has not decided (the outbox
    /// delivers the journey later).
    case decision(reference: String, decision: String?)
}

/// How a journey can start at an idle station.
public enum StartTrigger: String, Hashable, Sendable, Codable, CaseIterable {
    /// A document placed on the reader.
    case card
    /// A touch on the display (`startJourney`).
    case touch
    /// A display sends `startJourney` with the reference of the person's enrollment (an
    /// Authentication station): typed, or scanned by a reader that types, on the idle screen.
    case reference
}

/// The state of one station device, as the out-of-service screen lists it.
public struct DeviceStatus: Hashable, Sendable, Codable {
    public enum Device: String, Hashable, Sendable, Codable, CaseIterable {
        case camera
        case reader
        case flash
        case backend
    }

    public var device: Device
    public var available: Bool
    /// What a technician needs to find the fault (e.g. "no reader matches 'ACS*'"); never personal data.
    public var detail: String?

    public init(_ device: Device, available: Bool, detail: String? = nil) {
        self.device = device
        self.available = available
        self.detail = detail
    }
}

/// A command from the display to the station itself, not to a journey.
public enum StationCommand: Hashable, Sendable {
    /// The person touched the idle screen to start; at an Authentication station the
    /// command names the earlier transaction the face is compared with. A display may name
    /// the journey's transaction identifiers too.
    case startJourney(AuthenticationReference? = nil, references: JourneyReferences? = nil)

    /// The command's `type` in the JSON form.
    public static let types: Set<String> = ["startJourney"]
}

/// What a display sent, decoded.
public enum DisplayInput: Hashable, Sendable {
    /// A command for the running journey's controller.
    case flow(DisplayCommand)
    /// A command for the station.
    case station(StationCommand)
}

/// One connected display, for the answer to a command it sent.
public struct DisplayClientID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "display-\(rawValue)" }
}
