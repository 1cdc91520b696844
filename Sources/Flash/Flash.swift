import KioskTime
public import Logging

/// The LED flash: on, off and pulse, with a hard limit on how long it stays on.
///
/// Whatever the caller does (forgets `off()`, is cancelled, hangs), the line is
/// switched off `maximumOn` after it went on: a watchdog sleeps on the injected clock
/// and turns it off. Calling `on()` while already on does not extend the limit. Each
/// change is published on `updates`.
public actor Flash<C: Clock> where C.Duration == Duration {
    /// The longest the LED may stay on in one go.
    public nonisolated let maximumOn: Duration
    /// Every change of the LED, in order.
    public nonisolated let updates: AsyncStream<FlashState>

    public private(set) var isOn = false
    /// How often the watchdog had to switch the LED off.
    public private(set) var safetyTrips = 0

    private let line: any FlashLine
    private let clock: C
    private let logger: Logger
    private let continuation: AsyncStream<FlashState>.Continuation
    private var generation = 0
    private var watchdog: Task<Void, Never>?
    private var isShutDown = false

    /// - Parameters:
    ///   - line: the GPIO (or simulated) line; it is switched off now.
    ///   - maximumOn: the hard limit for one on period.
    ///   - clock: where the watchdog and pulses sleep.
    ///   - logger: flash events go here with the line's location as metadata.
    public init(line: any FlashLine, maximumOn: Duration, clock: C, logger: Logger) {
        self.line = line
        self.maximumOn = maximumOn
        self.clock = clock
        var logger = logger
        logger[metadataKey: "flash"] = "\(line.location)"
        self.logger = logger
        (updates, continuation) = AsyncStream.makeStream(of: FlashState.self, bufferingPolicy: .bufferingNewest(64))
        do {
            try line.set(false)
        } catch {
            // on() will report the same fault; say it now too, for the start-up log.
            self.logger.error("flash line refused off at start", metadata: ["error": "\(error)", "hint": "\(error.hint)"])
        }
    }

    /// Switches the LED on; the watchdog switches it off after `maximumOn`.
    public func on() throws(FlashError) {
        guard !isShutDown else { throw FlashError(kind: .released, message: "the flash was shut down") }
        try line.set(true)
        guard !isOn else { return }
        isOn = true
        generation += 1
        let armed = generation
        let deadline = clock.now.advanced(by: maximumOn)
        watchdog?.cancel()
        watchdog = Task { [clock] in
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            self.safetyOff(generation: armed)
        }
        continuation.yield(.on)
        logger.debug("flash on")
    }

    /// Switches the LED off. When the line refuses, the watchdog stays armed.
    public func off() throws(FlashError) {
        guard !isShutDown else { return }
        try line.set(false)
        watchdog?.cancel()
        watchdog = nil
        generation += 1
        if isOn {
            isOn = false
            continuation.yield(.off)
            logger.debug("flash off")
        }
    }

    /// Lights the LED for `duration` (at most `maximumOn`), then switches it off,
    /// also when the waiting task is cancelled.
    public func pulse(for duration: Duration) async throws(FlashError) {
        try on()
        let length = min(duration, maximumOn)
        try? await clock.sleep(until: clock.now.advanced(by: length), tolerance: nil)
        try off()
    }

    /// Switches off and releases the line; the flash cannot be used afterwards.
    public func shutdown() {
        guard !isShutDown else { return }
        watchdog?.cancel()
        watchdog = nil
        line.release()
        if isOn { continuation.yield(.off) }
        isOn = false
        isShutDown = true
        continuation.finish()
    }

    private func safetyOff(generation armed: Int) {
        guard armed == generation, isOn, !isShutDown else { return }
        safetyTrips += 1
        logger.warning("flash on longer than its limit: switched off", metadata: ["maximumOnMs": "\(maximumOn.wholeMilliseconds)"])
        do {
            try line.set(false)
        } catch {
            logger.error("flash line refused off: releasing it", metadata: ["error": "\(error)"])
            line.release()
            isShutDown = true
        }
        isOn = false
        continuation.yield(.off)
    }
}
