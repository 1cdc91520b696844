import Capture
import Display
import ScanFlow

/// The station loop's display is the display server's hub: journey messages and station
/// screens go to every connected display; commands come back into the loop.
final class HubDisplay: StationDisplay, Sendable {
    let hub: DisplayHub

    init(hub: DisplayHub) { self.hub = hub }

    func show(_ message: DisplayMessage) async { await hub.publish(.flow(message)) }

    func show(_ screen: StationScreen) async { await hub.publish(.station(screen)) }

    func answer(_ message: DisplayMessage, to client: DisplayClientID) async { await hub.send(message, to: client) }

    /// Feeds what the displays send into the loop until the hub closes.
    func forward(to loop: StationLoop) async {
        for await (input, client) in hub.inputs { loop.submit(input, from: client) }
    }
}

/// The camera's preview feed as the display server's preview source.
struct PreviewFeedSource: PreviewSource {
    let feed: PreviewFeed

    func previewFrames() -> AsyncStream<[UInt8]> { feed.frames() }
}
