public import Display
public import ScanFlow

/// Where the station loop shows things: the display server's hub, the autopilot wrapping it,
/// or a test's recorder. The types are the display contract's own (`Display`), so nothing is
/// translated on the way.
public protocol StationDisplay: Sendable {
    /// A message of the journey, to every display (and replayed to displays that connect later).
    func show(_ message: DisplayMessage) async
    /// A station screen outside the journey's contract (idle, out of service, the decision).
    func show(_ screen: StationScreen) async
    /// The answer to one display's command that did not fit the state (a stale screen).
    func answer(_ message: DisplayMessage, to client: DisplayClientID) async
}
