/// A BER-TLV data object (ISO/IEC 8825-1 as profiled by ISO/IEC 7816-4 and ICAO Doc 9303):
/// tags of one to three bytes, definite lengths of up to four bytes, and indefinite
/// length for constructed objects.
public struct TLV: Hashable, Sendable {
    /// The tag bytes packed big-endian: `0x5F1F` for `5F 1F`, `0x87` for `87`.
    public let tag: UInt32
    /// The value bytes (for indefinite length: the contents before end-of-contents).
    public let value: [UInt8]
    /// The parsed contents of a constructed object; empty for a primitive one.
    public let children: [TLV]
    /// Where the whole object (tag, length, value and any end-of-contents) sits in the input.
    public let range: Range<Int>
    /// Where the value sits in the input, so a parser of the value can report offsets in
    /// the whole file.
    public let valueRange: Range<Int>

    /// Whether the tag marks a constructed object (bit 6 of its first byte).
    public var isConstructed: Bool { Self.firstByte(of: tag) & 0x20 != 0 }

    /// The first child with `tag`, if any.
    public func child(_ tag: UInt32) -> TLV? {
        children.first { $0.tag == tag }
    }

    static func firstByte(of tag: UInt32) -> UInt8 {
        var value = tag
        while value > 0xFF { value >>= 8 }
        return UInt8(value)
    }
}

extension TLV: CustomStringConvertible {
    /// Tag and length only: the value may be personal data.
    public var description: String {
        "TLV(tag: \(String(tag, radix: 16, uppercase: true)), length: \(value.count))"
    }
}
