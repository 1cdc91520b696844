import Backend
import Foundation
import ReferenceBackend
import Testing

/// kill -9 of the sending process at random moments loses and duplicates nothing: every
/// record reaches the reference backend exactly once (by its idempotency key) and the
/// outbox ends empty.
@Suite struct OutboxCrashTests {
    static var childPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("outbox-drain-child").path
    }

    func spawn(_ fixture: OutboxFixture, _ backend: LoopbackBackend) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.childPath)
        process.arguments = [fixture.path, fixture.keyPath, backend.baseURL]
        process.environment = ["IDKIOSK_CLIENT_ID": backend.station.id, "IDKIOSK_CLIENT_SECRET": backend.station.secret]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
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
            do {
                let outbox = try fixture.open()
                for index in 0..<total {
                    try await outbox.enqueue(PartUpload(
                        execution: execution, credentialId: face.id, classifier: .liveness(index)!,
                        body: Fixtures.jpeg(width: 640 + index, height: 480), idempotencyKey: "crash-test-\(index)"
                    ))
                }
                try await outbox.enqueue(.finalize(execution))
            }
            // Slow answers keep the child inside deliveries when the kill comes.
            await backend.faults.inject(.delay(.milliseconds(25)), times: 10_000, pathContains: "/parts/")

            var generator = SystemRandomNumberGenerator()
            var kills = 0
            for _ in 0..<40 {
                let child = try spawn(fixture, backend)
                try await Task.sleep(for: .milliseconds(Int.random(in: 10...300, using: &generator)))
                if !child.isRunning { child.waitUntilExit(); break }
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
                if child.terminationReason == .uncaughtSignal { kills += 1 }
            }
            let last = try spawn(fixture, backend)
            last.waitUntilExit()
            #expect(last.terminationStatus == 0)
            #expect(kills > 0, "no kill landed while the child was running")

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
