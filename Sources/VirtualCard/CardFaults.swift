public import APDU

/// Misbehaviour a virtual card can be told to show, for tests and demos.
public struct CardFaults: Hashable, Sendable {
    /// Close the connection when the next command arrives, without answering:
    /// the card "leaves the field" mid-command.
    public var vanishOnNextCommand = false
    /// Vanish when a command arrives after this many commands were answered.
    public var vanishAfterCommands: Int?
    /// Answer the next command with a message of no bytes at all (no status word), as
    /// a reader does when the card left the field during the command.
    public var emptyAnswerOnNextCommand = false
    /// Wait this long before every answer.
    public var answerDelay: Duration = .zero
    /// Answer every command with this status word and no data.
    public var forcedStatus: StatusWord?
    /// Never send more than this many data bytes in one response.
    public var maxResponseLength: Int?
    /// What to answer when a command asks for more than `maxResponseLength`:
    /// `nil` truncates the data silently (as a reader with a small buffer does);
    /// otherwise this status word (e.g. `6700`) with no data.
    public var overLengthStatus: StatusWord?

    public init() {}
}
