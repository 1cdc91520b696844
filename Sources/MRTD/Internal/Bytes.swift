/// Byte helpers shared by the protocols.
package enum Bytes {
    /// `a` XOR `b`, over the shorter length.
    package static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        zip(a, b).map { $0 ^ $1 }
    }

    /// Compares in time that depends only on the lengths, so a MAC check does not tell an
    /// attacker how many leading bytes were right.
    package static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    /// The four big-endian bytes of `value`.
    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Adds one to a big-endian counter, wrapping to zero.
    package static func increment(_ counter: inout [UInt8]) {
        var index = counter.count - 1
        while index >= 0 {
            counter[index] &+= 1
            if counter[index] != 0 { return }
            index -= 1
        }
    }
}
