import MRTD
import Testing

@Suite struct TLVTests {
    @Test func parsesEFCOMFromAppendixD4() throws {
        // The 22 bytes of EF.COM read in Part 11 Appendix D.4.
        let com = try TLV.parse(hex("60145F0104303130365F36063034303030305C026175"))
        #expect(com.tag == 0x60)
        #expect(com.isConstructed)
        #expect(com.children.map(\.tag) == [0x5F01, 0x5F36, 0x5C])
        #expect(com.child(0x5F01)?.value == Array("0106".utf8))
        #expect(com.child(0x5F36)?.value == Array("040000".utf8))
        #expect(com.child(0x5C)?.value == [0x61, 0x75])
        #expect(com.child(0x5C)?.range == 18..<22)
        #expect(com.range == 0..<22)
    }

    @Test func tagsOfOneTwoAndThreeBytes() throws {
        let objects = try TLV.parseAll(hex("87 01 AA  5F1F 01 BB  5F8101 01 CC"))
        #expect(objects.map(\.tag) == [0x87, 0x5F1F, 0x5F8101])
        #expect(objects.map(\.value) == [[0xAA], [0xBB], [0xCC]])
        #expect(objects.map { $0.isConstructed } == [false, false, false])
    }

    @Test func lengthsOfOneToFourBytes() throws {
        for (prefix, count) in [([UInt8](arrayLiteral: 0x81), 200), ([0x82], 300), ([0x83], 70000), ([0x84], 70001)] {
            let lengthBytes = prefix[0] == 0x81 ? [UInt8(count)]
                : prefix[0] == 0x82 ? [UInt8(count >> 8), UInt8(count & 0xFF)]
                : prefix[0] == 0x83 ? [UInt8(count >> 16), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
                : [0, UInt8(count >> 16), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            let value = [UInt8](repeating: 0x5A, count: count)
            let object = try TLV.parse([0x04] + prefix + lengthBytes + value)
            #expect(object.value.count == count)
        }
    }

    @Test func indefiniteLengthConstructedObjects() throws {
        let object = try TLV.parse(hex("30 80  02 01 05  31 80 04 02 AA BB 00 00  00 00"))
        #expect(object.tag == 0x30)
        #expect(object.children.map(\.tag) == [0x02, 0x31])
        #expect(object.children[1].children.first?.value == [0xAA, 0xBB])
        #expect(object.children[1].range == 5..<13)
        #expect(object.range == 0..<15)
        #expect(object.value == hex("02 01 05 31 80 04 02 AA BB 00 00"))
    }

    @Test func definiteInsideIndefiniteInsideDefinite() throws {
        let object = try TLV.parse(hex("61 09 30 80 04 03 01 02 03 00 00"))
        #expect(object.children.first?.children.first?.value == [1, 2, 3])
    }

    @Test(arguments: [
        ("", TLVError.truncatedTag(offset: 0)),
        ("5F", .truncatedTag(offset: 0)),
        ("5F81", .truncatedTag(offset: 0)),
        ("5F818101 01 00", .tagTooLong(offset: 0)),
        ("87", .truncatedLength(offset: 1)),
        ("87 82 01", .truncatedLength(offset: 1)),
        ("87 85 00 00 00 00 01 00", .unsupportedLength(offset: 1)),
        ("87 FF", .unsupportedLength(offset: 1)),
        ("87 05 01 02", .lengthBeyondEnd(offset: 1, length: 5, available: 2)),
        ("87 84 FF FF FF FF 00", .lengthBeyondEnd(offset: 1, length: 0xFFFF_FFFF, available: 1)),
        ("30 03 04 05 00", .lengthBeyondEnd(offset: 3, length: 5, available: 1)),
        ("04 80 01 00 00", .indefiniteLengthOnPrimitive(offset: 1)),
        ("30 80 02 01 05", .missingEndOfContents(offset: 0)),
        ("30 80 02 01 05 00 01", .unexpectedEndOfContents(offset: 5)),
        ("00 00", .unexpectedEndOfContents(offset: 0)),
        ("87 01 AA 99", .trailingBytes(offset: 3)),
    ])
    func malformedInputReportsWhereItBreaks(input: String, expected: TLVError) {
        #expect(throws: expected) { try TLV.parse(hex(input)) }
    }

    @Test func errorInALaterObjectPointsAtIt() {
        #expect(throws: TLVError.lengthBeyondEnd(offset: 4, length: 3, available: 1)) {
            try TLV.parseAll(hex("87 01 AA 87 03 BB"))
        }
    }

    @Test func deepNestingStopsWithAnErrorNotACrash() {
        let input = [UInt8]((0..<40).flatMap { _ in [0x30, 0x80] })
        #expect(throws: TLVError.nestingTooDeep(offset: 66)) { try TLV.parse(input) }
        let definite = [UInt8]((0..<2000).flatMap { _ in [0x30, 0x81] })  // truncated, deep: must still just throw
        #expect(throws: TLVError.self) { try TLV.parse(definite) }
    }

    @Test func descriptionShowsTagAndLengthOnly() throws {
        let object = try TLV.parse(hex("5F1F 03 41 42 43"))
        #expect(object.description == "TLV(tag: 5F1F, length: 3)")
    }

    @Test func errorOffsetIsExposed() {
        #expect(TLVError.truncatedLength(offset: 7).offset == 7)
        #expect(TLVError.lengthBeyondEnd(offset: 3, length: 9, available: 1).offset == 3)
    }
}
