public import APDU
import Synchronization
public import VirtualCard

/// An `APDUTransport` that hands commands straight to a card application, with no
/// reader in between: fast, and with faults a real reader cannot produce on demand.
public final class InMemoryTransport: APDUTransport {
    public struct Fault: Error, Hashable, Sendable {
        public var reason: String
    }

    private let application: any CardApplication
    private let state = Mutex<(log: [CommandAPDU], failAfter: Int?)>(([], nil))

    public init(_ application: any CardApplication) {
        self.application = application
    }

    /// Every command sent so far.
    public var commands: [CommandAPDU] { state.withLock { $0.log } }

    /// Make the transport throw `Fault` once `count` more commands have been answered.
    public func failAfter(_ count: Int) { state.withLock { $0.failAfter = $0.log.count + count } }

    public func transmit(_ command: CommandAPDU) async throws -> ResponseAPDU {
        let shouldFail = state.withLock { s -> Bool in
            if let limit = s.failAfter, s.log.count >= limit { return true }
            s.log.append(command)
            return false
        }
        if shouldFail { throw Fault(reason: "card removed (injected)") }
        return application.process(command)
    }
}
