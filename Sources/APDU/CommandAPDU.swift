/// An ISO/IEC 7816-4 command: header, optional data and an optional expected length.
///
/// Short form carries up to 255 data bytes and Le up to 256; extended form up to
/// 65535 data bytes and Le up to 65536. `encoded()` picks the short form whenever
/// the command fits it, unless extended form is requested.
public struct CommandAPDU: Hashable, Sendable {
    public var cla: UInt8
    public var ins: UInt8
    public var p1: UInt8
    public var p2: UInt8
    public var data: [UInt8]
    /// Expected response length: `nil` for none, 1...65536 otherwise (256 and 65536 are "all").
    public var le: Int?

    public static let maxShortData = 255
    public static let maxShortLe = 256
    public static let maxExtendedData = 65535
    public static let maxExtendedLe = 65536

    public init(cla: UInt8 = 0x00, ins: UInt8, p1: UInt8 = 0, p2: UInt8 = 0, data: [UInt8] = [], le: Int? = nil) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.le = le
    }

    /// Whether this command needs the extended length form.
    public var needsExtendedLength: Bool {
        data.count > Self.maxShortData || (le ?? 0) > Self.maxShortLe
    }

    /// The bytes to send.
    /// - Parameter extended: force the extended form even where the short one fits.
    /// - Throws: `APDUError.lengthOutOfRange` when data or Le are too long for any form.
    public func encoded(extended: Bool = false) throws(APDUError) -> [UInt8] {
        guard data.count <= Self.maxExtendedData else {
            throw .lengthOutOfRange(field: "Lc", value: data.count, maximum: Self.maxExtendedData)
        }
        if let le, !(1...Self.maxExtendedLe).contains(le) {
            throw .lengthOutOfRange(field: "Le", value: le, maximum: Self.maxExtendedLe)
        }
        var out: [UInt8] = [cla, ins, p1, p2]
        out.reserveCapacity(4 + 3 + data.count + 3)
        if extended || needsExtendedLength {
            if !data.isEmpty {
                out += [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)]
                out += data
            }
            if let le {
                let value = le == Self.maxExtendedLe ? 0 : le
                out += data.isEmpty ? [0x00] : []
                out += [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            }
        } else {
            if !data.isEmpty {
                out.append(UInt8(data.count))
                out += data
            }
            if let le { out.append(le == Self.maxShortLe ? 0 : UInt8(le)) }
        }
        return out
    }

    /// Parses a command as a card receives it (all four ISO/IEC 7816-3 cases, short and extended).
    /// - Throws: `APDUError.malformedCommand` naming what is wrong.
    public init(bytes: [UInt8]) throws(APDUError) {
        guard bytes.count >= 4 else { throw .malformedCommand("shorter than the 4-byte header") }
        self.init(cla: bytes[0], ins: bytes[1], p1: bytes[2], p2: bytes[3])
        let body = bytes[4...]
        if body.isEmpty { return }  // case 1
        if body.count == 1 {  // case 2 short
            le = body.first == 0 ? 256 : Int(body[body.startIndex])
            return
        }
        let b0 = body[body.startIndex]
        if b0 != 0 {  // short, case 3 or 4
            let lc = Int(b0)
            switch body.count {
            case 1 + lc: data = Array(body.dropFirst())
            case 2 + lc:
                data = Array(body.dropFirst().prefix(lc))
                let l = body[body.endIndex - 1]
                le = l == 0 ? 256 : Int(l)
            default: throw .malformedCommand("Lc is \(lc) but \(body.count - 1) bytes follow")
            }
            return
        }
        // Extended: first byte 00.
        guard body.count >= 3 else { throw .malformedCommand("extended length field truncated") }
        let n = Int(body[body.startIndex + 1]) << 8 | Int(body[body.startIndex + 2])
        if body.count == 3 {  // case 2 extended
            le = n == 0 ? 65536 : n
            return
        }
        guard n > 0 else { throw .malformedCommand("extended Lc of zero") }
        let rest = body.dropFirst(3)
        switch rest.count {
        case n: data = Array(rest)
        case n + 2:
            data = Array(rest.prefix(n))
            let l = Int(rest[rest.endIndex - 2]) << 8 | Int(rest[rest.endIndex - 1])
            le = l == 0 ? 65536 : l
        default: throw .malformedCommand("extended Lc is \(n) but \(rest.count) bytes follow")
        }
    }
}

extension CommandAPDU: CustomStringConvertible {
    /// Header, lengths and INS only: command data may be personal (an MRZ key, a PIN),
    /// so it is never part of the description.
    public var description: String {
        let header = [cla, ins, p1, p2].hexString
        return "\(header) Lc=\(data.count)" + (le.map { " Le=\($0)" } ?? "")
    }
}
