// The station's figures (`make bench`): daemon start to READY=1, resident memory idle and
// during a journey, and the time from a ScanFlow action to the event on a display's
// WebSocket. Each is printed beside a baseline measured in the same run; nothing here passes
// or fails on speed.
import Display
import Foundation
import Hummingbird
import HummingbirdWebSocket
import HummingbirdWSClient
import KioskTestKit
import KioskTime
import Logging
import NIOCore
import ScanFlow
import Station
import VirtualPassport
import Synchronization

let logger: Logger = {
    var logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
    logger.logLevel = .critical
    return logger
}()
let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path

/// Arrival times shared between the receiving task and the measuring loop.
final class Arrivals<Key: Hashable & Sendable>: Sendable {
    private let times = Mutex<[Key: ContinuousClock.Instant]>([:])
    func record(_ key: Key, at instant: ContinuousClock.Instant) { times.withLock { $0[key] = instant } }
    func take(_ key: Key) -> ContinuousClock.Instant? { times.withLock { $0.removeValue(forKey: key) } }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}
func format(_ v: Double) -> String { String(format: "%.3f", v) }

// MARK: 1. Start to READY, resident memory

func startAndMemory() async throws {
    let clock = ContinuousClock()
    // Baseline: the same binary starting and exiting (`idkiosk version`): loading, not the station.
    var baselines: [Double] = []
    for _ in 0..<5 {
        let start = clock.now
        _ = runToCompletion(bin + "/idkiosk", ["version"])
        baselines.append((clock.now - start).inMilliseconds)
    }
    var readies: [Double] = []
    var idle: [Int] = []
    for _ in 0..<3 {
        let notify = try NotifySocket()
        var options = DemoStack.Options()
        options.binDirectory = bin
        options.environment = ["NOTIFY_SOCKET": notify.path]
        let stack = try await DemoStack(options)
        let seen = await notify.receive(until: "READY=1", limit: .seconds(60))
        let readyAt = clock.now
        guard seen.last?.contains("READY=1") == true else {
            print("  READY=1 never came: \(stack.serve.output.suffix(500))")
            await stack.stop()
            return
        }
        readies.append((readyAt - stack.serveStartedAt).inMilliseconds)
        try await Task.sleep(for: .seconds(1))
        idle.append(stack.serve.residentKilobytes ?? 0)
        await stack.stop()
    }
    print("daemon start to READY=1 (pcscd, backend and passport already up): median \(format(percentile(readies, 0.5))) ms over \(readies.count) starts")
    print("  baseline, the same binary starting and exiting (idkiosk version): median \(format(percentile(baselines, 0.5))) ms")

    // A journey run by the autopilot: the highest resident memory while it runs.
    var options = DemoStack.Options()
    options.binDirectory = bin
    options.autopilot = 1
    options.autopilotPauseMs = 100
    let stack = try await DemoStack(options)
    var peak = 0
    let journeyStart = clock.now
    while !stack.serve.output.contains("backend decision for"), clock.now - journeyStart < .seconds(120), stack.serve.isRunning {
        peak = max(peak, stack.serve.residentKilobytes ?? 0)
        try await Task.sleep(for: .milliseconds(50))
    }
    let journey = (clock.now - journeyStart).inMilliseconds
    await stack.stop()
    print("resident memory: idle \(percentile(idle.map(Double.init), 0.5) / 1024) MiB, peak during a journey \(Double(peak) / 1024) MiB")
    print("  (the journey, with the autopilot's 100 ms per screen, took \(format(journey / 1000)) s to the backend's decision)")
}

// MARK: 2. Action to WebSocket event

/// Receives text frames from a WebSocket URL; `onText` is called for each.
func connect(_ url: String, onText: @escaping @Sendable (String, WebSocketOutboundWriter) async throws -> Void) -> Task<Void, any Error> {
    Task {
        try await WebSocketClient.connect(url: url, logger: logger) { inbound, writer, _ in
            for try await message in inbound.messages(maxSize: 1 << 20) {
                if case .text(let text) = message { try await onText(text, writer) }
            }
        }
    }
}

func webSocketLatency() async throws {
    let samples = 500
    let hub = DisplayHub(logger: logger)
    let displayPort = freeTCPPort()
    let server = DisplayServer(configuration: .init(port: displayPort), hub: hub, preview: nil, logger: logger)
    // Baseline: the same WebSocket stack echoing a frame (one round trip, halved).
    let echoPort = freeTCPPort()
    let echoRouter = Router(context: BasicWebSocketRequestContext.self)
    echoRouter.ws("/echo") { inbound, outbound, _ in
        for try await message in inbound.messages(maxSize: 1 << 20) {
            if case .text(let text) = message { try await outbound.write(.text(text)) }
        }
    }
    let echo = Application(
        router: Router(), server: .http1WebSocketUpgrade(webSocketRouter: echoRouter),
        configuration: .init(address: .hostname("127.0.0.1", port: echoPort)), logger: logger)
    let servers = Task {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            group.addTask { try await echo.runService() }
            try await group.waitForAll()
        }
    }
    defer { servers.cancel() }
    _ = await waitForTCPPort(displayPort)
    _ = await waitForTCPPort(echoPort)

    let clock = ContinuousClock()
    let arrivals = Arrivals<Int>()
    let client = connect("ws://127.0.0.1:\(displayPort)/events") { text, _ in
        // {"version":3,"type":"update","update":{"name":"nfcExtractionProgress","percent":N}}
        if text.contains("nfcExtractionProgress"), let range = text.range(of: #""percent":"#), let n = Int(text[range.upperBound...].prefix { $0.isNumber }) {
            arrivals.record(n, at: clock.now)
        }
    }
    try await Task.sleep(for: .milliseconds(500))
    var latencies: [Double] = []
    for i in 0..<samples {
        let sent = clock.now
        await hub.publish(.flow(.update(.nfcExtractionProgress(i % 100))))
        var arrived: ContinuousClock.Instant?
        for _ in 0..<2000 {
            arrived = arrivals.take(i % 100)
            if arrived != nil { break }
            try await Task.sleep(for: .microseconds(50))
        }
        if let arrived { latencies.append((arrived - sent).inMilliseconds) }
    }
    client.cancel()

    let echoes = Arrivals<String>()
    let (outbound, outgoing) = AsyncStream.makeStream(of: String.self)
    let echoClient = Task {
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(echoPort)/echo", logger: logger) { inbound, writer, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for await text in outbound { try await writer.write(.text(text)) } }
                group.addTask {
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        if case .text(let text) = message { echoes.record(text, at: clock.now) }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
    try await Task.sleep(for: .milliseconds(300))
    var halves: [Double] = []
    for i in 0..<samples {
        let key = #"{"version":3,"type":"update","update":{"name":"nfcExtractionProgress","percent":\#(i % 100)}}#\#(i)"#
        let sent = clock.now
        outgoing.yield(key)
        var back: ContinuousClock.Instant?
        for _ in 0..<2000 {
            back = echoes.take(key)
            if back != nil { break }
            try await Task.sleep(for: .microseconds(50))
        }
        if let back { halves.append((back - sent).inMilliseconds / 2) }
    }
    outgoing.finish()
    echoClient.cancel()
    print("ScanFlow action to the event on a display's WebSocket (DisplayHub -> JSON -> WebSocket -> client), \(latencies.count) events:")
    print("  median \(format(percentile(latencies, 0.5))) ms, p95 \(format(percentile(latencies, 0.95))) ms")
    print("  baseline, half a WebSocket echo round trip on the same stack: median \(format(percentile(halves, 0.5))) ms, p95 \(format(percentile(halves, 0.95))) ms")
    print("  (both include this harness's 50 us polling for the arrival)")
}

print("==> action to WebSocket event")
try await webSocketLatency()
print("==> daemon start and memory (pcscd, the virtual passport and the reference backend as processes)")
try await startAndMemory()
