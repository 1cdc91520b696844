import APDU
@testable import MRTD
import Testing

/// PACE Generic Mapping over ECDH against the worked example of ICAO Doc 9303 Part 11
/// Appendix G.1 (brainpoolP256r1, AES-128, MRZ T22000129/640812/101031), as reproduced in
/// gmrtd/gmrtd `pace/pace_test.go` (TestDecryptNonce, TestDoGenericMappingEC,
/// TestDoPace_GM_ECDH), a 3DES exchange from the same file (TestDoPace_GM_ECDH_TDES_CBC_NZ)
/// and the PACE-CAM exchange of a German passport there (TestDoPace_CAM_ECDH_DE).
@Suite struct PACETests {
    static func point(_ x: String, _ y: String) -> [UInt8] { [0x04] + hex(x) + hex(y) }

    @Test func appendixG1NonceAndMapping() throws {
        let nonce = try PACE.decryptNonce(hex("95A3A016522EE98D01E76CB6B98B42C3"), key: hex("89DED1B26624EC1E634C1989302849DD"), cipher: .aes128).get()
        #expect(nonce == hex("3F00C4D39D153F2B2A214A078D899B22"))
        let shared = Self.point(
            "60332EF2450B5D247EF6D3868397D398852ED6E8CAF6FFEEF6BF85CA57057FD5", "0840CA7415BAF3E43BD414D35AA4608B93A2CAF3A4E3EA4E82C9C13D03EB7181")
        let mapped = try LibCrypto.ecMapGeneric(parameterID: 13, nonce: nonce, point: shared).get()
        #expect(mapped == Self.point(
            "8CED63C91426D4F0EB1435E7CB1D74A46723A0AF21C89634F65A9AE87A9265E2", "8C879506743F8611AC33645C5B985C80B5F09A0B83407C1B6A4D857AE76FE522"))
    }

    @Test func appendixG1PasswordKey() throws {
        let key = try MRZKey(documentNumber: "T22000129", birthDate: "640812", expiryDate: "101031")
        let password = try PACE.Password.mrz(key).bytes()
        #expect(try KeyDerivation.derive(from: password, purpose: .password, cipher: .aes128).get() == hex("89DED1B26624EC1E634C1989302849DD"))
    }

    struct Exchange {
        var parameters: PACE.Parameters
        var key: MRZKey
        var privateKeys: [[UInt8]]
        var replies: [[UInt8]]
        var sent: [[UInt8]]
        var encryptionKey: [UInt8]
        var macKey: [UInt8]
    }

    static func appendixG1() throws -> Exchange {
        Exchange(
            parameters: try #require(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.2.2", parameterID: 13)),
            key: try MRZKey(documentNumber: "T22000129", birthDate: "640812", expiryDate: "101031"),
            privateKeys: [hex("7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99"), hex("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595")],
            replies: [
                hex("9000"),
                hex("7C12801095A3A016522EE98D01E76CB6B98B42C39000"),
                hex("7C43824104824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C549000"),
                hex("7C438441049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F0949000"),
                hex("7C0A86083ABB9674BCE93C089000"),
            ],
            sent: [
                hex("0022C1A40F800A04007F00070202040202830101"),
                hex("10860000027C0000"),
                hex("10860000457C438141047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D00"),
                hex("10860000457C438341042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB3646200"),
                hex("008600000C7C0A8508C2B0BD78D94BA86600"),
            ],
            encryptionKey: hex("F5F0E35C0D7161EE6724EE513A0D9A7F"),
            macKey: hex("FE251C7858B356B24514B3BD5F4297D1"))
    }

    static func tripleDES() throws -> Exchange {
        Exchange(
            parameters: try #require(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.2.1", parameterID: 13)),
            key: try MRZKey(documentNumber: "LM277954", birthDate: "781214", expiryDate: "271115"),
            privateKeys: [hex("2808272c0ec20e01a3450030ef32855e9feb5cb17719e985389b1cf47609e69f"), hex("8f89449052df6c7983750c7b042c3cea12b36819174424c7cd28153f7b70b402")],
            replies: [
                hex("9000"),
                hex("7c128010b88382812290017af1cc906ff00e7f4d9000"),
                hex("7c43824104780b4edec9b926f9f964fad826d9990a667608d96ba7b397ae8609b6533e0d036d148365ddf4e5ff6611c2b62aa17fc9899f327bc929db543e7abd0ee724e4be9000"),
                hex("7c438441042dbaf62e6fdfb31eb66f206493b9e7721586f0e5c93754d7bd5a884ca251ee4d720ab539a60561bc46812fa289b58ac69f0c6e32adbaf7241049a31211f80f5b9000"),
                hex("7c0a8608cb57047c809079f69000"),
            ],
            sent: [
                hex("0022c1a40f800a04007f00070202040201830101"),
                hex("10860000027c0000"),
                hex("10860000457c438141047706b2b6246ab4612229b8a11212ddba7fea0568c9c0975dee22c0e3dd3a3f0321e8afee836e373b570d24000d56fb195104d486e63321ff8c819dd5ee018dcb00"),
                hex("10860000457c43834104507a0156efae8fb8acc519036c0b2fe0393c878744c7f91878ee4e07a41412ba5c0753d68a44a91e9f57f3f992ab689e6c2065d3b2a27c3658a4fd632931ee3800"),
                hex("008600000c7c0a85088d7c617d43efe09e00"),
            ],
            encryptionKey: hex("430e4c8c38dfefaed92067b919a897f8"),
            macKey: hex("c1bc1f075797b970b5a45e64a764b0cb"))
    }

    @Test(arguments: ["G.1 AES-128", "3DES"]) func publishedExchange(name: String) async throws {
        let exchange = try name == "3DES" ? Self.tripleDES() : Self.appendixG1()
        let card = ScriptedTransport(replies: exchange.replies)
        var keys = exchange.privateKeys
        let channel = try await PACE.establish(password: .mrz(exchange.key), parameters: exchange.parameters, over: card) { () throws(MRTDError) -> [UInt8] in
            keys.removeFirst()
        }
        #expect(await card.sent == exchange.sent)
        let messaging = try #require(await channel.messaging)
        #expect(messaging.encryptionKey == exchange.encryptionKey)
        #expect(messaging.macKey == exchange.macKey)
        #expect(messaging.sendSequenceCounter == [UInt8](repeating: 0, count: exchange.parameters.cipher.blockSize))
    }

    @Test func forgedChipTokenIsRejected() async throws {
        var exchange = try Self.appendixG1()
        exchange.replies[4] = hex("7C0A86083ABB9674BCE93C099000")
        let card = ScriptedTransport(replies: exchange.replies)
        var keys = exchange.privateKeys
        let error = await #expect(throws: MRTDError.self) {
            try await PACE.establish(password: .mrz(exchange.key), parameters: exchange.parameters, over: card) { () throws(MRTDError) -> [UInt8] in
                keys.removeFirst()
            }
        }
        #expect(error?.code == .chipAuthenticationFailed)
    }

    @Test func chipRefusingTheTokenMeansAWrongPassword() async throws {
        var exchange = try Self.appendixG1()
        exchange.replies[4] = hex("6300")
        let card = ScriptedTransport(replies: exchange.replies)
        var keys = exchange.privateKeys
        let error = await #expect(throws: MRTDError.self) {
            try await PACE.establish(password: .mrz(exchange.key), parameters: exchange.parameters, over: card) { () throws(MRTDError) -> [UInt8] in
                keys.removeFirst()
            }
        }
        #expect(error?.code == .accessDenied)
    }

    @Test func parametersCoverECDHGenericAndChipAuthenticationMapping() throws {
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.2.4", parameterID: 16)?.cipher == .aes256)
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.2.2", parameterID: nil) == nil)  // explicit parameters
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.1.2", parameterID: 2)?.mapping == .generic)  // DH
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.4.2", parameterID: 13)?.mapping == .integrated)  // ECDH IM
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.6.2", parameterID: 13)?.chipAuthenticationMapping == true)  // ECDH CAM
        let infos = try SecurityInfos(cardAccess: hex("31283012060a04007f000702020402040201020201103012060a04007f00070202040604020102020110"))
        // As gmrtd's TestSelectPaceForConfig expects: CAM over GM, whatever the order.
        #expect(PACE.Parameters.choose(from: infos)?.protocolID == "0.4.0.127.0.7.2.2.4.6.4")
    }

    static func chipAuthenticationMapping() throws -> Exchange {
        Exchange(
            parameters: try #require(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.6.2", parameterID: 13)),
            key: try MRZKey(documentNumber: "C4KHNY1PF", birthDate: "780214", expiryDate: "330315"),
            privateKeys: [hex("01fd26013f5bc41fad8bb09811e435f16fbe2eb3c2e1d999b0f63da8c3d58bb5"), hex("1fcd3d8ac4fae3960a14fea2925d75add335f13b248eba192358dded93a89552")],
            replies: [
                hex("9000"),
                hex("7c1280109bff93e6ed9f5f9764ec0d783d14fb039000"),
                hex("7c4382410476dc295c4fb14237d87318d70967e25ec45f74d6fd4aff588c90efb3d868f05b450ba6b64967227c2246dbe2905522c8086dac7f3bbe5cf3b192f0a0c2d97ee59000"),
                hex("7c438441042315ae8143f21de15b35f083cfa148c5fcbd9f2eb9dcdc4519bcf337443e79e55b28a5e218fb919c30880d263e469645ff114c46ed29918910be3453527d21649000"),
                hex("7c3c860819a2b9192e11512a8a30b3ae8830311b1d5605777f47cb4ed028346cd00105d32859de127da3d8398865358f26f08ebe410864eaf6e39f33f3f59000"),
                hex("990290008e085f570baddd1002d29000"),
                hex("871101d688d27a6d16f03619e76dcb59c1f1ec990290008e08b7df9a5982bb17299000"),
            ],
            sent: [
                hex("0022c1a40f800a04007f00070202040602830101"),
                hex("10860000027c0000"),
                hex("10860000457c43814104303f340815eea501772393e299a4a6f6694600189c249c63a8513ff3fefa66e346d11970b5f76fb564c3b0e54b215528f647ec5a9ab209cdbe262e763d6119a100"),
                hex("10860000457c438341048442b191ef5346a6b6dacb6cd5728c4a72f0ca7aecdf7afdfb3ef175e12a6f7c74f509af768b8dbe2cf42d16c1f00714691d78a19cdf1b493390d1173785f2b700"),
                hex("008600000c7c0a8508fee088a4d7be1b7f00"),
                hex("0ca4020c1d87110147ee2e3bd440fb596167f2bb6cd6395e8e08a105747484314bcf00"),
                hex("0cb000000d9701048e085d283ec183cbb99800"),
            ],
            encryptionKey: hex("a8e85e938514ec67ae33cda3d43d3c48"),
            macKey: hex("27f1adeb705a049a305b0c619b14b9b3"))
    }

    /// The German passport's PACE-CAM run: session keys, the chip authentication data
    /// decrypting (with IV = E(KSenc, -1)) to a well-padded 32-byte CA_IC, and the first
    /// secure messaging exchanges with EF.CardSecurity, byte for byte.
    @Test func chipAuthenticationMappingExchange() async throws {
        let exchange = try Self.chipAuthenticationMapping()
        #expect(exchange.parameters.chipAuthenticationMapping && exchange.parameters.cipher == .aes128)
        let card = ScriptedTransport(replies: exchange.replies)
        var keys = exchange.privateKeys
        let outcome = try await PACE.run(password: .mrz(exchange.key), parameters: exchange.parameters, over: card) { () throws(MRTDError) -> [UInt8] in
            keys.removeFirst()
        }
        let messaging = try #require(await outcome.channel.messaging)
        #expect(messaging.encryptionKey == exchange.encryptionKey && messaging.macKey == exchange.macKey)
        let encrypted = try #require(outcome.encryptedChipAuthenticationData)
        #expect(encrypted.count == 48)
        #expect(PACE.decryptChipAuthenticationData(encrypted, encryptionKey: exchange.encryptionKey)?.count == 32)

        let select = try await outcome.channel.transmit(CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0x01, 0x1D]))
        #expect(select.status == .success)
        let head = try await outcome.channel.transmit(CommandAPDU(ins: 0xB0, le: 4))
        #expect(head.status == .success && head.data.count == 4 && head.data.first == 0x30)
        #expect(await card.sent == exchange.sent)
    }

    @Test func camIsPreferredOverGenericMapping() throws {
        // The German passport's EF.CardAccess lists GM first, then CAM.
        let infos = try SecurityInfos(cardAccess: hex("31283012060A04007F0007020204020202010202010D3012060A04007F0007020204060202010202010D"))
        let chosen = try #require(PACE.Parameters.choose(from: infos))
        #expect(chosen.chipAuthenticationMapping && chosen.protocolID == "0.4.0.127.0.7.2.2.4.6.2")
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.6.1", parameterID: 13) == nil)  // CAM with 3DES does not exist
    }
}
