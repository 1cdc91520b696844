import APDU
@testable import MRTD
import Testing

/// Basic Access Control against ICAO Doc 9303 Part 11 Appendix D.3 and D.4 (document
/// L898902C<, born 690806, expiring 940623), as reproduced in gmrtd/gmrtd
/// `bac/bac_test.go` and `iso7816/secure_messaging_test.go` and tsenger/animamea
/// `SecureMessagingTest`: the card answers with the appendix's responses and we check
/// every byte we send.
@Suite struct BACTests {
    static let key = try? MRZKey(documentNumber: "L898902C", birthDate: "690806", expiryDate: "940623")
    /// RND.IFD = 781723860C06C226, K.IFD = 0B795240CB7049B01C19B33E32804F0B.
    static func appendixGenerator() -> ScriptedGenerator {
        ScriptedGenerator(words: [0x7817_2386_0C06_C226, 0x0B79_5240_CB70_49B0, 0x1C19_B33E_3280_4F0B])
    }

    static let getChallenge = hex("0084000008")
    static let externalAuthenticate = hex("0082000028 72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2 5F1448EEA8AD90A7 28")
    static let challengeReply = hex("4608F91988702212 9000")
    static let authenticateReply = hex("46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F2F2D235D074D7449 9000")

    @Test func accessKeysFromTheTypedMRZ() throws {
        let key = try #require(Self.key)
        #expect(String(decoding: key.mrzInformation, as: UTF8.self) == "L898902C<369080619406236")
        let keys = try BAC.accessKeys(for: key)
        #expect(keys.seed == hex("239AB9CB282DAF66231DC5A4DF6BFBAE"))
        #expect(keys.encryption == hex("AB94FDECF2674FDFB9B391F85D7F76F2"))
        #expect(keys.mac == hex("7962D9ECE03D1ACD4C76089DCE131543"))
    }

    @Test func establishesTheAppendixSessionAndReadsEFCOM() async throws {
        let key = try #require(Self.key)
        let card = ScriptedTransport(replies: [
            Self.challengeReply,
            Self.authenticateReply,
            hex("990290008E08FA855A5D4C50A8ED 9000"),
            hex("8709019FF0EC34F9922651990290008E08AD55CC17140B2DED 9000"),
            hex("871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A990290008E08C8B2787EAEA07D74 9000"),
        ])
        var generator = Self.appendixGenerator()
        let channel = try await BAC.establish(with: key, over: card, using: &generator)

        let session = try #require(await channel.messaging)
        #expect(session.cipher == .tripleDES)
        #expect(session.encryptionKey == hex("979EC13B1CBFE9DCD01AB0FED307EAE5"))
        #expect(session.macKey == hex("F1CB1F1FB5ADF208806B89DC579DC1F8"))
        #expect(session.sendSequenceCounter == hex("887022120C06C226"))

        // D.4: SELECT EF.COM, then READ BINARY of 4 bytes and of the remaining 18.
        let select = try await channel.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1E]))
        #expect(select == ResponseAPDU(data: [], status: .success))
        let head = try await channel.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 0, le: 4))
        #expect(head.data == hex("60145F01"))
        let rest = try await channel.transmit(CommandAPDU(ins: 0xB0, p1: 0, p2: 4, le: 0x12))
        #expect(rest.data == hex("04303130365F36063034303030305C026175"))
        #expect(rest.status == .success)
        #expect(try #require(await channel.messaging).sendSequenceCounter == hex("887022120C06C22C"))

        #expect(await card.sent == [
            Self.getChallenge,
            Self.externalAuthenticate,
            hex("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800"),
            hex("0CB000000D9701048E08ED6705417E96BA5500"),
            hex("0CB000040D9701128E082EA28A70F3C7B53500"),
        ])
    }

    @Test func wrongMRZIsAccessDenied() async throws {
        let wrong = try MRZKey(documentNumber: "L898902C", birthDate: "690807", expiryDate: "940623")
        let card = ScriptedTransport(replies: [Self.challengeReply, hex("6300")])
        var generator = Self.appendixGenerator()
        let error = await #expect(throws: MRTDError.self) {
            try await BAC.establish(with: wrong, over: card, using: &generator)
        }
        #expect(error?.code == .accessDenied)
        #expect(error?.statusWord == StatusWord(rawValue: 0x6300))
        // The cryptogram differs from the appendix's, since the key does.
        let sent = await card.sent
        #expect(sent.count == 2)
        #expect(sent.last != Self.externalAuthenticate)
    }

    @Test func tamperedChipMACIsRejected() async throws {
        let key = try #require(Self.key)
        var reply = Self.authenticateReply
        reply[39] ^= 0x01  // last byte of M_IC
        let card = ScriptedTransport(replies: [Self.challengeReply, reply])
        var generator = Self.appendixGenerator()
        let error = await #expect(throws: MRTDError.self) {
            try await BAC.establish(with: key, over: card, using: &generator)
        }
        #expect(error?.code == .chipAuthenticationFailed)
    }

    @Test func chipThatDoesNotEchoOurNonceIsRejected() async throws {
        // Same card answers, but we sent a different RND.IFD: the cryptogram's MAC holds
        // (it is the chip's) yet it echoes a nonce we did not send.
        let key = try #require(Self.key)
        let card = ScriptedTransport(replies: [Self.challengeReply, Self.authenticateReply])
        var generator = ScriptedGenerator(words: [0x7817_2386_0C06_C227, 0x0B79_5240_CB70_49B0, 0x1C19_B33E_3280_4F0B])
        let error = await #expect(throws: MRTDError.self) {
            try await BAC.establish(with: key, over: card, using: &generator)
        }
        #expect(error?.code == .chipAuthenticationFailed)
    }

    @Test func refusedChallengeAndShortAnswersAreTyped() async throws {
        let key = try #require(Self.key)
        var generator = Self.appendixGenerator()
        let refusing = ScriptedTransport(replies: [hex("6D00")])
        let refused = await #expect(throws: MRTDError.self) {
            try await BAC.establish(with: key, over: refusing, using: &generator)
        }
        #expect(refused?.code == .cardRefused)
        #expect(refused?.statusWord == .instructionNotSupported)

        let short = ScriptedTransport(replies: [Self.challengeReply, hex("46B9342A 9000")])
        let malformed = await #expect(throws: MRTDError.self) {
            try await BAC.establish(with: key, over: short, using: &generator)
        }
        #expect(malformed?.code == .malformedCardResponse)

        let silent = ScriptedTransport(replies: [])
        let lost = await #expect(throws: MRTDError.self) {
            try await BAC.establish(with: key, over: silent, using: &generator)
        }
        #expect(lost?.code == .transportFailure)
        // The transport's own error stays reachable, so its reader/SCARD code is not lost.
        #expect(lost?.cause is ScriptedTransport.OutOfScript)
    }
}
