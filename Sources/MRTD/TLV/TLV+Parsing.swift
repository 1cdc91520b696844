extension TLV {
    /// How deep constructed objects may nest; ICAO files nest a handful of levels, and a
    /// bound keeps hostile input from exhausting the stack.
    static let maximumDepth = 32

    /// Parses every object in `bytes`, one after the other.
    /// - Throws: ``TLVError`` with the offset of the first malformed byte.
    public static func parseAll(_ bytes: [UInt8]) throws(TLVError) -> [TLV] {
        var parser = Parser(bytes: bytes)
        return try parser.objects(until: bytes.count, depth: 0)
    }

    /// Parses exactly one object that fills `bytes`.
    /// - Throws: ``TLVError``; `.trailingBytes` when bytes follow the object.
    public static func parse(_ bytes: [UInt8]) throws(TLVError) -> TLV {
        var parser = Parser(bytes: bytes)
        let object = try parser.object(limit: bytes.count, depth: 0)
        guard parser.position == bytes.count else {
            throw .trailingBytes(offset: parser.position)
        }
        return object
    }

    /// Encodes a primitive object with a one-byte tag (the secure messaging data objects).
    package static func encode(tag: UInt8, value: [UInt8]) -> [UInt8] {
        [tag] + encodeLength(value.count) + value
    }

    /// The shortest definite length encoding of `length`.
    package static func encodeLength(_ length: Int) -> [UInt8] {
        switch length {
        case ..<0x80: return [UInt8(length)]
        case ..<0x100: return [0x81, UInt8(length)]
        case ..<0x10000: return [0x82, UInt8(length >> 8), UInt8(length & 0xFF)]
        case ..<0x100_0000: return [0x83, UInt8(length >> 16), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        default: return [0x84, UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        }
    }

    /// A cursor over the input; every read checks its bound first, so nothing traps.
    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func objects(until end: Int, depth: Int) throws(TLVError) -> [TLV] {
            var result: [TLV] = []
            while position < end {
                result.append(try object(limit: end, depth: depth))
            }
            return result
        }

        mutating func object(limit: Int, depth: Int) throws(TLVError) -> TLV {
            let start = position
            guard depth <= TLV.maximumDepth else { throw .nestingTooDeep(offset: start) }
            let tag = try readTag(limit: limit)
            if tag == 0x00 { throw .unexpectedEndOfContents(offset: start) }
            let constructed = TLV.firstByte(of: tag) & 0x20 != 0
            let lengthOffset = position
            guard position < limit else { throw .truncatedLength(offset: position) }
            let first = bytes[position]
            position += 1
            if first == 0x80 {
                guard constructed else { throw .indefiniteLengthOnPrimitive(offset: lengthOffset) }
                return try indefinite(tag: tag, start: start, limit: limit, depth: depth)
            }
            var length = 0
            if first < 0x80 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                guard count <= 4, first != 0xFF else { throw .unsupportedLength(offset: lengthOffset) }
                guard limit - position >= count else { throw .truncatedLength(offset: lengthOffset) }
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[position])
                    position += 1
                }
            }
            let available = limit - position
            guard length <= available else {
                throw .lengthBeyondEnd(offset: lengthOffset, length: length, available: available)
            }
            let valueStart = position
            let valueEnd = valueStart + length
            var children: [TLV] = []
            if constructed {
                children = try objects(until: valueEnd, depth: depth + 1)
            }
            position = valueEnd
            return TLV(
                tag: tag, value: Array(bytes[valueStart..<valueEnd]), children: children, range: start..<valueEnd,
                valueRange: valueStart..<valueEnd)
        }

        private mutating func indefinite(tag: UInt32, start: Int, limit: Int, depth: Int) throws(TLVError) -> TLV {
            let valueStart = position
            var children: [TLV] = []
            while true {
                guard limit - position >= 2 else { throw .missingEndOfContents(offset: start) }
                if bytes[position] == 0x00 {
                    guard bytes[position + 1] == 0x00 else { throw .unexpectedEndOfContents(offset: position) }
                    let valueEnd = position
                    position += 2
                    return TLV(
                        tag: tag, value: Array(bytes[valueStart..<valueEnd]), children: children, range: start..<position,
                        valueRange: valueStart..<valueEnd)
                }
                children.append(try object(limit: limit, depth: depth + 1))
            }
        }

        private mutating func readTag(limit: Int) throws(TLVError) -> UInt32 {
            let start = position
            guard position < limit else { throw .truncatedTag(offset: start) }
            var tag = UInt32(bytes[position])
            position += 1
            guard tag & 0x1F == 0x1F else { return tag }
            // Subsequent bytes carry bit 8 while more follow (ISO/IEC 8825-1 §8.1.2.4).
            var count = 1
            while true {
                guard position < limit else { throw .truncatedTag(offset: start) }
                let byte = bytes[position]
                position += 1
                count += 1
                guard count <= 3 else { throw .tagTooLong(offset: start) }
                tag = tag << 8 | UInt32(byte)
                if byte & 0x80 == 0 { return tag }
            }
        }
    }
}
