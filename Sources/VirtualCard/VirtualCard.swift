import APDU
import Dispatch
import Foundation
import KioskTime
public import Logging
import Synchronization

/// A card that sits on vsmartcard's virtual reader (`vpcd`): it connects to the
/// reader's TCP port and answers what pcscd sends, through a `CardApplication`.
///
/// Connected means "on the reader"; `remove()` takes it off. The wire format is
/// vpcd's: every message has a 2-byte big-endian length; one-byte messages are
/// control (power off, power on, reset, get ATR), longer ones are command APDUs
/// that get a response APDU back.
public final class VirtualCard: Sendable {
    /// vpcd's TCP port for reader "Virtual PCD 00 00"; slot n listens on 35963 + n.
    public static let defaultPort: UInt16 = 35963

    public let application: any CardApplication
    public let host: String
    public let port: UInt16
    /// Acknowledge vpcd's TCP segments at once. vpcd writes its 2-byte length and the
    /// message in separate sends with Nagle's algorithm on, so a delayed ACK from us
    /// holds every message back by the kernel's delayed-ACK time (40 ms measured here).
    /// Off only to measure that difference.
    public let quickAcknowledgements: Bool
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var faults = CardFaults()
        var socketFD: Int32?
        var finished: DispatchSemaphore?
        var answered = 0
    }

    public init(
        application: any CardApplication, host: String = "127.0.0.1", port: UInt16 = VirtualCard.defaultPort,
        quickAcknowledgements: Bool = true, logger: Logger
    ) {
        self.application = application
        self.host = host
        self.port = port
        self.quickAcknowledgements = quickAcknowledgements
        self.logger = logger
    }

    deinit { remove() }

    /// The faults the card shows from its next command on.
    public var faults: CardFaults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    /// Whether the card is on the reader.
    public var isInserted: Bool { state.withLock { $0.socketFD != nil } }

    /// How many commands the card has answered since it was created.
    public var commandsAnswered: Int { state.withLock { $0.answered } }

    /// Puts the card on the reader.
    /// - Throws: `VirtualCardError.readerNotListening` when pcscd with vpcd is not running.
    public func insert() throws(VirtualCardError) {
        guard !isInserted else { return }
        let socket: Socket
        switch Socket.connect(host: host, port: port) {
        case .success(let s): socket = s
        case .failure(let error) where error.errno == ECONNREFUSED:
            throw .readerNotListening(host: host, port: port, error)
        case .failure(let error):
            throw .connectionFailed(error)
        }
        let finished = DispatchSemaphore(value: 0)
        state.withLock {
            $0.socketFD = socket.fd
            $0.finished = finished
        }
        application.reset()
        let thread = Thread { [self] in
            serve(socket)
            // Gone from the reader now (a vanished card too), not when the socket is freed.
            Socket.shutdown(socket.fd)
            state.withLock { $0.socketFD = nil }
            finished.signal()
        }
        thread.name = "idkiosk.virtual-card.\(port)"
        thread.start()
        logger.debug("virtual card inserted", metadata: ["port": "\(port)"])
    }

    /// Takes the card off the reader and waits until its connection is closed.
    public func remove() {
        let (fd, finished) = state.withLock { ($0.socketFD, $0.finished) }
        guard let fd, let finished else { return }
        Socket.shutdown(fd)
        finished.wait()
        state.withLock { $0.finished = nil }
        logger.debug("virtual card removed", metadata: ["port": "\(port)"])
    }

    private func serve(_ socket: Socket) {
        while true {
            guard case .success(let header?) = socket.readExactly(2, quickAck: quickAcknowledgements) else { return }
            let length = Int(header[0]) << 8 | Int(header[1])
            guard case .success(let message?) = socket.readExactly(length, quickAck: quickAcknowledgements) else { return }
            if length == 1 {
                guard let reply = control(message[0]) else { continue }
                guard case .success = socket.writeAll(framed(reply)) else { return }
                continue
            }
            let faults = state.withLock { s -> CardFaults in
                let f = s.faults
                s.faults.vanishOnNextCommand = false
                s.faults.emptyAnswerOnNextCommand = false
                return f
            }
            if faults.vanishOnNextCommand || faults.vanishAfterCommands.map({ commandsAnswered >= $0 }) == true {
                logger.debug("virtual card vanishes mid-command", metadata: ["port": "\(port)"])
                return
            }
            if faults.answerDelay > .zero { Thread.sleep(forTimeInterval: faults.answerDelay.inSeconds) }
            let bytes = faults.emptyAnswerOnNextCommand ? [] : answer(message, faults: faults).bytes
            guard case .success = socket.writeAll(framed(bytes)) else { return }
            state.withLock { $0.answered += 1 }
        }
    }

    /// vpcd's control messages; only "get ATR" has a reply.
    private func control(_ code: UInt8) -> [UInt8]? {
        switch code {
        case VPCDControl.powerOff, VPCDControl.powerOn, VPCDControl.reset:
            application.reset()
            return nil
        case VPCDControl.getATR:
            return application.atr
        default:
            logger.notice("unknown vpcd control message", metadata: ["code": "\(code)"])
            return nil
        }
    }

    private func answer(_ bytes: [UInt8], faults: CardFaults) -> ResponseAPDU {
        if let forced = faults.forcedStatus { return ResponseAPDU(status: forced) }
        guard let command = try? CommandAPDU(bytes: bytes) else { return ResponseAPDU(status: .wrongLength) }
        var response = application.process(command)
        if let cap = faults.maxResponseLength, response.data.count > cap {
            if let status = faults.overLengthStatus { return ResponseAPDU(status: status) }
            response.data = Array(response.data.prefix(cap))
        }
        return response
    }

    private func framed(_ payload: [UInt8]) -> [UInt8] {
        [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    }
}

/// vpcd's one-byte control messages (vpcd.h: VPCD_CTRL_*).
enum VPCDControl {
    static let powerOff: UInt8 = 0
    static let powerOn: UInt8 = 1
    static let reset: UInt8 = 2
    static let getATR: UInt8 = 4
}
