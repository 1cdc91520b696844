import APDU
@testable import MRTD
import Testing

/// Secure messaging known answers and failure handling.
///
/// 3DES: ICAO Doc 9303 Part 11 Appendix D.4. AES: the vectors of tsenger/animamea
/// `SecureMessagingTest` (AES-128, MSE:Set AT) and gmrtd/gmrtd
/// `iso7816/secure_messaging_test.go` (AES-128 command and a 225-byte response,
/// AES-256 decryption with the SSC-derived IV).
@Suite struct SecureMessagingTests {
    static func appendixSession(counter: String = "887022120C06C226") throws -> SecureMessaging {
        try SecureMessaging(
            cipher: .tripleDES, encryptionKey: hex("979EC13B1CBFE9DCD01AB0FED307EAE5"),
            macKey: hex("F1CB1F1FB5ADF208806B89DC579DC1F8"), sendSequenceCounter: hex(counter))
    }

    @Test func appendixD4CommandsAndResponses() throws {
        var session = try Self.appendixSession()
        let select = try session.protect(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]))
        #expect(try select.encoded() == hex("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800"))
        #expect(session.sendSequenceCounter == hex("887022120C06C227"))
        let selected = try session.unprotect(ResponseAPDU(bytes: hex("990290008E08FA855A5D4C50A8ED9000")))
        #expect(selected == ResponseAPDU(data: [], status: .success))
        #expect(session.sendSequenceCounter == hex("887022120C06C228"))

        #expect(try session.protect(CommandAPDU(ins: 0xB0, le: 4)).encoded() == hex("0CB000000D9701048E08ED6705417E96BA5500"))
        let head = try session.unprotect(ResponseAPDU(bytes: hex("8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000")))
        #expect(head.data == hex("60145F01"))
        #expect(session.sendSequenceCounter == hex("887022120C06C22A"))
    }

    @Test func aes128CommandAndResponseFromAnimamea() throws {
        var session = try SecureMessaging(
            cipher: .aes128, encryptionKey: hex("68406b4162100563d9c901a6154d2901"),
            macKey: hex("73ff268784f72af833fdc9464049afc9"), sendSequenceCounter: hex("00000000000000000000000000000004"))
        let command = try CommandAPDU(bytes: hex("002281b60f830d44455445535444564445303139"))
        #expect(try session.protect(command).encoded() == hex("0c2281b61d871101a7bb8f230fff9221162ad673b9f319a88e08d8713e9b7a600b4900"))
        let response = try session.unprotect(ResponseAPDU(bytes: hex("990290008e08c8488f79fef386c79000")))
        #expect(response == ResponseAPDU(data: [], status: .success))
        #expect(session.sendSequenceCounter == hex("00000000000000000000000000000006"))
    }

    @Test func aes128CommandFromGmrtd() throws {
        var session = try SecureMessaging(
            cipher: .aes128, encryptionKey: hex("cc86415f2ed7e8fd663b754265695ae1"),
            macKey: hex("581e84b8ee06c4d3eee30461498d7fb3"), sendSequenceCounter: hex("000000000000000000000000000000ba"))
        let command = CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: hex("800a04007f000702020302028401c3"))
        #expect(try session.protect(command).encoded() == hex("0c2241a41d871101980953d37f67558690045d78a853b18a8e08929767a2cef172e200"))
        #expect(session.sendSequenceCounter == hex("000000000000000000000000000000bb"))
    }

    @Test func aes128LongResponseFromGmrtd() throws {
        var session = try SecureMessaging(
            cipher: .aes128, encryptionKey: hex("a8e85e938514ec67ae33cda3d43d3c48"),
            macKey: hex("27f1adeb705a049a305b0c619b14b9b3"), sendSequenceCounter: hex("0000000000000000000000000000000b"))
        let response = try ResponseAPDU(bytes: hex("""
            8781e1012fabf9e0655d7e987fd28a8aeb19c9cadd990d49399799ed1fe465bcea56da9ba3024291d40d23d7f1e00485d71faddc6d8c1382e8028dd22\
            efdcc72ed47663d56d20dd6c4b867956fe0507313083ae7fc54fb46133f184febbe13ad6fd3e2616a1f4a829e75ada1a0e443ca738288f6014be8a774\
            5d8259b089e6bee35bcc4bf5b63db5fdd84244f67eca099213b70a861b4487225aa68af684278fceb4cb809de42be3ee95b0e0d72bcdb0ed47cb56efc2\
            64e04a9397a90e81ad1d81efa2d14b2ca8ec7bd997f4b1c1fd344d5dee8589c38b227ca4cb35810060a7cc76403e990290008e083eb47ef4fa82afc99000
            """))
        let plain = try session.unprotect(response)
        #expect(plain.status == .success)
        #expect(plain.data == hex("""
            a729901d1a71874700133107ec53306404307bc382c63d8c150c3c72080ace05afa0c2bea28e4fb22787139165efba91f90f8aa5814a503ad4eb04a8c7\
            dd22ce2826043004a8c7dd22ce28268b39b55416f0447c2fb77de107dcd2a62e880ea53eeb62d57cb4390295dbc9943ab78696fa504c110461041d1c64\
            f068cf45ffa2a63a81b7c13f6b8847a3e77ef14fe3db7fcafe0cbd10e8e826e03436d646aaef87b2e247d4af1e8abe1d7520f9c2a45cb1eb8e95cfd552\
            62b70b29feec5864e19c054ff99129280e4646217791811142820341263c53150231008cb91e82a3
            """))
        #expect(session.sendSequenceCounter == hex("0000000000000000000000000000000c"))
    }

    @Test func aes256DecryptionUsesTheCounterAsIV() throws {
        let key = hex("74b94f408bbb2cd92571fd5b6370a94cce7a2fa42ae3eb4da47b97ce6eaa24c6")
        let decrypted = try SecureMessagingCipher.aes256.decrypt(
            key: key, counter: hex("00000000000000000000000000000026"),
            data: hex("42e919c115faf69350b01813d77a9e8d91912a7f717afd073f199070e61b79c6")).get()
        #expect(ISO9797.unpad(decrypted, blockSize: 16) == hex("04303130385f36063034303030305c06617563766d6e"))
    }

    @Test func oddInstructionUsesDO85AndLongLengthsRoundTrip() throws {
        var reader = try Self.appendixSession()
        var chip = ChipSide(session: try Self.appendixSession())
        let data = (0..<300).map { UInt8($0 & 0xFF) }
        let protected = try reader.protect(CommandAPDU(ins: 0xB1, p1: 0, p2: 0, data: data, le: 1000))
        #expect(protected.cla == 0x0C)
        #expect(protected.data.first == 0x85)
        #expect(Array(protected.data[1...3]) == [0x82, 0x01, 0x30])  // 304 bytes of cryptogram
        #expect(protected.le == CommandAPDU.maxExtendedLe)
        #expect(try protected.encoded().suffix(2) == [0x00, 0x00])  // Le' = 0000
        let received = try chip.receive(protected)
        #expect(received.data == data)
        #expect(received.le == 1000)

        let answer = try reader.unprotect(chip.reply(data: Array(data.prefix(200)), status: .endOfFileReached))
        #expect(answer == ResponseAPDU(data: Array(data.prefix(200)), status: .endOfFileReached))
    }

    @Test func wrongMACIsRejectedBeforeDecryption() throws {
        var session = try Self.appendixSession(counter: "887022120C06C229")
        // The appendix's READ BINARY answer with the padding indicator broken and the MAC
        // left as it was: a MAC check that ran after decryption would report the padding.
        var bytes = hex("8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000")
        bytes[2] = 0x02
        let error = #expect(throws: MRTDError.self) { try session.unprotect(ResponseAPDU(bytes: bytes)) }
        #expect(error?.code == .macMismatch)
    }

    @Test(arguments: [
        ("8709019FF0EC34F9922651990290008E08AD55CC17140B2DEC9000", MRTDError.Code.macMismatch),
        ("8709019FF0EC34F99226518E08AD55CC17140B2DED9000", .secureMessagingObjectMissing),
        ("8709019FF0EC34F9922651990290009000", .secureMessagingObjectMissing),
        ("8709019FF0EC34F9922651990290008E04AD55CC179000", .secureMessagingObjectMissing),
        ("8709019FF0EC34F9922651990290008E08AD55CC17140B2DED99029000 9000", .malformedSecureMessaging),
        ("8109019FF0EC34F9922651990290008E08AD55CC17140B2DED9000", .malformedSecureMessaging),
        ("870A019FF0EC34F9922651990290008E08AD55CC17140B2DED9000", .malformedSecureMessaging),
        ("6A82", .unprotectedResponse),
        ("6988", .unprotectedResponse),
    ])
    func badResponsesAreTypedErrors(response: String, code: MRTDError.Code) throws {
        var session = try Self.appendixSession(counter: "887022120C06C229")
        let error = #expect(throws: MRTDError.self) { try session.unprotect(ResponseAPDU(bytes: hex(response))) }
        #expect(error?.code == code)
    }

    @Test func plainErrorKeepsItsStatusWord() throws {
        var session = try Self.appendixSession()
        let error = #expect(throws: MRTDError.self) { try session.unprotect(ResponseAPDU(bytes: hex("6A82"))) }
        #expect(error?.statusWord == .fileNotFound)
        #expect(error?.description.contains("6A82") == true)
    }

    @Test func malformedTLVCarriesTheParserErrorAsCause() throws {
        var session = try Self.appendixSession()
        let error = #expect(throws: MRTDError.self) { try session.unprotect(ResponseAPDU(bytes: hex("8709019FF0 9000"))) }
        #expect(error?.cause as? TLVError == .lengthBeyondEnd(offset: 1, length: 9, available: 3))
    }

    @Test func rejectsKeysOfTheWrongLength() {
        #expect(throws: MRTDError.self) {
            try SecureMessaging(cipher: .aes256, encryptionKey: [UInt8](repeating: 0, count: 16), macKey: [UInt8](repeating: 0, count: 16), sendSequenceCounter: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: MRTDError.self) {
            try SecureMessaging(cipher: .tripleDES, encryptionKey: [UInt8](repeating: 0, count: 16), macKey: [UInt8](repeating: 0, count: 16), sendSequenceCounter: [UInt8](repeating: 0, count: 16))
        }
    }

    @Test func channelClosesAfterAFailureAndSendsNothingMore() async throws {
        let card = ScriptedTransport(replies: [
            hex("990290008E08FA855A5D4C50A8EC 9000"),  // appendix SELECT answer with the MAC altered
            hex("990290008E08FA855A5D4C50A8ED 9000"),
        ])
        let channel = SecureChannel(over: card, messaging: try Self.appendixSession())
        let select = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E])
        let first = await #expect(throws: MRTDError.self) { try await channel.transmit(select) }
        #expect(first?.code == .macMismatch)
        #expect(await channel.isOpen == false)
        let second = await #expect(throws: MRTDError.self) { try await channel.transmit(select) }
        #expect(second?.code == .channelClosed)
        #expect(await card.sent.count == 1)
    }

    @Test func secondCommandWhileOneIsInFlightIsRefused() async throws {
        let card = GatedTransport()
        let channel = SecureChannel(over: card, messaging: try Self.appendixSession())
        let select = CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E])
        let first = Task { try await channel.transmit(select) }
        var inFlight = false
        for _ in 0..<100_000 where !inFlight {
            inFlight = await card.received == 1
            await Task.yield()
        }
        try #require(inFlight)
        let refused = await #expect(throws: MRTDError.self) { try await channel.transmit(select) }
        #expect(refused?.code == .channelBusy)
        #expect(await card.received == 1)
        try #require(await card.release(with: try ResponseAPDU(bytes: hex("990290008E08FA855A5D4C50A8ED 9000"))))
        // The refused call consumed no counter value: the appendix answer still verifies.
        #expect(try await first.value.status == .success)
        #expect(await channel.isOpen)
    }

    @Test func unprotectableCommandLeavesTheChannelOpen() async throws {
        let card = ScriptedTransport(replies: [hex("990290008E08FA855A5D4C50A8ED 9000")])
        let channel = SecureChannel(over: card, messaging: try Self.appendixSession())
        let huge = CommandAPDU(ins: 0xD6, data: [UInt8](repeating: 0, count: 65535))
        let error = await #expect(throws: MRTDError.self) { try await channel.transmit(huge) }
        #expect(error?.code == .invalidCommand)
        // The appendix exchange still works: the counter did not move.
        let selected = try await channel.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]))
        #expect(selected.status == .success)
    }
}

/// The chip's half of secure messaging, built from the same primitives, to round-trip
/// what no published vector covers (DO'85', long lengths, extended Le).
struct ChipSide {
    var session: SecureMessaging

    mutating func receive(_ command: CommandAPDU) throws -> CommandAPDU {
        var counter = session.sendSequenceCounter
        Bytes.increment(&counter)
        let objects = try TLV.parseAll(command.data)
        let cipher = session.cipher
        let header = ISO9797.pad([command.cla, command.ins, command.p1, command.p2], blockSize: cipher.blockSize)
        let macObject = try #require(objects.last)
        let covered = Array(command.data[0..<macObject.range.lowerBound])
        let mac = try cipher.mac(key: session.macKey, paddedData: ISO9797.pad(counter + header + covered, blockSize: cipher.blockSize)).get()
        #expect(macObject.tag == 0x8E && macObject.value == mac)
        var data: [UInt8] = []
        if let encrypted = objects.first(where: { $0.tag == 0x85 || $0.tag == 0x87 }) {
            let cryptogram = encrypted.tag == 0x87 ? Array(encrypted.value.dropFirst()) : encrypted.value
            data = try #require(ISO9797.unpad(cipher.decrypt(key: session.encryptionKey, counter: counter, data: cryptogram).get(), blockSize: cipher.blockSize))
        }
        var le: Int?
        if let do97 = objects.first(where: { $0.tag == 0x97 }) {
            le = do97.value.reduce(0) { $0 << 8 | Int($1) }
        }
        session = try SecureMessaging(cipher: cipher, encryptionKey: session.encryptionKey, macKey: session.macKey, sendSequenceCounter: counter)
        return CommandAPDU(cla: command.cla & ~0x0C, ins: command.ins, p1: command.p1, p2: command.p2, data: data, le: le)
    }

    mutating func reply(data: [UInt8], status: StatusWord) throws -> ResponseAPDU {
        var counter = session.sendSequenceCounter
        Bytes.increment(&counter)
        let cipher = session.cipher
        var body: [UInt8] = []
        if !data.isEmpty {
            let encrypted = try cipher.encrypt(key: session.encryptionKey, counter: counter, data: ISO9797.pad(data, blockSize: cipher.blockSize)).get()
            body += TLV.encode(tag: 0x87, value: [0x01] + encrypted)
        }
        body += TLV.encode(tag: 0x99, value: [status.sw1, status.sw2])
        let mac = try cipher.mac(key: session.macKey, paddedData: ISO9797.pad(counter + body, blockSize: cipher.blockSize)).get()
        body += TLV.encode(tag: 0x8E, value: mac)
        session = try SecureMessaging(cipher: cipher, encryptionKey: session.encryptionKey, macKey: session.macKey, sendSequenceCounter: counter)
        return ResponseAPDU(data: body, status: status)
    }
}
