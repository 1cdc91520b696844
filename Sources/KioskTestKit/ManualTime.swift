public import Foundation
import Synchronization

/// A wall clock (`Date`) that moves only when a test says so: the reference backend's and the
/// outbox's time, moved to expire tokens and age records.
public final class ManualTime: Sendable {
    private let date: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { date = Mutex(start) }

    public var now: Date { date.withLock { $0 } }

    public func advance(seconds: Double) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
