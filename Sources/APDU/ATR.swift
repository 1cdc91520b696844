/// An Answer To Reset (ISO/IEC 7816-3), parsed: protocols, interface and historical
/// bytes, and what the historical bytes announce (ISO/IEC 7816-4 §8.1.1).
///
/// Contactless cards seen through a PC/SC reader get a synthesised ATR (PC/SC part 3,
/// `3B 8n 80 01 <historical bytes> TCK`) whose historical bytes are the card's ATS
/// historical bytes, so the same parsing applies.
public struct ATR: Hashable, Sendable {
    public let bytes: [UInt8]
    /// Protocols announced by TDi (T=0 when none is).
    public let protocols: [Int]
    public let historicalBytes: [UInt8]
    /// `true`/`false` when a TCK is present and does/doesn't check; `nil` when absent.
    public let checksumValid: Bool?

    /// Parses the bytes.
    /// - Throws: `ATRError` naming the byte that is missing or invalid.
    public init(bytes: [UInt8]) throws(ATRError) {
        self.bytes = bytes
        guard let ts = bytes.first else { throw .empty }
        guard ts == 0x3B || ts == 0x3F else { throw .invalidTS(ts) }
        guard bytes.count >= 2 else { throw .truncated(expected: "T0") }
        var index = 1
        var y = bytes[1] >> 4
        let historicalCount = Int(bytes[1] & 0x0F)
        index = 2
        var protocols: [Int] = []
        while true {
            for bit in [UInt8(0x1), 0x2, 0x4] where y & bit != 0 {
                guard index < bytes.count else { throw .truncated(expected: "interface byte") }
                index += 1
            }
            guard y & 0x8 != 0 else { break }
            guard index < bytes.count else { throw .truncated(expected: "TD") }
            let td = bytes[index]
            index += 1
            protocols.append(Int(td & 0x0F))
            y = td >> 4
        }
        guard index + historicalCount <= bytes.count else { throw .truncated(expected: "historical bytes") }
        historicalBytes = Array(bytes[index..<(index + historicalCount)])
        index += historicalCount
        let needsTCK = protocols.contains { $0 != 0 }
        if needsTCK {
            guard index < bytes.count else { throw .truncated(expected: "TCK") }
            checksumValid = bytes[1...index].reduce(0, ^) == 0
            index += 1
        } else {
            checksumValid = nil
        }
        guard index == bytes.count else { throw .trailingBytes(bytes.count - index) }
        // PC/SC part 3 ATRs chain TD1 = 80 (a nominal T=0) to TD2 = 01; the card speaks T=1.
        let isPart3 = bytes.count >= 4 && bytes[2] == 0x80 && bytes[3] == 0x01
        self.protocols = isPart3 ? [1] : protocols.isEmpty ? [0] : Array(Set(protocols.filter { $0 != 15 })).sorted()
    }

    /// Whether this is a PC/SC part 3 ATR synthesised for a contactless card.
    public var isContactless: Bool {
        bytes.count >= 4 && bytes[1] >> 4 == 0x8 && bytes[2] == 0x80 && bytes[3] == 0x01
    }

    /// The compact-TLV objects of the historical bytes (category indicator `80`),
    /// keyed by their 4-bit tag. Empty for other categories or malformed objects.
    public var compactTLV: [UInt8: [UInt8]] {
        guard historicalBytes.first == 0x80 else { return [:] }
        var result: [UInt8: [UInt8]] = [:]
        var i = 1
        while i < historicalBytes.count {
            let tag = historicalBytes[i] >> 4
            let length = Int(historicalBytes[i] & 0x0F)
            guard i + 1 + length <= historicalBytes.count else { return result }
            result[tag] = Array(historicalBytes[(i + 1)..<(i + 1 + length)])
            i += 1 + length
        }
        return result
    }

    /// Whether the card capabilities (compact-TLV tag 7, third byte, bit 7) announce
    /// extended Lc and Le; `nil` when the ATR says nothing about it.
    public var extendedLengthAnnounced: Bool? {
        guard let caps = compactTLV[0x7], caps.count >= 3 else { return nil }
        return caps[2] & 0x40 != 0
    }

    /// Whether the card capabilities announce command chaining; `nil` when not said.
    public var commandChainingAnnounced: Bool? {
        guard let caps = compactTLV[0x7], caps.count >= 3 else { return nil }
        return caps[2] & 0x80 != 0
    }

    /// A few lines a technician can read: what the ATR says about the card.
    public var explanation: [String] {
        var lines: [String] = []
        lines.append(isContactless ? "contactless card (PC/SC part 3 ATR)" : "contact card")
        lines.append("protocols: " + protocols.map { "T=\($0)" }.joined(separator: ", "))
        if let checksumValid { lines.append(checksumValid ? "checksum ok" : "checksum WRONG") }
        if historicalBytes.isEmpty {
            lines.append("no historical bytes")
        } else {
            lines.append("historical bytes: \(historicalBytes.hexString)")
        }
        if let rid = compactTLV[0x4], rid.starts(with: [0xA0, 0x00, 0x00, 0x03, 0x06]) {
            lines.append("storage card (PC/SC registered RID), not an ICAO chip")
        }
        switch extendedLengthAnnounced {
        case true?: lines.append("extended length: announced")
        case false?: lines.append("extended length: not supported")
        case nil: lines.append("extended length: not stated (probe or read EF.ATR/INFO)")
        }
        return lines
    }
}

/// Why an ATR could not be parsed.
public enum ATRError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case invalidTS(UInt8)
    case truncated(expected: String)
    case trailingBytes(Int)

    public var description: String {
        switch self {
        case .empty: return "empty ATR"
        case .invalidTS(let ts): return "TS byte \([ts].hexString) is neither 3B nor 3F"
        case .truncated(let what): return "ATR ends before its \(what)"
        case .trailingBytes(let n): return "\(n) unexpected byte(s) after the ATR"
        }
    }
}
