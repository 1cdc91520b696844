public import APDU

/// What a virtual card runs: it answers command APDUs like a chip would.
///
/// Implementations keep their own state (selected file, session keys) and must be
/// safe to call from the card's I/O thread.
public protocol CardApplication: AnyObject, Sendable {
    /// The ATR the card presents.
    var atr: [UInt8] { get }
    /// Power-on or reset: the chip forgets its selection and any session.
    func reset()
    /// Answers one command.
    func process(_ command: CommandAPDU) -> ResponseAPDU
}
