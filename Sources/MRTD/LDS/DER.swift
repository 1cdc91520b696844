/// A small DER encoder: the reader's few structures (an ECDSA signature in DER), and the
/// virtual passport's test documents (`LDSEncoder`).
package enum DER {
    /// One object with any tag of up to three bytes.
    package static func tlv(_ tag: UInt32, _ value: [UInt8]) -> [UInt8] {
        unsignedBytes(Int(tag)) + TLV.encodeLength(value.count) + value
    }

    package static func sequence(_ items: [UInt8]...) -> [UInt8] { tlv(0x30, items.flatMap { $0 }) }
    package static func set(_ items: [UInt8]...) -> [UInt8] { tlv(0x31, items.flatMap { $0 }) }
    package static func oid(_ oid: OID) -> [UInt8] { tlv(0x06, oid.contents) }
    package static func octetString(_ value: [UInt8]) -> [UInt8] { tlv(0x04, value) }
    package static func printableString(_ text: String) -> [UInt8] { tlv(0x13, Array(text.utf8)) }

    /// A non-negative INTEGER in the fewest bytes.
    package static func integer(_ value: Int) -> [UInt8] {
        var bytes = unsignedBytes(value)
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    /// A non-negative number big-endian in the fewest bytes (at least one), as a key
    /// reference (DO'84') carries it.
    package static func unsignedBytes(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        return bytes
    }

    /// An AlgorithmIdentifier without parameters.
    package static func algorithm(_ oid: OID) -> [UInt8] { sequence(self.oid(oid)) }
}
