import APDU

/// An in-memory card that answers from a script and records the exact bytes it was sent.
actor ScriptedTransport: APDUTransport {
    struct OutOfScript: Error {}

    private var replies: [[UInt8]]
    private(set) var sent: [[UInt8]] = []

    init(replies: [[UInt8]]) {
        self.replies = replies
    }

    func transmit(_ command: CommandAPDU) async throws -> ResponseAPDU {
        sent.append(try command.encoded())
        guard !replies.isEmpty else { throw OutOfScript() }
        return try ResponseAPDU(bytes: replies.removeFirst())
    }
}
