// A small timing harness for the backend: uploads over loopback to the reference
// backend (plain and with application-layer encryption, sequential and concurrent) and
// the outbox's durable enqueue/acknowledge cycle. Bounded in count; only 127.0.0.1.
//
// usage: swift run -c release BackendBenchmark [--uploads N] [--records N] [--kib N] [--postgres URL]
// (--postgres: the reference backend stores in that PostgreSQL database instead of SQLite)
import AsyncHTTPClient
import Backend
import Foundation
import KioskTime
import Logging
import ReferenceBackend
import ServiceLifecycle

struct Options {
    var uploads = 200
    var records = 300
    var kib = 1024
    var postgresURL: String?

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let name = iterator.next() {
            let raw = iterator.next()
            let value = raw.flatMap(Int.init) ?? 0
            switch name {
            case "--postgres": postgresURL = raw
            case "--uploads": uploads = min(max(value, 1), 5_000)
            case "--records": records = min(max(value, 1), 10_000)
            case "--kib": kib = min(max(value, 1), 4_096)
            default: break
            }
        }
    }
}

/// Percentiles of durations in milliseconds.
func summary(_ name: String, _ samples: [Duration], total: Duration) -> String {
    let ms = samples.map(\.inMilliseconds).sorted()
    func p(_ q: Double) -> Double { ms[min(ms.count - 1, Int(Double(ms.count) * q))] }
    let seconds = total.inSeconds
    let label = name.padding(toLength: 34, withPad: " ", startingAt: 0)
    return label + String(format: "%6d ops %9.1f ops/s   p50 %7.2f ms   p95 %7.2f ms   p99 %7.2f ms",
                          ms.count, Double(ms.count) / seconds, p(0.5), p(0.95), p(0.99))
}

/// A JPEG-shaped body of the given size: the SOF header the reference backend reads, then filler.
func jpeg(bytes: Int) -> Data {
    var data: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x03, 0x20, 0x05, 0x00, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
    var generator = SystemRandomNumberGenerator()
    data += (0..<max(bytes - data.count - 2, 0)).map { _ in UInt8.random(in: 0...0xFE, using: &generator) }
    return Data(data + [0xFF, 0xD9])
}

@main
enum BackendBenchmark {
    static func main() async throws {
        let options = Options(CommandLine.arguments)
        let logger = Logger(label: "benchmark", factory: { _ in SwiftLogNoOpLogHandler() })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idkiosk-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if let url = options.postgresURL {
            try await PostgresReferenceStore.run(url: url, logger: logger) { try await run(store: $0, options, directory: directory, logger: logger) }
        } else {
            let store = try SQLiteReferenceStore(path: directory.appendingPathComponent("backend.sqlite").path)
            try await run(store: store, options, directory: directory, logger: logger)
        }
    }

    static func run(store: any ReferenceStore, _ options: Options, directory: URL, logger: Logger) async throws {
        let station = try await store.addClient(name: "bench")
        var configuration = ReferenceServer.Configuration()
        configuration.encryption = try EncryptionKeyring()
        let server = ReferenceServer(store: store, configuration: configuration)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = server.makeApplication(host: "127.0.0.1", port: 0, logger: logger) { continuation.yield($0); continuation.finish() }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { return }
            let body = jpeg(bytes: options.kib * 1024)
            let storage = options.postgresURL == nil ? "SQLite" : "PostgreSQL"
            print("backend benchmark: \(options.uploads) uploads and \(options.records) outbox records of \(options.kib) KiB, 127.0.0.1:\(port), backend on \(storage)")

            for encrypted in [false, true] {
                var clientConfiguration = HTTPVerificationBackend<ContinuousClock>.Configuration(
                    baseURL: "http://127.0.0.1:\(port)", clientId: station.id, clientSecret: station.secret
                )
                clientConfiguration.applicationLayerEncryption = encrypted
                let client = HTTPVerificationBackend(configuration: clientConfiguration, httpClient: httpClient, clock: ContinuousClock(), logger: logger)
                let account = try await client.createAccount(AccountRequest(
                    customerInternalReference: "bench", tokenLifetime: 86_400, workflowDefinition: WorkflowDefinition(key: 10013)
                ))
                guard let face = account.workflowExecution.credentials.first(where: { $0.category == .FACEMAP }) else { return }
                let execution = ExecutionRef(account)
                func upload(_ index: Int) async throws {
                    _ = try await client.uploadPart(PartUpload(
                        execution: execution, credentialId: face.id, classifier: .liveness(index % 100)!, body: body,
                        idempotencyKey: "bench-\(encrypted)-\(index)-\(UUID().uuidString)"
                    ))
                }
                _ = try await upload(0)  // token, key and connection warm

                var samples: [Duration] = []
                let clock = ContinuousClock()
                let start = clock.now
                for index in 0..<options.uploads {
                    let began = clock.now
                    try await upload(index)
                    samples.append(began.duration(to: clock.now))
                }
                print(summary("upload \(encrypted ? "sealed" : "plain") sequential", samples, total: start.duration(to: clock.now)))

                let concurrency = 8
                let concurrentStart = clock.now
                let concurrentSamples = try await withThrowingTaskGroup(of: [Duration].self) { workers in
                    for worker in 0..<concurrency {
                        workers.addTask {
                            var local: [Duration] = []
                            for index in stride(from: worker, to: options.uploads, by: concurrency) {
                                let began = clock.now
                                try await upload(index)
                                local.append(began.duration(to: clock.now))
                            }
                            return local
                        }
                    }
                    var all: [Duration] = []
                    for try await local in workers { all += local }
                    return all
                }
                print(summary("upload \(encrypted ? "sealed" : "plain") \(concurrency) concurrent", concurrentSamples, total: concurrentStart.duration(to: clock.now)))
            }

            let keyPath = directory.appendingPathComponent("outbox.key").path
            try OutboxKey.generate(path: keyPath)
            let outbox = try Outbox(path: directory.appendingPathComponent("outbox.sqlite").path, key: try OutboxKey.load(path: keyPath), logger: logger)
            let clock = ContinuousClock()
            var enqueueSamples: [Duration] = []
            let execution = ExecutionRef(accountId: "a", workflowExecutionId: "w", sessionToken: "t")
            let enqueueStart = clock.now
            for index in 0..<options.records {
                let began = clock.now
                try await outbox.enqueue(PartUpload(execution: execution, credentialId: "c", classifier: .face, body: body, idempotencyKey: "outbox-\(index)"))
                enqueueSamples.append(began.duration(to: clock.now))
            }
            print(summary("outbox enqueue (fsync each)", enqueueSamples, total: enqueueStart.duration(to: clock.now)))
            var ackSamples: [Duration] = []
            let ackStart = clock.now
            while true {
                let due = try await outbox.due(limit: 16)
                if due.isEmpty { break }
                for record in due {
                    let began = clock.now
                    try await outbox.acknowledge(record.id)
                    ackSamples.append(began.duration(to: clock.now))
                }
            }
            print(summary("outbox acknowledge (wipe+delete)", ackSamples, total: ackStart.duration(to: clock.now)))

            try await httpClient.shutdown()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
