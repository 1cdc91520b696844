@testable import Display
import Foundation
import KioskTestKit
import ScanFlow
import Testing

/// The hub without a network: replay, fan-out and slow displays.
@Suite struct DisplayHubTests {
    static func decode(_ text: String?) throws -> DisplayFrame {
        try JSONDecoder().decode(DisplayFrame.self, from: Data(try #require(text).utf8))
    }

    /// Everything the stream has buffered now (the replay is yielded synchronously on connect).
    static func drain(_ stream: AsyncStream<String>, count: Int) async throws -> [DisplayFrame] {
        var iterator = stream.makeAsyncIterator()
        var frames: [DisplayFrame] = []
        for _ in 0..<count { frames.append(try decode(await iterator.next())) }
        return frames
    }

    @Test func theReplayStartsAtTheLastScreenAndKeepsTheNewestUpdates() async throws {
        let hub = DisplayHub(logger: TestDisplayServer.logger)
        let initialized = DisplayMessage.initialized(credentials: [], consentItems: nil)
        let events: [DisplayEvent] = [
            .station(.idle(startBy: [.card])), .station(.starting), .flow(initialized),
            .flow(.step(.prepare(.front))), .flow(.update(.flash(.on))), .flow(.step(.scanView(.front, .docFinder))),
            .flow(.update(.extractionState(.centerId))), .flow(.update(.nfcExtractionProgress(10))),
            .flow(.update(.extractionState(.tilt(current: 8, target: 0)))), .flow(.logicalError(.deadScanPart)),
            .flow(.inactivityWarning(remaining: .seconds(5))),
        ]
        for event in events { await hub.publish(event) }
        let (_, stream) = await hub.connect()
        let replay = try await Self.drain(stream, count: 5)
        #expect(
            replay == [
                .event(.flow(initialized)), .event(.flow(.step(.prepare(.front)))), .event(.flow(.step(.scanView(.front, .docFinder)))),
                .event(.flow(.update(.nfcExtractionProgress(10)))), .event(.flow(.update(.extractionState(.tilt(current: 8, target: 0))))),
            ]
        )
        await hub.publish(.station(.idle(startBy: [.card, .touch])))
        let (_, later) = await hub.connect()
        #expect(try await Self.drain(later, count: 1) == [.event(.station(.idle(startBy: [.card, .touch])))])
    }

    @Test func aDisplayThatDoesNotReadIsDisconnectedNotWaitedFor() async throws {
        let hub = DisplayHub(logger: TestDisplayServer.logger)
        let (_, slow) = await hub.connect()
        let (_, fast) = await hub.connect()
        let reader = EventProbe(fast)
        for index in 0..<DisplayHub.clientBacklog {
            await hub.publish(.flow(.update(.nfcExtractionProgress(index % 101))))
        }
        for _ in 0..<DisplayHub.clientBacklog {
            #expect(await reader.next() != nil)
        }
        #expect(await hub.connectedDisplays == 2)
        // One more than the slow display's backlog: it is dropped, the reading one is not.
        for _ in 0..<10 { await hub.publish(.flow(.update(.flash(.on)))) }
        #expect(await hub.connectedDisplays == 1)
        for _ in 0..<10 {
            #expect(await reader.next() != nil)
        }
        var count = 0
        for await _ in slow { count += 1 }
        #expect(count == DisplayHub.clientBacklog)
    }

    @Test func closeEndsEveryDisplayAndTheInputs() async throws {
        let hub = DisplayHub(logger: TestDisplayServer.logger)
        let (id, stream) = await hub.connect()
        await hub.receive(#"{"version": 3, "type": "cancel"}"#, from: id)
        await hub.close()
        var inputs: [DisplayInput] = []
        for await (input, _) in hub.inputs { inputs.append(input) }
        #expect(inputs == [.flow(.cancel)])
        var frames = 0
        for await _ in stream { frames += 1 }
        #expect(frames == 0)
    }
}
