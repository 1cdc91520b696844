import Foundation
public import Logging
public import ScanFlow

/// The meeting point of the station and its displays: what the station publishes reaches
/// every connected display, what a display sends reaches the station.
///
/// A display that connects later (a reload, a second screen) first receives a replay of the
/// current screen: the last `station` screen, or the running journey's messages since
/// `initialized`. Updates in the replay are compacted to the newest of each kind since the
/// last other message; `inactivityWarning` and `logicalError` are transient and never
/// replayed.
public actor DisplayHub {
    /// How many frames a display may lag behind before it is disconnected; it reconnects and
    /// gets the replay.
    public static let clientBacklog = 1024

    private struct Replayed {
        /// The update's name for `update` messages, compacted to the newest one.
        var update: String?
        var text: String
    }

    private let logger: Logger
    private let encoder: JSONEncoder
    private var clients: [DisplayClientID: AsyncStream<String>.Continuation] = [:]
    private var replay: [Replayed] = []
    /// The Digital Identity hand-off of the running journey, for `/handoff-qr.svg`; nil
    /// outside one (it holds a one-time token: gone with the journey).
    public private(set) var currentHandoff: DigitalHandoff?
    private var nextClient: UInt64 = 1
    private let inputContinuation: AsyncStream<(DisplayInput, DisplayClientID)>.Continuation

    /// What the displays sent, in order; the station consumes it (one consumer).
    public nonisolated let inputs: AsyncStream<(DisplayInput, DisplayClientID)>

    public init(logger: Logger) {
        self.logger = logger
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
        (inputs, inputContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Sends an event to every connected display and keeps it for displays that connect later.
    public func publish(_ event: DisplayEvent) {
        guard let text = encode(.event(event)) else { return }
        remember(event, text: text)
        for (id, continuation) in clients {
            deliver(text, to: id, continuation)
        }
    }

    /// Sends a message to one display only: the answer (a `LogicalError`) to a command that
    /// display sent from a stale screen. It is not replayed.
    public func send(_ message: DisplayMessage, to client: DisplayClientID) {
        guard let continuation = clients[client], let text = encode(.event(.flow(message))) else { return }
        deliver(text, to: client, continuation)
    }

    /// Shows a message of the controller: a `logicalError` that answers a command goes to the
    /// display that sent it, every other message to all displays (docs/events.md).
    ///
    /// - Parameter client: the display whose command the controller answered; nil for messages
    ///   caused by devices, the backend or timers.
    public func show(_ message: DisplayMessage, answering client: DisplayClientID?) {
        if case .logicalError = message, let client {
            send(message, to: client)
        } else {
            publish(.flow(message))
        }
    }

    /// How many displays are connected.
    public var connectedDisplays: Int { clients.count }

    /// Disconnects every display and ends `inputs`; for the end of the process.
    public func close() {
        for continuation in clients.values { continuation.finish() }
        clients = [:]
        inputContinuation.finish()
    }

    // MARK: The server's side

    /// A new display: its id and its frames, starting with the replay.
    func connect() -> (DisplayClientID, AsyncStream<String>) {
        let id = DisplayClientID(nextClient)
        nextClient += 1
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(Self.clientBacklog))
        for entry in replay {
            continuation.yield(entry.text)
        }
        clients[id] = continuation
        logger.debug("display connected", metadata: ["display": "\(id)", "displays": "\(clients.count)"])
        return (id, stream)
    }

    func disconnect(_ id: DisplayClientID) {
        guard let continuation = clients.removeValue(forKey: id) else { return }
        continuation.finish()
        logger.debug("display disconnected", metadata: ["display": "\(id)", "displays": "\(clients.count)"])
    }

    /// A text frame from a display: passed on to the station, or refused to that display alone.
    func receive(_ text: String, from id: DisplayClientID) {
        do throws(InputRefusal) {
            let input = try DisplayInput(json: Data(text.utf8))
            inputContinuation.yield((input, id))
        } catch {
            refuse(error, to: id)
        }
    }

    func refuse(_ refusal: InputRefusal, to id: DisplayClientID) {
        logger.debug("display frame refused", metadata: ["display": "\(id)", "reason": "\(refusal.reason.rawValue)"])
        guard let continuation = clients[id], let text = encode(.refused(refusal)) else { return }
        deliver(text, to: id, continuation)
    }

    // MARK: Internals

    private func deliver(_ text: String, to id: DisplayClientID, _ continuation: AsyncStream<String>.Continuation) {
        if case .dropped = continuation.yield(text) {
            logger.warning("display too slow, disconnected", metadata: ["display": "\(id)"])
            disconnect(id)
        }
    }

    private func encode(_ frame: DisplayFrame) -> String? {
        do {
            return String(decoding: try encoder.encode(frame), as: UTF8.self)
        } catch {
            logger.error("display frame not encodable", metadata: ["error": "\(type(of: error))"])
            return nil
        }
    }

    private func remember(_ event: DisplayEvent, text: String) {
        switch event {
        case .flow(.digitalHandoff(let handoff)): currentHandoff = handoff
        case .station, .flow(.initialized), .flow(.finished): currentHandoff = nil
        default: break
        }
        switch event {
        case .station(.documentLifted), .station(.documentReturned):
            break  // notices within the journey's chip read: transient
        case .station, .flow(.initialized):
            replay = [Replayed(update: nil, text: text)]
        case .flow(.inactivityWarning), .flow(.logicalError):
            break
        case .flow(.update(let update)):
            let name = update.name
            replay.removeAll { $0.update == name }
            replay.append(Replayed(update: name, text: text))
        case .flow:
            replay.removeAll { $0.update != nil }
            replay.append(Replayed(update: nil, text: text))
        }
    }
}

extension Scan.Update {
    /// The JSON `name` of the update, the key of replay compaction.
    var name: String {
        switch self {
        case .fallback: "fallback"
        case .nfcExtractionStarted: "nfcExtractionStarted"
        case .nfcExtractionProgress: "nfcExtractionProgress"
        case .nfcExtractionFinished: "nfcExtractionFinished"
        case .extractionState: "extractionState"
        case .flash: "flash"
        case .nextPosition: "nextPosition"
        case .cameraAvailable: "cameraAvailable"
        case .legalHint: "legalHint"
        }
    }
}
