// Test support for the kill -9 tests of the outbox (the test kills it with SIGKILL at
// random moments and runs it again) and for the rig's power cuts (hardware/rig/powercut.sh
// stops the VM it writes in).
//
// usage: outbox-drain-child fill OUTBOX KEYFILE COUNT [FIRST]  (IDKIOSK_EXECUTION: ExecutionRef JSON, IDKIOSK_CREDENTIAL)
//          enqueues COUNT liveness frames keyed crash-test-<n> from n = FIRST (default 0) and
//          the finalize, then exits 0; prints "enqueued KEY" as each enqueue returns
//        outbox-drain-child drain OUTBOX KEYFILE BASEURL  (IDKIOSK_CLIENT_ID, IDKIOSK_CLIENT_SECRET)
//          drains the outbox into the backend until it is empty, then exits 0
//        outbox-drain-child list OUTBOX KEYFILE
//          opens the outbox and prints "present KEY" for each record due for sending
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
        guard (4...6).contains(arguments.count) else { usage() }
        do {
            let outbox = try Outbox(path: arguments[2], key: try OutboxKey.load(path: arguments[3]), logger: logger)
            switch arguments[1] {
            case "fill":
                guard arguments.count >= 5, let count = Int(arguments[4]), let first = arguments.count == 6 ? Int(arguments[5]) : 0, let json = environment["IDKIOSK_EXECUTION"], let credential = environment["IDKIOSK_CREDENTIAL"] else { usage() }
                let execution = try JSONDecoder().decode(ExecutionRef.self, from: Data(json.utf8))
                for index in first..<(first + count) {
                    let upload = PartUpload(
                        execution: execution, credentialId: credential, classifier: .liveness(index % 100)!,
                        body: frame(index), idempotencyKey: "crash-test-\(index)"
                    )
                    try await outbox.enqueue(upload)
                    report("enqueued", upload.idempotencyKey)
                }
                let finalize = OutboxItem.finalize(execution)
                try await outbox.enqueue(finalize)
                report("enqueued", finalize.idempotencyKey)
            case "list":
                guard arguments.count == 4 else { usage() }
                for record in try await outbox.due(limit: .max) {
                    report("present", record.item.idempotencyKey)
                }
            case "drain":
                guard arguments.count == 5, let clientId = environment["IDKIOSK_CLIENT_ID"], let clientSecret = environment["IDKIOSK_CLIENT_SECRET"] else { usage() }
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

    /// One line on stdout, written at once (not buffered): whoever reads it (the kill
    /// test, the rig's host over the serial console) may see it only if it happened.
    static func report(_ event: String, _ key: String) {
        FileHandle.standardOutput.write(Data("\(event) \(key)\n".utf8))
    }

    /// A JPEG header with a start-of-frame (the reference backend reads only headers),
    /// 640 + n % 1000 wide (the rig's keys go past what two bytes of width hold).
    static func frame(_ index: Int) -> Data {
        let width = 640 + index % 1000, height = 480
        return Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                     0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9])
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: outbox-drain-child fill OUTBOX KEYFILE COUNT [FIRST] | drain OUTBOX KEYFILE BASEURL | list OUTBOX KEYFILE\n".utf8))
        exit(64)
    }
}
