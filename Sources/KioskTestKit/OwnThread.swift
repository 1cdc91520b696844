import Foundation

/// Runs `body` on a thread of its own and waits for it without holding a thread of the
/// concurrency pool. The pool has as many threads as cores (two on the CI machine): two
/// tests computing for half a minute each would hold them all, and every other test's
/// tasks would wait (seen as the loopback backend's 10 s deadlines passing). Record
/// expectations on what it returns, in the test itself.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
