/// An ISO/IEC 7816-4 response: data and the status word.
public struct ResponseAPDU: Hashable, Sendable {
    public var data: [UInt8]
    public var status: StatusWord

    public init(data: [UInt8] = [], status: StatusWord) {
        self.data = data
        self.status = status
    }

    /// Splits raw response bytes into data and status word.
    /// - Throws: `APDUError.malformedResponse` when fewer than two bytes arrived; a
    ///   reader that answers "success" with no bytes has lost the card.
    public init(bytes: [UInt8]) throws(APDUError) {
        guard bytes.count >= 2 else {
            throw .malformedResponse(length: bytes.count)
        }
        data = Array(bytes.dropLast(2))
        status = StatusWord(sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1])
    }

    public var bytes: [UInt8] { data + [status.sw1, status.sw2] }
}

extension ResponseAPDU: CustomStringConvertible {
    /// Length and status only; response data may be personal.
    public var description: String { "\(data.count) bytes, SW \(status)" }
}

extension Sequence where Element == UInt8 {
    /// Upper-case hex without separators.
    ///
    /// Meant for bytes that identify no one (APDU headers, status words, ATRs). Never
    /// use it on response data, keys or anything read from a document: hex is no
    /// disguise, and the log redactor is only the last line of defence.
    public var hexString: String {
        var s = ""
        for byte in self {
            s += String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
        }
        return s
    }
}

extension Array where Element == UInt8 {
    /// Bytes from hex; spaces and colons are ignored. `nil` when the text is not hex.
    public init?(hex: some StringProtocol) {
        var out: [UInt8] = []
        var high: UInt8?
        for c in hex.unicodeScalars {
            if c == " " || c == ":" || c == "\n" { continue }
            guard let v = UInt8(String(c), radix: 16) else { return nil }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        guard high == nil else { return nil }
        self = out
    }
}
