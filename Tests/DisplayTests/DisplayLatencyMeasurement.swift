import Display
import Foundation
import ScanFlow
import Testing

/// Prints how long an event takes from `DisplayHub.publish` to a WebSocket display on
/// loopback, and a command from the display to `hub.inputs`. Figures only: it asserts that
/// every frame arrived, in order, never a time.
@Suite struct DisplayLatencyMeasurement {
    @Test func publishToDisplayAndBack() async throws {
        try await TestDisplayServer.with { server in
            var commands = server.hub.inputs.makeAsyncIterator()
            let socket = TestDisplaySocket(url: server.events)
            await server.hub.publish(.station(.starting))
            try await socket.expectNext(.event(.station(.starting)))
            let rounds = 500
            var outbound: [Duration] = []
            var inbound: [Duration] = []
            let clock = ContinuousClock()
            for index in 0..<rounds {
                let percent = index % 101
                let sent = clock.now
                await server.hub.publish(.flow(.update(.nfcExtractionProgress(percent))))
                try await socket.expectNext(.event(.flow(.update(.nfcExtractionProgress(percent)))))
                outbound.append(clock.now - sent)
                let asked = clock.now
                socket.send(#"{"version": 3, "type": "userIsPresent"}"#)
                let command = await commands.next()
                #expect(command?.0 == .flow(.userIsPresent))
                inbound.append(clock.now - asked)
            }
            func summary(_ values: [Duration]) -> String {
                let sorted = values.sorted()
                let micro = { (d: Duration) in Int(d / .microseconds(1)) }
                return "p50 \(micro(sorted[sorted.count / 2])) µs, p99 \(micro(sorted[sorted.count * 99 / 100])) µs, max \(micro(sorted.last!)) µs"
            }
            print("display latency over \(rounds) rounds: publish → WebSocket client: \(summary(outbound)); client command → hub.inputs: \(summary(inbound))")
            await socket.close()
        }
    }
}
