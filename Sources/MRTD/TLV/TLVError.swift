/// Why BER-TLV bytes could not be parsed; every case gives the byte offset of the problem.
public enum TLVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input ends inside a tag.
    case truncatedTag(offset: Int)
    /// A tag longer than three bytes.
    case tagTooLong(offset: Int)
    /// The input ends inside a length field.
    case truncatedLength(offset: Int)
    /// A length field of more than four bytes, or the reserved `FF`.
    case unsupportedLength(offset: Int)
    /// The value would run past the end of the input or of its parent.
    case lengthBeyondEnd(offset: Int, length: Int, available: Int)
    /// Indefinite length (`80`) on a primitive object, which BER forbids.
    case indefiniteLengthOnPrimitive(offset: Int)
    /// An indefinite-length object whose end-of-contents (`00 00`) never comes.
    case missingEndOfContents(offset: Int)
    /// An end-of-contents marker where none may be.
    case unexpectedEndOfContents(offset: Int)
    /// Objects nested deeper than the parser follows.
    case nestingTooDeep(offset: Int)
    /// Bytes after the one object that was expected.
    case trailingBytes(offset: Int)

    /// The byte offset in the parsed input where the problem is.
    public var offset: Int {
        switch self {
        case .truncatedTag(let offset), .tagTooLong(let offset), .truncatedLength(let offset),
            .unsupportedLength(let offset), .lengthBeyondEnd(let offset, _, _),
            .indefiniteLengthOnPrimitive(let offset), .missingEndOfContents(let offset),
            .unexpectedEndOfContents(let offset), .nestingTooDeep(let offset), .trailingBytes(let offset):
            return offset
        }
    }

    public var description: String {
        switch self {
        case .truncatedTag(let offset): return "TLV tag truncated at offset \(offset)"
        case .tagTooLong(let offset): return "TLV tag at offset \(offset) is longer than 3 bytes"
        case .truncatedLength(let offset): return "TLV length truncated at offset \(offset)"
        case .unsupportedLength(let offset): return "TLV length field at offset \(offset) is longer than 4 bytes or reserved"
        case .lengthBeyondEnd(let offset, let length, let available):
            return "TLV value at offset \(offset) claims \(length) bytes but \(available) remain"
        case .indefiniteLengthOnPrimitive(let offset): return "indefinite length on a primitive TLV at offset \(offset)"
        case .missingEndOfContents(let offset): return "indefinite-length TLV at offset \(offset) has no end-of-contents"
        case .unexpectedEndOfContents(let offset): return "unexpected end-of-contents at offset \(offset)"
        case .nestingTooDeep(let offset): return "TLV nesting too deep at offset \(offset)"
        case .trailingBytes(let offset): return "unexpected bytes after the TLV object, from offset \(offset)"
        }
    }
}
