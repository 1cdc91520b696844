import Foundation
public import Backend
public import Logging
public import ServiceLifecycle

/// The station loop as a Service: it runs until graceful shutdown, then cancels the journey
/// in progress (wiping it) and stops; the outbox keeps what it holds.
public struct StationLoopService: Service {
    let loop: StationLoop

    public init(loop: StationLoop) { self.loop = loop }

    public func run() async throws {
        await withGracefulShutdownHandler {
            await loop.run()
        } onGracefulShutdown: {
            loop.shutdown()
        }
    }
}

/// Tells systemd how the station is: `READY=1` once the loop has looked at its devices and the
/// servers listen, `WATCHDOG=1` only while the loop's heartbeat is recent (a stuck loop gets
/// the service restarted), and `STATUS=` lines for `systemctl status`.
public struct SystemdService: Service {
    let loop: StationLoop
    let notifier: SystemdNotifier
    let outbox: Backend.Outbox?
    /// What has to be listening before READY=1.
    let ready: @Sendable () async -> Bool
    let clock: any Clock<Duration>
    let logger: Logger

    /// - Parameter clock: where it waits between looks at the loop.
    public init(
        loop: StationLoop, notifier: SystemdNotifier, outbox: Backend.Outbox?, clock: any Clock<Duration> = ContinuousClock(), logger: Logger,
        ready: @escaping @Sendable () async -> Bool
    ) {
        self.loop = loop
        self.notifier = notifier
        self.outbox = outbox
        self.ready = ready
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        let interval = min(notifier.watchdogInterval ?? .seconds(5), .seconds(5))
        await cancelWhenGracefulShutdown {
            var announced = false
            var lastStatus = ""
            while !Task.isCancelled {
                let health = await loop.health(outbox: outbox)
                if !announced, health.phase != StationLoop.Phase.booting.rawValue, await ready() {
                    announced = true
                    notifier.ready(status: health.statusLine)
                    logger.notice("station ready", metadata: ["status": "\(health.statusLine)"])
                } else if announced, health.statusLine != lastStatus {
                    notifier.status(health.statusLine)
                }
                lastStatus = health.statusLine
                if announced, health.live { notifier.watchdog() }
                // Until READY=1, look often: systemd (and whoever waits on it) waits for it.
                try? await clock.sleep(for: announced ? interval : .milliseconds(20), tolerance: nil)
            }
        }
        notifier.stopping()
    }
}
