import Backend
import Foundation
import KioskTestKit
import Logging
import Testing

/// The outbox's age for `/metrics`: how long the oldest record has waited.
@Suite struct OutboxAgeTests {
    @Test func theOldestRecordsWaitIsItsAge() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-age-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try OutboxKey.generate(path: directory.appendingPathComponent("key").path)
        let clock = ManualTime()
        let outbox = try Outbox(
            path: directory.appendingPathComponent("outbox.sqlite").path, key: try OutboxKey.load(path: directory.appendingPathComponent("key").path),
            logger: Logger(label: "test"), now: { clock.now })
        #expect(try await outbox.oldestAge() == nil)
        try await outbox.enqueue(.finalize(ExecutionRef(accountId: "a", workflowExecutionId: "w1", sessionToken: "t")))
        clock.advance(seconds: 90)
        try await outbox.enqueue(.finalize(ExecutionRef(accountId: "a", workflowExecutionId: "w2", sessionToken: "t")))
        clock.advance(seconds: 30)
        #expect(try await outbox.oldestAge() == .seconds(120))
    }
}
