import Synchronization

/// The display's camera preview: small JPEGs, the newest only, to whoever watches.
public final class PreviewFeed: Sendable {
    private struct State {
        var next = 0
        var watchers: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// A stream of preview JPEGs; a slow watcher gets the newest and misses the rest.
    public func frames() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.next += 1
            state.watchers[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    public var hasWatchers: Bool { state.withLock { !$0.watchers.isEmpty } }

    func publish(_ jpeg: [UInt8]) {
        let watchers = state.withLock { Array($0.watchers.values) }
        for watcher in watchers { watcher.yield(jpeg) }
    }
}
