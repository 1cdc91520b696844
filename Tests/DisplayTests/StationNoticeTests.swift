@testable import Display
import Foundation
import KioskTestKit
import ScanFlow
import Testing

/// The chip read's notices and the decision: what a display that connects late sees.
@Suite struct StationNoticeTests {
    @Test func documentLiftedIsANoticeThatKeepsTheJourneysReplay() async throws {
        let hub = DisplayHub(logger: TestDisplayServer.logger)
        let initialized = DisplayMessage.initialized(credentials: [], consentItems: nil)
        for event: DisplayEvent in [
            .flow(initialized), .flow(.step(.scanView(.nfc, .nfc))), .station(.documentLifted), .flow(.update(.nfcExtractionProgress(40))),
            .station(.documentReturned),
        ] {
            await hub.publish(event)
        }
        let (_, stream) = await hub.connect()
        let replay = try await DisplayHubTests.drain(stream, count: 3)
        #expect(replay == [.event(.flow(initialized)), .event(.flow(.step(.scanView(.nfc, .nfc)))), .event(.flow(.update(.nfcExtractionProgress(40))))])
    }

    @Test func theDecisionIsTheScreenALateDisplayGets() async throws {
        let hub = DisplayHub(logger: TestDisplayServer.logger)
        await hub.publish(.flow(.initialized(credentials: [], consentItems: nil)))
        await hub.publish(.station(.decision(reference: "w-1", decision: nil)))
        await hub.publish(.station(.decision(reference: "w-1", decision: "PASSED")))
        let (_, stream) = await hub.connect()
        let replay = try await DisplayHubTests.drain(stream, count: 1)
        #expect(replay == [.event(.station(.decision(reference: "w-1", decision: "PASSED")))])
    }
}
