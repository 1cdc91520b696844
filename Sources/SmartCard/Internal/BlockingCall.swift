import Dispatch
import KioskTime
import Synchronization

/// Runs a blocking PC/SC call on a thread of its own and waits for it asynchronously,
/// for at most `timeout`.
///
/// pcsc-lite's client blocks for as long as the reader or card takes, with no limit
/// of its own, so the limit is ours: when it passes, the caller gets `.timeout` and
/// the call is left to finish (or not) on its thread. The connection that made it is
/// then unusable (pcsc-lite serialises calls per context) and says so.
final class BlockingCallQueue: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func run<T: Sendable>(
        _ call: String,
        timeout: Duration?,
        onCancel: (@Sendable () -> Void)? = nil,
        _ body: @escaping @Sendable () -> PCSCResult<T>
    ) async throws(SmartCardError) -> T {
        let once = Once<PCSCResult<T>>()
        let result: PCSCResult<T> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<PCSCResult<T>, Never>) in
                once.install(continuation)
                queue.async { once.resume(body()) }
                if let timeout {
                    let nanos = timeout.wholeNanoseconds
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanos))) {
                        once.resume(.failure(SmartCardError(
                            kind: .timeout, call: call,
                            message: "\(call) did not return within \(timeout)")))
                    }
                }
            }
        } onCancel: {
            onCancel?()
            once.resume(.failure(SmartCardError(kind: .cancelled, call: call, message: "\(call) was cancelled")))
        }
        return try result.get()
    }

    /// Runs `body` on the queue after whatever is queued, without waiting for it.
    func async(_ body: @escaping @Sendable () -> Void) { queue.async(execute: body) }
}

/// A continuation that is resumed by whichever result comes first.
private final class Once<T: Sendable>: Sendable {
    private enum State {
        case waiting
        case installed(CheckedContinuation<T, Never>)
        case early(T)
        case done
    }

    private let state = Mutex<State>(.waiting)

    func install(_ continuation: CheckedContinuation<T, Never>) {
        let early: T? = state.withLock { state in
            switch state {
            case .waiting:
                state = .installed(continuation)
                return nil
            case .early(let value):
                state = .done
                return value
            case .installed, .done:
                return nil
            }
        }
        if let early { continuation.resume(returning: early) }
    }

    func resume(_ value: T) {
        let continuation: CheckedContinuation<T, Never>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .early(value)
                return nil
            case .installed(let c):
                state = .done
                return c
            case .early, .done:
                return nil
            }
        }
        continuation?.resume(returning: value)
    }
}
