/// How many bytes to ask for in each READ BINARY: the largest length the chip and reader
/// accept, stepping down when they refuse one.
///
/// A value with no I/O; ``ChipReader`` asks it for the next Le and tells it what the chip
/// answered. It starts with extended lengths when the transport may accept them; under
/// secure messaging a short answer must hold the padded cryptogram, DO'99' and DO'8E'
/// within 256 bytes, so the first short length is 223 rather than 256.
struct ReadLengthPolicy: Hashable, Sendable {
    /// The lengths still to try, largest first; the first is the current one.
    private(set) var ladder: [Int]
    /// Whether an extended length read has succeeded, so a failure is not the reader's refusal.
    private(set) var extendedConfirmed = false

    /// Extended lengths tried first, when the transport may take them.
    static let extendedLadder = [65536, 4096, 1024]

    init(extendedLength: Bool?, secureMessaging: Bool) {
        let short = secureMessaging ? [223, 160, 128, 64, 32] : [256, 223, 160, 128, 64, 32]
        ladder = (extendedLength == false ? [] : Self.extendedLadder) + short
    }

    /// The Le to ask now.
    var current: Int { ladder.first ?? 32 }

    /// Whether the current length needs an extended APDU.
    var isExtended: Bool { current > 256 }

    /// The Le for a read of `remaining` bytes: never more than the file still holds, so a
    /// chip has no reason to answer 6282.
    func length(remaining: Int, overhead: Int = 0) -> Int {
        min(current, remaining + overhead)
    }

    /// Records a successful read at the current length.
    mutating func succeeded(with le: Int) {
        if le > 256 { extendedConfirmed = true }
    }

    /// Steps down after a refusal (6700, a plain error, a lost session around a long
    /// answer); with `exact` (from 6Cxx), to that length.
    /// - Returns: `false` when there is no smaller length left to try.
    mutating func reduce(to exact: Int? = nil) -> Bool {
        if let exact, exact > 0, exact < current {
            ladder = [exact] + ladder.filter { $0 < exact }
            return true
        }
        guard ladder.count > 1 else { return false }
        ladder.removeFirst()
        return true
    }

    /// Drops the extended lengths, when the reader turned out not to carry them.
    mutating func dropExtended() {
        let short = ladder.filter { $0 <= 256 }
        ladder = short.isEmpty ? [32] : short
    }
}
