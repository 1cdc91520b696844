public import Logging
public import ServiceLifecycle

/// Drains the outbox in the background: sends each due record, wipes it after the
/// backend's acknowledgement, backs off while the backend is away.
public struct OutboxSender<C: Clock>: Service where C.Duration == Duration {
    let outbox: Outbox
    let backend: any VerificationBackend
    let delivery: OutboxDelivery
    let clock: C
    let idleInterval: Duration
    let logger: Logger
    let random: @Sendable () -> Double

    public init(
        outbox: Outbox, backend: any VerificationBackend, delivery: OutboxDelivery = .init(), clock: C,
        idleInterval: Duration = .seconds(1), logger: Logger, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.outbox = outbox
        self.backend = backend
        self.delivery = delivery
        self.clock = clock
        self.idleInterval = idleInterval
        self.logger = logger
        self.random = random
    }

    public func run() async throws {
        // Stops on graceful shutdown; what is not acknowledged stays in the outbox.
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let sent: Int
                do { sent = try await drainOnce() } catch {
                    logger.error("outbox unusable", metadata: ["error": "\(error)"])
                    sent = 0
                }
                if sent == 0 {
                    do { try await clock.sleep(for: idleInterval) } catch { return }
                }
            }
        }
    }

    /// One pass over the due records; returns how many were acknowledged or discarded.
    @discardableResult
    public func drainOnce() async throws(OutboxError) -> Int {
        try await outbox.purgeExpired()
        var done = 0
        for record in try await outbox.due() {
            var failure: BackendError?
            do {
                switch record.item {
                case .part(let upload): _ = try await backend.uploadPart(upload)
                case .finalize(let execution, let extractionOnly): _ = try await backend.finalize(execution, extractionOnly: extractionOnly)
                }
            } catch {
                failure = error
            }
            switch delivery.after(error: failure, attempts: record.attempts, random: random()) {
            case .acknowledge:
                try await outbox.acknowledge(record.id)
                done += 1
            case .discard(let code):
                try await outbox.discard(record.id, code: code)
                done += 1
            case .retry(let delay):
                logger.info("outbox delivery failed, will retry", metadata: ["record": "\(record.id)", "code": "\(failure?.code ?? "")"])
                try await outbox.retryLater(record.id, after: delay)
            }
        }
        return done
    }
}
