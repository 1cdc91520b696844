import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// kill -9 of the enqueuing and of the sending process at random moments loses and
/// duplicates nothing: every record reaches the reference backend exactly once (by its
/// idempotency key), the finalize follows them, and the outbox ends empty.
@Suite struct OutboxCrashTests {
    static var childPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("outbox-drain-child").path
    }

    func spawn(_ arguments: [String], environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.childPath)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the child again and again, each run SIGKILLed after a random moment, until a
    /// run finishes on its own; then once more to the end. Returns how many kills landed.
    func killRepeatedly(_ arguments: [String], environment: [String: String], runs: Int, window: ClosedRange<Int>) async throws -> Int {
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for _ in 0..<runs {
            let child = try spawn(arguments, environment: environment)
            try await Task.sleep(for: .milliseconds(Int.random(in: window, using: &generator)))
            if !child.isRunning { child.waitUntilExit(); break }
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            if child.terminationReason == .uncaughtSignal { kills += 1 }
        }
        let last = try spawn(arguments, environment: environment)
        last.waitUntilExit()
        #expect(last.terminationStatus == 0, "\(arguments[0]) did not finish")
        return kills
    }

    @Test func killNineAtRandomPointsNeitherLosesNorDuplicates() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.childPath), "outbox-drain-child not built next to the tests")
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(key: 10013))
            let face = try account.credential(.FACEMAP)
            let execution = ExecutionRef(account)
            let fixture = try OutboxFixture()
            defer { fixture.remove() }
            let total = 100

            // Enqueue, killed at random points: what was committed stays, nothing twice.
            let executionJSON = String(decoding: try JSONEncoder().encode(execution), as: UTF8.self)
            _ = try await killRepeatedly(
                ["fill", fixture.path, fixture.keyPath, String(total)],
                environment: ["IDKIOSK_EXECUTION": executionJSON, "IDKIOSK_CREDENTIAL": face.id], runs: 10, window: 5...120
            )
            #expect(try await fixture.open().stats().records == total + 1)

            // Drain, killed at random points; slow answers keep it inside deliveries.
            await backend.faults.inject(.delay(.milliseconds(25)), times: 10_000, pathContains: "/parts/")
            let drainKills = try await killRepeatedly(
                ["drain", fixture.path, fixture.keyPath, backend.baseURL],
                environment: ["IDKIOSK_CLIENT_ID": backend.station.id, "IDKIOSK_CLIENT_SECRET": backend.station.secret], runs: 40, window: 10...300
            )
            #expect(drainKills > 0, "no kill landed while the child was draining")

            let keys = try await backend.store.deliveredKeys(clientId: backend.station.id)
            #expect(keys == (0..<total).map { "crash-test-\($0)" }.sorted())
            #expect(try await backend.store.partCount(executionId: execution.workflowExecutionId) == total)
            #expect(try await fixture.open().stats().records == 0)
            #expect(try await client.status(execution).workflowExecution.status == .PROCESSED)
            // Uploads that reached the backend more than once were answered from the idempotency record.
            #expect(await backend.faults.requestCount(pathContains: "/parts/") >= total)
        }
    }
}
