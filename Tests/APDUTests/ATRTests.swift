import APDU
import Testing

@Suite struct ATRTests {
    // A PC/SC part 3 ATR with compact-TLV historical bytes: 3B 8A 80 01 + ATS historical bytes + TCK.
    @Test func contactlessEIDWithCardCapabilities() throws {
        let atr = try ATR(bytes: [UInt8](hex: "3B 8A 80 01 80 31 F8 73 F7 41 E0 82 90 00 75")!)
        #expect(atr.isContactless)
        #expect(atr.protocols == [1])
        #expect(atr.checksumValid == true)
        #expect(atr.historicalBytes == [UInt8](hex: "80 31 F8 73 F7 41 E0 82 90 00")!)
        #expect(atr.compactTLV[0x7] == [0xF7, 0x41, 0xE0])
        #expect(atr.extendedLengthAnnounced == true)
        #expect(atr.commandChainingAnnounced == true)
    }

    @Test func capabilitiesWithoutExtendedLength() throws {
        // Same card capabilities object with bit 7 of the third byte cleared; TCK recomputed.
        var bytes = [UInt8](hex: "3B 8A 80 01 80 31 F8 73 F7 41 A0 82 90 00")!
        bytes.append(bytes.dropFirst().reduce(0, ^))
        let atr = try ATR(bytes: bytes)
        #expect(atr.checksumValid == true)
        #expect(atr.extendedLengthAnnounced == false)
    }

    @Test func contactT0WithoutTCK() throws {
        let atr = try ATR(bytes: [UInt8](hex: "3B 02 14 50")!)
        #expect(atr.protocols == [0])
        #expect(atr.checksumValid == nil)
        #expect(atr.historicalBytes == [0x14, 0x50])
        #expect(atr.extendedLengthAnnounced == nil)
        #expect(!atr.isContactless)
    }

    @Test func wrongChecksumIsReported() throws {
        let atr = try ATR(bytes: [UInt8](hex: "3B 8A 80 01 80 31 F8 73 F7 41 E0 82 90 00 76")!)
        #expect(atr.checksumValid == false)
        #expect(atr.explanation.contains("checksum WRONG"))
    }

    @Test func malformedATRs() {
        #expect(throws: ATRError.empty) { try ATR(bytes: []) }
        #expect(throws: ATRError.invalidTS(0x12)) { try ATR(bytes: [0x12, 0x00]) }
        #expect(throws: ATRError.truncated(expected: "historical bytes")) { try ATR(bytes: [0x3B, 0x05, 1, 2]) }
        #expect(throws: ATRError.truncated(expected: "TCK")) { try ATR(bytes: [UInt8](hex: "3B 81 80 01 AA")!) }
        #expect(throws: ATRError.trailingBytes(1)) { try ATR(bytes: [0x3B, 0x01, 0x41, 0x00]) }
    }
}
