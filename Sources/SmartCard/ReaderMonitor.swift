import CPCSCLite
import Dispatch
import Foundation
import KioskTime
public import Logging
import Synchronization

/// A change seen on the PC/SC readers.
public enum ReaderEvent: Hashable, Sendable {
    case readerAdded(String)
    case readerRemoved(String)
    case cardInserted(reader: String, atr: [UInt8])
    case cardRemoved(reader: String)
    /// pcscd went away; readers and cards it reported are announced removed first.
    case serviceLost(SmartCardError)
    /// pcscd answers again; reader and card events for what it now sees follow.
    case serviceRestored
}

/// Watches readers and cards and reports every change as a `ReaderEvent`.
///
/// The watching happens in `SCardGetStatusChange` with an infinite timeout, including
/// the plug-and-play pseudo reader, on a thread of its own: nothing polls while pcscd
/// runs. When pcscd is gone (stopped, restarted, socket-activated and exited) the
/// monitor re-establishes its context every `retryInterval` and reports the readers
/// it finds as added. The first events describe the state found at start.
/// Ending the iteration (or cancelling the consuming task) stops the thread.
public enum ReaderMonitor {
    public static func events(logger: Logger, retryInterval: Duration = .seconds(1)) -> AsyncStream<ReaderEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReaderEvent.self, bufferingPolicy: .unbounded)
        let control = MonitorControl()
        continuation.onTermination = { _ in control.stop() }
        running.withLock { $0 += 1 }
        let thread = Thread {
            var loop = MonitorLoop(control: control, emit: { continuation.yield($0) }, logger: logger, retryInterval: retryInterval)
            loop.run()
            continuation.finish()
            running.withLock { $0 -= 1 }
        }
        thread.name = "idkiosk.reader-monitor"
        thread.start()
        return stream
    }

    /// Monitor threads not yet finished (stopping one is asynchronous: its wait is
    /// cancelled, then it releases its context).
    private static let running = Mutex(0)

    /// Waits until every monitor whose stream ended has left libpcsclite, at most `limit`.
    ///
    /// A command must call this before the process exits: libpcsclite frees its context
    /// table in a destructor at exit, and a monitor thread still returning from its
    /// cancelled `SCardGetStatusChange` would then read freed memory (a crash seen under load).
    /// - Returns: whether they all finished in time.
    @discardableResult
    public static func waitUntilStopped(limit: Duration = .seconds(2)) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while running.withLock({ $0 }) > 0 {
            guard clock.now < deadline else { return false }
            usleep(5_000)
        }
        return true
    }
}

/// Shared between the monitor thread and whoever stops it.
private final class MonitorControl: Sendable {
    private struct State {
        var stopped = false
        var context: SCARDCONTEXT?
    }

    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    var isStopped: Bool { state.withLock { $0.stopped } }

    func stop() {
        state.withLock { s in
            s.stopped = true
            if let context = s.context { _ = PCSC.cancel(context) }
        }
        wakeUp.signal()
    }

    /// Publishes the context so `stop()` can cancel a wait on it; false when already stopped.
    func adopt(_ context: SCARDCONTEXT) -> Bool {
        state.withLock { s in
            guard !s.stopped else { return false }
            s.context = context
            return true
        }
    }

    func release() {
        state.withLock { s in
            if let context = s.context { _ = PCSC.releaseContext(context) }
            s.context = nil
        }
    }

    /// Sleeps for `interval` unless stopped first.
    func pause(_ interval: Duration) {
        let ms = Int(interval.wholeMilliseconds)
        _ = wakeUp.wait(timeout: .now() + .milliseconds(ms))
    }
}

private struct MonitorLoop {
    let control: MonitorControl
    let emit: (ReaderEvent) -> Void
    let logger: Logger
    let retryInterval: Duration

    /// Last acknowledged state per reader, and whether a card was reported present.
    private var readers: [String: (state: DWORD, present: Bool)] = [:]
    private var order: [String] = []
    private var serviceUp: Bool?

    init(control: MonitorControl, emit: @escaping (ReaderEvent) -> Void, logger: Logger, retryInterval: Duration) {
        self.control = control
        self.emit = emit
        self.logger = logger
        self.retryInterval = retryInterval
    }

    mutating func run() {
        while !control.isStopped {
            switch PCSC.establishContext() {
            case .failure(let error):
                serviceGone(error)
                control.pause(retryInterval)
            case .success(let context):
                guard control.adopt(context) else {
                    _ = PCSC.releaseContext(context)
                    return
                }
                if serviceUp != true {
                    if serviceUp == false {
                        logger.notice("pcscd is back")
                        emit(.serviceRestored)
                    }
                    serviceUp = true
                }
                let error = watch(context)
                control.release()
                if let error {
                    serviceGone(error)
                    control.pause(retryInterval)
                }
            }
        }
    }

    private mutating func serviceGone(_ error: SmartCardError) {
        for name in order {
            if readers[name]?.present == true { emit(.cardRemoved(reader: name)) }
            emit(.readerRemoved(name))
        }
        readers = [:]
        order = []
        if serviceUp != false {
            logger.warning("pcscd unreachable", metadata: ["call": "\(error.call ?? "")", "status": "\(error.status?.name ?? "")"])
            emit(.serviceLost(error))
        }
        serviceUp = false
    }

    /// Watches until stopped (returns nil) or the context fails (returns the error).
    private mutating func watch(_ context: SCARDCONTEXT) -> SmartCardError? {
        var pnpState: DWORD = 0
        while !control.isStopped {
            let names: [String]
            switch PCSC.listReaders(context) {
            case .success(let list): names = list
            case .failure(let error): return error
            }
            syncReaderList(names)
            var states = order.map { ReaderStateSnapshot(reader: $0, currentState: readers[$0]?.state ?? 0) }
            states.append(ReaderStateSnapshot(reader: PCSC.pnpNotification, currentState: pnpState))
            switch PCSC.getStatusChange(context, timeout: DWORD(INFINITE), states: &states) {
            case .success:
                for snapshot in states.dropLast() { apply(snapshot) }
                if let pnp = states.last, pnp.isChanged { pnpState = pnp.acknowledged }
            case .failure(let error):
                switch error.status {
                case .cancelled?, .timeout?, .unknownReader?:
                    continue  // stopped, nothing to report, or a reader vanished: re-list
                default:
                    return error
                }
            }
        }
        return nil
    }

    private mutating func syncReaderList(_ names: [String]) {
        for gone in order where !names.contains(gone) {
            if readers[gone]?.present == true { emit(.cardRemoved(reader: gone)) }
            readers[gone] = nil
            emit(.readerRemoved(gone))
        }
        order.removeAll { !names.contains($0) }
        for name in names where readers[name] == nil {
            readers[name] = (0, false)
            order.append(name)
            emit(.readerAdded(name))
        }
    }

    private mutating func apply(_ snapshot: ReaderStateSnapshot) {
        guard var entry = readers[snapshot.reader] else { return }
        if snapshot.isGone { return }  // the re-listing reports the removal
        entry.state = snapshot.acknowledged
        let present = snapshot.isPresent && !snapshot.isMute
        if present != entry.present {
            emit(present ? .cardInserted(reader: snapshot.reader, atr: snapshot.atr) : .cardRemoved(reader: snapshot.reader))
            entry.present = present
        }
        readers[snapshot.reader] = entry
    }
}
