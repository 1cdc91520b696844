import APDU

/// A card that holds its answer until the test releases it, to observe a command in flight.
actor GatedTransport: APDUTransport {
    private var waiting: CheckedContinuation<ResponseAPDU, Never>?
    private(set) var received = 0

    func transmit(_ command: CommandAPDU) async throws -> ResponseAPDU {
        received += 1
        return await withCheckedContinuation { waiting = $0 }
    }

    /// Answers the command in flight; `false` when none is waiting yet.
    func release(with response: ResponseAPDU) -> Bool {
        guard let waiting else { return false }
        self.waiting = nil
        waiting.resume(returning: response)
        return true
    }
}
