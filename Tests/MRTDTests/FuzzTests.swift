import APDU
@testable import MRTD
import Testing
import VirtualPassport

/// Seeded random inputs: the parsers must answer every one with a value or a typed
/// error, never a trap, and what they accept must be self-consistent.
@Suite struct FuzzTests {
    /// Bytes that steer the parser into its branches: tag and length markers, EOC, SM tags.
    static let interesting: [UInt8] = [0x00, 0x01, 0x02, 0x1F, 0x30, 0x5F, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x87, 0x8E, 0x99, 0xFF]

    static func randomInput(_ generator: inout SeededGenerator, maximumLength: Int) -> [UInt8] {
        let length = Int.random(in: 0...maximumLength, using: &generator)
        return (0..<length).map { _ in
            Bool.random(using: &generator)
                ? interesting[Int.random(in: 0..<interesting.count, using: &generator)]
                : UInt8.random(in: 0...255, using: &generator)
        }
    }

    @Test func tlvParserSurvivesTenThousandRandomInputs() {
        var generator = SeededGenerator(state: 0x1CA0_9303)
        var accepted = 0
        var rejected = 0
        for _ in 0..<10_000 {
            let input = Self.randomInput(&generator, maximumLength: 48)
            do {
                let objects = try TLV.parseAll(input)
                accepted += 1
                // Accepted objects tile the input exactly.
                var next = 0
                for object in objects {
                    #expect(object.range.lowerBound == next)
                    next = object.range.upperBound
                }
                #expect(next == input.count)
            } catch {
                rejected += 1
                #expect((0...input.count).contains(error.offset))
            }
        }
        #expect(accepted + rejected == 10_000)
        // Both outcomes must occur, or the generator is not exercising the parser.
        #expect(accepted > 100)
        #expect(rejected > 100)
    }

    @Test func secureMessagingNeverAcceptsARandomResponse() throws {
        var generator = SeededGenerator(state: 0x0C06_C226)
        let valid = hex("8709019FF0EC34F9922651990290008E08AD55CC17140B2DED")
        var macChecked = 0
        for round in 0..<10_000 {
            var session = try SecureMessagingTests.appendixSession(counter: "887022120C06C229")
            var data: [UInt8]
            switch round % 3 {
            case 0:
                data = Self.randomInput(&generator, maximumLength: 64)
            case 1:
                // Well-formed objects around random content, so the MAC check is reached.
                let blocks = Int.random(in: 1...4, using: &generator)
                let cryptogram = (0..<(8 * blocks)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let mac = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
                data = [0x87, UInt8(1 + cryptogram.count), 0x01] + cryptogram + [0x99, 0x02, 0x90, 0x00, 0x8E, 0x08] + mac
            default:
                // The appendix's valid answer with one byte changed.
                data = valid
                let index = Int.random(in: 0..<data.count, using: &generator)
                data[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
            let status = StatusWord(rawValue: UInt16.random(in: 0...0xFFFF, using: &generator))
            do {
                let response = try session.unprotect(ResponseAPDU(data: data, status: status))
                Issue.record("accepted a forged response with status \(response.status)")
            } catch {
                if error.code == .macMismatch { macChecked += 1 }
            }
        }
        #expect(macChecked > 3000)
    }

    /// Every LDS parser over seeded mutations of a valid file and over random bytes: a
    /// value or an ``LDSError`` whose offset lies inside the input, never a trap.
    @Test func ldsParsersSurviveMutatedFiles() throws {
        let issuer = try TestIssuer(signerValidity: 0...Int64(4_000_000_000))
        let parsers: [(name: String, valid: [UInt8], parse: ([UInt8]) throws(LDSError) -> Void)] = [
            ("EF.COM", LDSEncoder.com(dataGroups: [.dg1, .dg2, .dg14]), { bytes throws(LDSError) in _ = try EFCOM(bytes) }),
            ("DG1", LDSEncoder.dataGroup1(mrz: LDSTests.td3Line), { bytes throws(LDSError) in _ = try DataGroup1(bytes) }),
            ("DG2", LDSEncoder.dataGroup2(image: [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 9, count: 40), width: 2, height: 3),
             { bytes throws(LDSError) in _ = try DataGroup2(bytes) }),
            ("DG2 39794", LDSEncoder.dataGroup2(image: [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 9, count: 40), width: 2, height: 3, format: .iso39794),
             { bytes throws(LDSError) in _ = try DataGroup2(bytes) }),
            ("DG7", DER.tlv(0x67, DER.tlv(0x02, [1]) + DER.tlv(0x5F43, [0xFF, 0xD8])), { bytes throws(LDSError) in _ = try DataGroup7(bytes) }),
            ("DG11", DER.tlv(0x6B, DER.tlv(0x5F0E, [0x41]) + DER.tlv(0x5F2B, Array("19740812".utf8))),
             { bytes throws(LDSError) in _ = try DataGroup11(bytes) }),
            ("DG12", DER.tlv(0x6C, DER.tlv(0x5F26, Array("20120415".utf8))), { bytes throws(LDSError) in _ = try DataGroup12(bytes) }),
            ("DG14", LDSEncoder.dataGroup14(securityInfos: [
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.4.2.2"), DER.integer(2), DER.integer(13)),
                DER.sequence(DER.oid("0.4.0.127.0.7.2.2.1.2"), LDSTests.ecKey),
            ]), { bytes throws(LDSError) in _ = try SecurityInfos(dataGroup14: bytes) }),
            ("DG15", LDSEncoder.dataGroup15(subjectPublicKeyInfo: LDSTests.ecKey), { bytes throws(LDSError) in _ = try DataGroup15(bytes) }),
            ("EF.SOD", SecurityObjectTests.sod(indefinite: false), { bytes throws(LDSError) in _ = try SecurityObject(bytes) }),
            ("EF.SOD BER", SecurityObjectTests.sod(indefinite: true), { bytes throws(LDSError) in _ = try SecurityObject(bytes) }),
            ("master list", try MasterListTests.masterList(signedBy: issuer, listing: [issuer.cscaCertificate]),
             { bytes throws(LDSError) in _ = try CSCAMasterList(bytes) }),
        ]
        var generator = SeededGenerator(state: 0x0009_3030)
        for parser in parsers {
            try parser.parse(parser.valid)  // the unmutated file parses
            var rejected = 0
            for round in 0..<2_000 {
                var input = parser.valid
                switch round % 4 {
                case 0: input = Self.randomInput(&generator, maximumLength: 64)
                case 1:
                    let index = Int.random(in: 0..<input.count, using: &generator)
                    input[index] = Self.interesting[Int.random(in: 0..<Self.interesting.count, using: &generator)]
                case 2:
                    for _ in 0..<Int.random(in: 1...4, using: &generator) {
                        input[Int.random(in: 0..<input.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                    }
                default: input = Array(input.prefix(Int.random(in: 0..<input.count, using: &generator)))
                }
                do {
                    try parser.parse(input)
                } catch {
                    rejected += 1
                    #expect((0...input.count).contains(error.offset), "\(parser.name): offset \(error.offset) outside \(input.count) bytes")
                }
            }
            #expect(rejected > 500, "\(parser.name) rejected only \(rejected) inputs")
        }
    }

    /// The chip's secure messaging decoder (used by the virtual passport) never accepts a
    /// forged or mutated command, and never traps.
    @Test func chipSideNeverAcceptsAForgedCommand() throws {
        var generator = SeededGenerator(state: 0xC41F_9303)
        var terminal = try SecureMessagingTests.appendixSession(counter: "887022120C06C226")
        let genuine = try terminal.protect(CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x04, le: 18))
        var accepted = 0
        for round in 0..<5_000 {
            var chip = try SecureMessagingTests.appendixSession(counter: "887022120C06C226")
            var command = genuine
            if round % 2 == 0 {
                command.data = Self.randomInput(&generator, maximumLength: 48)
            } else {
                let index = Int.random(in: 0..<command.data.count, using: &generator)
                command.data[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
            if (try? chip.unprotectCommand(command)) != nil { accepted += 1 }
        }
        #expect(accepted == 0)
        // The genuine command does pass, so the check above can fail.
        var chip = try SecureMessagingTests.appendixSession(counter: "887022120C06C226")
        #expect(try chip.unprotectCommand(genuine) == CommandAPDU(ins: 0xB0, p1: 0x00, p2: 0x04, le: 18))
    }
}
