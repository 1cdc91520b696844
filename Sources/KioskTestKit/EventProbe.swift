/// Reads an async sequence's elements one by one with a time limit, so a test that
/// waits for an event fails instead of hanging when the event never comes.
public actor EventProbe<Element: Sendable> {
    private var buffer: [Element] = []
    private var waiter: CheckedContinuation<Element?, Never>?
    private var waiterID = 0
    private var finished = false
    private var pump: Task<Void, Never>?

    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        pump = nil
        Task { await self.start(sequence) }
    }

    private func start<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        pump = Task {
            do {
                for try await element in sequence { self.deliver(element) }
            } catch {}
            self.finish()
        }
    }

    private func deliver(_ element: Element) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: element)
        } else {
            buffer.append(element)
        }
    }

    private func finish() {
        finished = true
        waiter?.resume(returning: nil)
        waiter = nil
    }

    /// The next element, or `nil` when none arrives within `limit` or the sequence ended.
    public func next(within limit: Duration = .seconds(10)) async -> Element? {
        if !buffer.isEmpty { return buffer.removeFirst() }
        if finished { return nil }
        waiterID += 1
        let id = waiterID
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self.timeOut(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { waiter = $0 }
    }

    private func timeOut(_ id: Int) {
        guard id == waiterID else { return }
        waiter?.resume(returning: nil)
        waiter = nil
    }

    /// Skips elements until one satisfies `predicate`; `nil` when none does within `limit` in all.
    public func first(within limit: Duration = .seconds(10), where predicate: @Sendable (Element) -> Bool) async -> Element? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            guard let element = await next(within: deadline - ContinuousClock.now) else { return nil }
            if predicate(element) { return element }
        }
        return nil
    }

    /// Everything received so far without waiting.
    public func drain() -> [Element] {
        defer { buffer = [] }
        return buffer
    }

    /// Stops consuming the sequence.
    public func cancel() { pump?.cancel() }
}
