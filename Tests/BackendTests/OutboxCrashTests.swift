import Backend
import Foundation
import KioskTestKit
import ReferenceBackend
import Testing

/// kill -9 of the enqueuing and of the sending process at random moments loses and
/// duplicates nothing: every enqueue the child acknowledged is in the outbox after the
/// kill, every record reaches the reference backend exactly once (by its idempotency
/// key), the finalize follows them, and the outbox ends empty.
///
/// In CI the enqueuing child runs 10 times and the sending child 40 times, each run
/// killed at a random moment. `make soak` sets `IDKIOSK_SOAK_KILLS`: each child is then
/// killed at least that many times, over enough records that neither finishes first,
/// and the figures are printed (docs/backend.md, "Durability figures").
@Suite struct OutboxCrashTests {
    /// How hard the test pushes.
    struct Plan {
        var records: Int
        /// Runs of each child before the one left to finish (at most).
        var fillRuns: Int
        var drainRuns: Int
        /// Soak only: keep killing each child until this many kills landed.
        var kills: Int?

        static let ci = Plan(records: 100, fillRuns: 10, drainRuns: 40)

        /// CI's plan, or the soak's when `IDKIOSK_SOAK_KILLS` is set.
        static var current: Plan {
            guard let kills = ProcessInfo.processInfo.environment["IDKIOSK_SOAK_KILLS"].flatMap({ Int($0) }), kills > 0 else { return ci }
            // About 15 enqueues fit in one run of the enqueuing child on the build machine.
            return Plan(records: kills * 20, fillRuns: .max, drainRuns: .max, kills: kills)
        }
    }

    static var childPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("outbox-drain-child").path
    }

    /// Runs the child again and again, each run SIGKILLed after a random moment, until a
    /// run finishes on its own, `runs` runs were made or `kills` kills landed; then once
    /// more to the end. `arguments` is asked before each run, `afterKill` told what a
    /// killed run printed. Returns how many kills landed.
    func killRepeatedly(
        runs: Int, kills wanted: Int?, window: ClosedRange<Int>, environment: [String: String], output: String,
        arguments: () -> [String], afterKill: (String) async throws -> Void = { _ in }
    ) async throws -> Int {
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        var run = 0
        while run < runs, kills < wanted ?? .max {
            run += 1
            let child = try ChildProcess(Self.childPath, arguments(), extraEnvironment: environment, logPath: output)
            try await Task.sleep(for: .milliseconds(Int.random(in: window, using: &generator)))
            guard child.isRunning else { break }
            child.signal(SIGKILL)
            if await child.wait() == 128 + SIGKILL {
                kills += 1
                try await afterKill(child.output)
            }
        }
        let last = try ChildProcess(Self.childPath, arguments(), extraEnvironment: environment, logPath: output)
        let status = await last.wait(limit: .seconds(600))
        #expect(status == 0, "\(arguments()[0]) did not finish: \(last.output)")
        return kills
    }

    @Test func killNineAtRandomPointsNeitherLosesNorDuplicates() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.childPath), "outbox-drain-child not built next to the tests")
        let plan = Plan.current
        let started = ContinuousClock.now
        try await LoopbackBackend.with { backend in
            let client = backend.client()
            let account = try await client.createAccount(Fixtures.account(key: 10013))
            let face = try account.credential(.FACEMAP)
            let execution = ExecutionRef(account)
            let fixture = try OutboxFixture()
            defer { fixture.remove() }
            let total = plan.records
            let output = fixture.directory.appendingPathComponent("child.log").path

            // Enqueue, killed at random points; each run goes on after the last enqueue
            // acknowledged. What was acknowledged stays, nothing twice.
            let executionJSON = String(decoding: try JSONEncoder().encode(execution), as: UTF8.self)
            var acknowledged = 0
            var lost = 0
            let fillKills = try await killRepeatedly(
                runs: plan.fillRuns, kills: plan.kills, window: 5...120,
                environment: ["IDKIOSK_EXECUTION": executionJSON, "IDKIOSK_CREDENTIAL": face.id], output: output,
                arguments: { ["fill", fixture.path, fixture.keyPath, String(total - acknowledged), String(acknowledged)] },
                afterKill: { printed in
                    acknowledged += printed.split(separator: "\n").filter { $0.hasPrefix("enqueued crash-test-") }.count
                    let present = Set(try await fixture.open().due(limit: .max).map(\.item.idempotencyKey))
                    let missing = (0..<acknowledged).filter { !present.contains("crash-test-\($0)") }
                    #expect(missing.isEmpty, "acknowledged enqueues lost after kill -9: \(missing)")
                    lost += missing.count
                }
            )
            #expect(try await fixture.open().stats().records == total + 1)

            // Drain, killed at random points; slow answers keep it inside deliveries.
            await backend.faults.inject(.delay(.milliseconds(25)), times: total * 100, pathContains: "/parts/")
            let drainKills = try await killRepeatedly(
                runs: plan.drainRuns, kills: plan.kills, window: 10...300,
                environment: ["IDKIOSK_CLIENT_ID": backend.station.id, "IDKIOSK_CLIENT_SECRET": backend.station.secret], output: output,
                arguments: { ["drain", fixture.path, fixture.keyPath, backend.baseURL] }
            )
            #expect(drainKills > 0, "no kill landed while the child was draining")

            // Each key once in the backend's idempotency records: stored once, every repeat
            // answered from that record.
            let keys = try await backend.store.deliveredKeys(clientId: backend.station.id)
            let expected = (0..<total).map { "crash-test-\($0)" }.sorted()
            #expect(keys == expected)
            // One part per liveness classifier (there are 100): a later frame replaces one.
            #expect(try await backend.store.partCount(executionId: execution.workflowExecutionId) == min(total, 100))
            #expect(try await fixture.open().stats().records == 0)
            #expect(try await client.status(execution).workflowExecution.status == .PROCESSED)
            // Uploads that reached the backend more than once were answered from the idempotency record.
            let uploads = await backend.faults.requestCount(pathContains: "/parts/")
            #expect(uploads >= total)

            guard let wanted = plan.kills else { return }
            #expect(fillKills >= wanted, "the enqueuing child finished after \(fillKills) kills: give it more records")
            #expect(drainKills >= wanted, "the sending child finished after \(drainKills) kills: give it more records")
            lost += Set(expected).subtracting(keys).count
            let seconds = Int((ContinuousClock.now - started).components.seconds)
            print("""
                soak kill -9: enqueuing process killed \(fillKills) times, sending process \(drainKills) times; \
                \(total) enqueues acknowledged, \(lost) lost, \(keys.count - Set(keys).count) delivered twice \
                (\(uploads - total) uploads repeated after a kill, answered from the idempotency record); \(seconds) s
                """)
        }
    }
}
