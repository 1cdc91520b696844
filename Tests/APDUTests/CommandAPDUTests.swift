import APDU
import Testing

@Suite struct CommandAPDUTests {
    @Test func case1HeaderOnly() throws {
        #expect(try CommandAPDU(ins: 0x84).encoded() == [0x00, 0x84, 0x00, 0x00])
    }

    @Test func case2ShortLe256EncodesAsZero() throws {
        let c = CommandAPDU(ins: 0xB0, le: 256)
        #expect(try c.encoded() == [0x00, 0xB0, 0x00, 0x00, 0x00])
    }

    @Test func case4Short() throws {
        let c = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E], le: 0x10)
        #expect(try c.encoded() == [0x00, 0xA4, 0x02, 0x0C, 0x02, 0x01, 0x1E, 0x10])
    }

    @Test func case2ExtendedWhenLeOver256() throws {
        let c = CommandAPDU(ins: 0xB0, le: 1000)
        #expect(try c.encoded() == [0x00, 0xB0, 0x00, 0x00, 0x00, 0x03, 0xE8])
        #expect(try CommandAPDU(ins: 0xB0, le: 65536).encoded() == [0x00, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    @Test func case4ExtendedForced() throws {
        let c = CommandAPDU(ins: 0xB1, data: [0x54, 0x02, 0x80, 0x00], le: 65536)
        #expect(try c.encoded(extended: true) == [0x00, 0xB1, 0x00, 0x00, 0x00, 0x00, 0x04, 0x54, 0x02, 0x80, 0x00, 0x00, 0x00])
    }

    @Test func rejectsOutOfRangeLengths() {
        #expect(throws: APDUError.lengthOutOfRange(field: "Le", value: 0, maximum: 65536)) {
            try CommandAPDU(ins: 0xB0, le: 0).encoded()
        }
        #expect(throws: APDUError.self) { try CommandAPDU(ins: 0xD6, data: Array(repeating: 0, count: 70000)).encoded() }
    }

    @Test(arguments: [
        CommandAPDU(ins: 0x84, le: 8),
        CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: [0xA0, 0, 0, 2, 0x47, 0x10, 1]),
        CommandAPDU(ins: 0xA4, p1: 4, p2: 0x0C, data: [1, 2, 3], le: 256),
        CommandAPDU(ins: 0xB0, le: 4096),
        CommandAPDU(ins: 0xD6, data: Array(repeating: 7, count: 300)),
        CommandAPDU(ins: 0xD6, data: Array(repeating: 7, count: 300), le: 65536),
        CommandAPDU(cla: 0x0C, ins: 0x2A),
    ])
    func roundTrip(_ command: CommandAPDU) throws {
        #expect(try CommandAPDU(bytes: command.encoded()) == command)
    }

    @Test func parsingRejectsInconsistentLc() {
        #expect(throws: APDUError.malformedCommand("Lc is 5 but 2 bytes follow")) {
            try CommandAPDU(bytes: [0, 0xA4, 0, 0, 5, 1, 2])
        }
        #expect(throws: APDUError.self) { try CommandAPDU(bytes: [0, 0xA4]) }
        #expect(throws: APDUError.self) { try CommandAPDU(bytes: [0, 0xA4, 0, 0, 0, 1]) }
    }

    @Test func descriptionNeverShowsData() {
        let c = CommandAPDU(ins: 0x82, data: [0xDE, 0xAD, 0xBE, 0xEF], le: 40)
        #expect(c.description == "00820000 Lc=4 Le=40")
    }
}

@Suite struct ResponseAPDUTests {
    @Test func splitsStatusWord() throws {
        let r = try ResponseAPDU(bytes: [1, 2, 3, 0x90, 0x00])
        #expect(r.data == [1, 2, 3])
        #expect(r.status == .success)
        #expect(r.bytes == [1, 2, 3, 0x90, 0x00])
    }

    @Test func emptyResponseIsAnError() {
        #expect(throws: APDUError.malformedResponse(length: 0)) { try ResponseAPDU(bytes: []) }
        #expect(throws: APDUError.malformedResponse(length: 1)) { try ResponseAPDU(bytes: [0x90]) }
    }

    @Test func statusWordHelpers() {
        #expect(StatusWord(rawValue: 0x6C10).correctLength == 16)
        #expect(StatusWord(rawValue: 0x6C00).correctLength == 256)
        #expect(StatusWord(rawValue: 0x6110).remainingBytes == 16)
        #expect(StatusWord(rawValue: 0x6110).isSuccess)
        #expect(!StatusWord.securityStatusNotSatisfied.isSuccess)
        #expect(StatusWord.fileNotFound.description == "6A82")
        #expect(StatusWord(rawValue: 0x0001).description == "0001")
        #expect(StatusWord.securityStatusNotSatisfied.meaning == "security status not satisfied")
    }

    @Test func hexRoundTrip() {
        #expect([UInt8](hex: "3b 8a:80") == [0x3B, 0x8A, 0x80])
        #expect([UInt8](hex: "3B8") == nil)
        #expect([UInt8](hex: "zz") == nil)
        #expect([0x0A, 0xFF].hexString == "0AFF")
    }
}
