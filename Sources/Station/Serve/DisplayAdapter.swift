import Capture
import Display
import Logging
import ScanFlow
import Synchronization

/// The station loop's display is the display server's hub: journey messages and station
/// screens go to every connected display; commands come back into the loop.
final class HubDisplay: StationDisplay, Sendable {
    let hub: DisplayHub
    private let clients = Mutex<(byID: [DisplayClientID: Int], byNumber: [Int: DisplayClientID], next: Int)>(([:], [:], 0))

    init(hub: DisplayHub) { self.hub = hub }

    func show(_ message: DisplayMessage) async { await hub.publish(.flow(message)) }

    func show(_ screen: StationScreen) async { await hub.publish(.station(Self.screen(screen))) }

    func answer(_ message: DisplayMessage, to client: DisplayClient) async {
        guard let id = clients.withLock({ $0.byNumber[client.id] }) else { return }
        await hub.send(message, to: id)
    }

    /// Feeds what the displays send into the loop until the hub closes.
    func forward(to loop: StationLoop) async {
        for await (input, id) in hub.inputs {
            let client = DisplayClient(number(for: id))
            switch input {
            case .flow(let command): loop.submit(.command(command), from: client)
            case .station(.startJourney): loop.submit(.startJourney, from: client)
            }
        }
    }

    private func number(for id: DisplayClientID) -> Int {
        clients.withLock { state in
            if let known = state.byID[id] { return known }
            state.next += 1
            state.byID[id] = state.next
            state.byNumber[state.next] = id
            return state.next
        }
    }

    static func screen(_ screen: StationScreen) -> Display.StationScreen {
        switch screen {
        case .idle(let start): .idle(startBy: start.map { $0 == .card ? .card : .touch })
        case .starting: .starting
        case .outOfService(let devices):
            .outOfService(devices: devices.map { DeviceStatus(DeviceStatus.Device(rawValue: $0.name) ?? .camera, available: $0.ready, detail: $0.detail.isEmpty ? nil : $0.detail) })
        case .documentLifted: .documentLifted
        case .documentReturned: .documentReturned
        case .decision(let reference, let decision): .decision(reference: reference, decision: decision)
        }
    }
}

/// The camera's preview feed as the display server's preview source.
struct PreviewFeedSource: PreviewSource {
    let feed: PreviewFeed

    func previewFrames() -> AsyncStream<[UInt8]> { feed.frames() }
}
