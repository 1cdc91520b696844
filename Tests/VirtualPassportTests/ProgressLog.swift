import MRTD
import Synchronization

/// Collects progress reports from any thread.
final class ProgressLog: Sendable {
    private let values = Mutex<[ChipReadProgress]>([])
    var all: [ChipReadProgress] { values.withLock { $0 } }
    func record(_ progress: ChipReadProgress) { values.withLock { $0.append(progress) } }
}
