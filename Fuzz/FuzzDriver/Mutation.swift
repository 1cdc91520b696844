/// Deterministic mutations of an input, for the normal build's replay (`FUZZ_MUTATIONS`).
///
/// Not coverage-guided: libFuzzer does that in `make fuzz`. These are the edits its mutators
/// start from (bit flips, boundary bytes, truncation, repeated and inserted runs, lengths off
/// by one), seeded by the mutation's index and the input, so a failure is replayed exactly by
/// `FUZZ_MUTATIONS` and the file the log names.
enum Mutation {
    /// The input after the `index`th mutation; the same index and input give the same bytes.
    static func apply(_ index: Int, to input: [UInt8]) -> [UInt8] {
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 ^ fnv1a(input))
        var bytes = input
        // One to four edits, each of a kind chosen at random.
        for _ in 0..<(1 + random.next(below: 4)) {
            edit(&bytes, &random)
        }
        return bytes
    }

    static func edit(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let boundary: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x3C, 0x0A]  // 0x3C: the MRZ's '<'
        switch random.next(below: 7) {
        case 0 where !bytes.isEmpty:  // flip one bit
            let i = random.next(below: bytes.count)
            bytes[i] ^= UInt8(1) << UInt8(random.next(below: 8))
        case 1 where !bytes.isEmpty:  // a boundary byte
            bytes[random.next(below: bytes.count)] = boundary[random.next(below: boundary.count)]
        case 2 where !bytes.isEmpty:  // cut the tail
            bytes.removeLast(random.next(below: bytes.count) + 1)
        case 3 where !bytes.isEmpty:  // repeat a run
            let start = random.next(below: bytes.count)
            let run = bytes[start..<min(bytes.count, start + 1 + random.next(below: 64))]
            bytes.insert(contentsOf: run, at: random.next(below: bytes.count + 1))
        case 4:  // insert random bytes
            let count = 1 + random.next(below: 16)
            let inserted = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes.insert(contentsOf: inserted, at: random.next(below: bytes.count + 1))
        case 5 where bytes.count >= 2:  // a byte one more or one less (lengths in TLV, headers)
            let i = random.next(below: bytes.count)
            bytes[i] = random.next(below: 2) == 0 ? bytes[i] &+ 1 : bytes[i] &- 1
        case 6 where !bytes.isEmpty:  // remove a run
            let start = random.next(below: bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.next(below: 32)))
        default:  // an empty input gains a byte
            bytes.append(UInt8(truncatingIfNeeded: random.next()))
        }
    }

    /// FNV-1a over the input: mutations of different inputs differ.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): small, fast, and the same on every platform.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0).
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
