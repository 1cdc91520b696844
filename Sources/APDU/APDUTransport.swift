/// Something that carries command APDUs to a card and brings back its responses.
///
/// `SmartCard.CardConnection` implements it over PC/SC; tests use in-memory cards.
/// Protocol code (MRTD) depends on this and nothing else.
public protocol APDUTransport: Sendable {
    /// Sends one command and returns the card's response.
    /// - Throws: the transport's typed error when the card cannot be reached; a status
    ///   word other than 9000 is not an error here, it is part of the response.
    func transmit(_ command: CommandAPDU) async throws -> ResponseAPDU

    /// Whether the reader and card accept extended length APDUs, as far as the
    /// transport knows (from the ATR or reader features); `nil` when unknown.
    var supportsExtendedLength: Bool? { get }
}

extension APDUTransport {
    public var supportsExtendedLength: Bool? { nil }
}
