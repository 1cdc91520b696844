// Test support for the kill -9 test of the outbox: drains an outbox into a backend
// until it is empty, then exits 0. The test kills it with SIGKILL at random moments.
//
// usage: outbox-drain-child OUTBOX KEYFILE BASEURL   (IDKIOSK_CLIENT_ID, IDKIOSK_CLIENT_SECRET in the environment)
import AsyncHTTPClient
import Backend
import Foundation
import Logging

@main
enum OutboxDrainChild {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 4,
              let clientId = ProcessInfo.processInfo.environment["IDKIOSK_CLIENT_ID"],
              let clientSecret = ProcessInfo.processInfo.environment["IDKIOSK_CLIENT_SECRET"]
        else {
            FileHandle.standardError.write(Data("usage: outbox-drain-child OUTBOX KEYFILE BASEURL (client in the environment)\n".utf8))
            exit(64)
        }
        let logger = Logger(label: "outbox-drain-child", factory: { _ in SwiftLogNoOpLogHandler() })
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        var configuration = HTTPVerificationBackend<ContinuousClock>.Configuration(baseURL: arguments[3], clientId: clientId, clientSecret: clientSecret)
        configuration.retry = RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20))
        let backend = HTTPVerificationBackend(configuration: configuration, httpClient: httpClient, clock: ContinuousClock(), logger: logger)
        do {
            let outbox = try Outbox(path: arguments[1], key: try OutboxKey.load(path: arguments[2]), logger: logger)
            let sender = OutboxSender(
                outbox: outbox, backend: backend,
                delivery: OutboxDelivery(backoff: RetryPolicy(maxAttempts: .max, baseDelay: .zero, maxDelay: .zero)),
                clock: ContinuousClock(), logger: logger
            )
            while try await outbox.stats().records > 0 {
                try await sender.drainOnce()
            }
            try await httpClient.shutdown()
            return
        } catch {
            FileHandle.standardError.write(Data("outbox-drain-child: \(error)\n".utf8))
            try? await httpClient.shutdown()
            exit(1)
        }
    }
}
