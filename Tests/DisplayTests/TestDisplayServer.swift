import AsyncHTTPClient
import Display
import Foundation
import HummingbirdWSClient
import KioskTestKit
import Logging
import NIOCore
import ServiceLifecycle
import Testing

/// A real display server on an ephemeral loopback port, run in a ServiceGroup as `serve` does.
struct TestDisplayServer: Sendable {
    static let logger: Logger = {
        var logger = Logger(label: "display-test")
        logger.logLevel = .warning
        return logger
    }()

    let port: Int
    let hub: DisplayHub
    /// The address tests connect to (loopback even when the server binds 0.0.0.0).
    var base: String { "http://127.0.0.1:\(port)" }
    var events: String { "ws://127.0.0.1:\(port)/events" }

    /// Runs `body` against a fresh server and shuts the server down gracefully afterwards;
    /// fails when the shutdown does not finish (an open WebSocket or preview kept it alive).
    static func with<T: Sendable>(
        configuration: DisplayServer.Configuration = DisplayServer.Configuration(port: 0),
        preview: (any PreviewSource)? = nil,
        hub: DisplayHub = DisplayHub(logger: logger),
        _ body: (TestDisplayServer) async throws -> T
    ) async throws -> T {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let server = DisplayServer(configuration: configuration, hub: hub, preview: preview, logger: logger) { port in
            continuation.yield(port)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [server], logger: logger))
        let runner = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        let probe = EventProbe(ports)
        guard let port = await probe.next() else {
            _ = try? await runner.value
            throw TestFailure("display server did not start")
        }
        let running = TestDisplayServer(port: port, hub: hub)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(running))
        } catch {
            result = .failure(error)
        }
        await group.triggerGracefulShutdown()
        try await withDeadline(.seconds(10), "graceful shutdown of the display server") {
            try await runner.value
        }
        return try result.get()
    }
}

/// Runs `operation`, failing instead of hanging when it takes longer than `limit`.
func withDeadline<T: Sendable>(_ limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TestFailure("timed out: \(what)") }
        return value
    }
}

/// A WebSocket display client (HummingbirdWSClient): frames received, frames to send.
final class TestDisplaySocket: Sendable {
    let received: EventProbe<String>
    let connection: Task<Void, any Error>
    private let outgoing: AsyncStream<WebSocketOutboundWriter.OutboundFrame>.Continuation

    init(url: String) {
        let (incoming, incomingContinuation) = AsyncStream.makeStream(of: String.self)
        let (outbound, outgoing) = AsyncStream.makeStream(of: WebSocketOutboundWriter.OutboundFrame.self)
        self.outgoing = outgoing
        received = EventProbe(incoming)
        connection = Task {
            defer { incomingContinuation.finish() }
            try await WebSocketClient.connect(url: url, logger: TestDisplayServer.logger) { inbound, writer, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await frame in outbound { try await writer.write(frame) }
                        try? await writer.close(.normalClosure, reason: nil)
                    }
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            if case .text(let text) = message { incomingContinuation.yield(text) }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    func send(_ text: String) {
        outgoing.yield(.text(text))
    }

    func sendBinary(_ bytes: [UInt8]) {
        outgoing.yield(.binary(ByteBuffer(bytes: bytes)))
    }

    /// The next frame, decoded.
    func next() async throws -> DisplayFrame {
        guard let text = await received.next() else { throw TestFailure("no frame from the display server") }
        return try JSONDecoder().decode(DisplayFrame.self, from: Data(text.utf8))
    }

    /// Reads the next frame and expects it to be `expected`.
    func expectNext(_ expected: DisplayFrame, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let frame = try await next()
        #expect(frame == expected, sourceLocation: sourceLocation)
    }

    /// Closes from the client's side and waits for the connection to end.
    func close() async {
        outgoing.finish()
        _ = try? await withDeadline(.seconds(10), "WebSocket close") { [connection] in try await connection.value }
    }
}

/// A plain HTTP request to the server.
func httpGet(_ url: String, headers: [(String, String)] = []) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
    var request = HTTPClientRequest(url: url)
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
    let body = try await response.body.collect(upTo: 4 << 20)
    return (Int(response.status.code), response.headers.map { ($0.name, $0.value) }, Array(body.readableBytesView))
}
