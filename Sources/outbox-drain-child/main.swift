// Test support for the kill -9 tests of the outbox; the test kills it with SIGKILL at
// random moments and runs it again.
//
// usage: outbox-drain-child fill OUTBOX KEYFILE COUNT    (IDKIOSK_EXECUTION: ExecutionRef JSON, IDKIOSK_CREDENTIAL)
//          enqueues COUNT liveness frames keyed crash-test-<n> and the finalize, then exits 0
//        outbox-drain-child drain OUTBOX KEYFILE BASEURL  (IDKIOSK_CLIENT_ID, IDKIOSK_CLIENT_SECRET)
//          drains the outbox into the backend until it is empty, then exits 0
import AsyncHTTPClient
import Backend
import Foundation
import Logging

@main
enum OutboxDrainChild {
    static func main() async {
        let arguments = CommandLine.arguments
        let environment = ProcessInfo.processInfo.environment
        let logger = Logger(label: "outbox-drain-child", factory: { _ in SwiftLogNoOpLogHandler() })
        guard arguments.count == 5 else { usage() }
        do {
            let outbox = try Outbox(path: arguments[2], key: try OutboxKey.load(path: arguments[3]), logger: logger)
            switch arguments[1] {
            case "fill":
                guard let count = Int(arguments[4]), let json = environment["IDKIOSK_EXECUTION"], let credential = environment["IDKIOSK_CREDENTIAL"] else { usage() }
                let execution = try JSONDecoder().decode(ExecutionRef.self, from: Data(json.utf8))
                for index in 0..<count {
                    try await outbox.enqueue(PartUpload(
                        execution: execution, credentialId: credential, classifier: .liveness(index % 100)!,
                        body: frame(index), idempotencyKey: "crash-test-\(index)"
                    ))
                }
                try await outbox.enqueue(.finalize(execution))
            case "drain":
                guard let clientId = environment["IDKIOSK_CLIENT_ID"], let clientSecret = environment["IDKIOSK_CLIENT_SECRET"] else { usage() }
                try await drain(outbox, baseURL: arguments[4], clientId: clientId, clientSecret: clientSecret, logger: logger)
            default:
                usage()
            }
        } catch {
            FileHandle.standardError.write(Data("outbox-drain-child: \(error)\n".utf8))
            exit(1)
        }
    }

    static func drain(_ outbox: Outbox, baseURL: String, clientId: String, clientSecret: String, logger: Logger) async throws {
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        var configuration = HTTPVerificationBackend<ContinuousClock>.Configuration(baseURL: baseURL, clientId: clientId, clientSecret: clientSecret)
        configuration.retry = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20))
        let backend = HTTPVerificationBackend(configuration: configuration, httpClient: httpClient, clock: ContinuousClock(), logger: logger)
        let sender = OutboxSender(
            outbox: outbox, backend: backend,
            delivery: OutboxDelivery(backoff: RetryPolicy(maxAttempts: .max, baseDelay: .zero, maxDelay: .zero)),
            clock: ContinuousClock(), logger: logger
        )
        do {
            while try await outbox.stats().records > 0 {
                try await sender.drainOnce()
            }
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }

    /// A JPEG header with a start-of-frame (the reference backend reads only headers), 640+n wide.
    static func frame(_ index: Int) -> Data {
        let width = 640 + index, height = 480
        return Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                     0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9])
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: outbox-drain-child fill|drain OUTBOX KEYFILE COUNT|BASEURL\n".utf8))
        exit(64)
    }
}
