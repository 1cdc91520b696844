import APDU
@testable import MRTD
import Testing

/// PACE Integrated Mapping (ECDH and DH) and PACE over DH (Generic Mapping) against the
/// worked examples of ICAO Doc 9303 Part 11 (PACE-GM DH on the RFC 5114 1024-bit group,
/// PACE-IM ECDH on brainpoolP256r1 and PACE-IM DH, all AES-128), as reproduced in
/// zienit's icao_examples tests (PACE_DH_GMTest, PACE_IMTest, PACE_DH_IMTest). The full
/// exchanges run through ``PACE/run(password:parameters:over:privateKey:)`` against the
/// chip's published answers; the terminal's secrets are the example's.
@Suite struct PACEMappingTests {
    /// A GENERAL AUTHENTICATE command as the reader sends it.
    static func generalAuthenticate(_ tag: UInt8, _ value: [UInt8], last: Bool = false) throws -> [UInt8] {
        try CommandAPDU(cla: last ? 0x00 : 0x10, ins: 0x86, data: TLV.encode(tag: 0x7C, value: TLV.encode(tag: tag, value: value)), le: 256).encoded()
    }

    /// A chip answer: DO'7C' around one data object, then 9000.
    static func answer(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        TLV.encode(tag: 0x7C, value: TLV.encode(tag: tag, value: value)) + [0x90, 0x00]
    }

    struct Example {
        var parameters: PACE.Parameters
        var password: PACE.Password
        var encryptedNonce: [UInt8]
        /// The terminal's secrets in the order ``PACE`` asks for them.
        var terminalSecrets: [[UInt8]]
        /// GM: the chip's mapping key; IM: nil (the chip answers an empty DO'7C').
        var chipMappingKey: [UInt8]?
        /// GM: the terminal's mapping key; IM: the nonce t.
        var terminalMappingData: [UInt8]
        var chipEphemeralKey: [UInt8]
        var terminalEphemeralKey: [UInt8]
        var terminalToken: [UInt8]
        var chipToken: [UInt8]
        var encryptionKey: [UInt8]
        var macKey: [UInt8]

        func replies() -> [[UInt8]] {
            [
                [0x90, 0x00],
                answer(0x80, encryptedNonce),
                chipMappingKey.map { answer(0x82, $0) } ?? [0x7C, 0x00, 0x90, 0x00],
                answer(0x84, chipEphemeralKey),
                answer(0x86, chipToken),
            ]
        }

        func sent() throws -> [[UInt8]] {
            [
                try CommandAPDU(ins: 0x22, p1: 0xC1, p2: 0xA4, data: TLV.encode(tag: 0x80, value: parameters.protocolID.contents) + TLV.encode(tag: 0x83, value: [password.reference])).encoded(),
                try CommandAPDU(cla: 0x10, ins: 0x86, data: [0x7C, 0x00], le: 256).encoded(),
                try generalAuthenticate(0x81, terminalMappingData),
                try generalAuthenticate(0x83, terminalEphemeralKey),
                try generalAuthenticate(0x85, terminalToken, last: true),
            ]
        }
    }

    /// Worked example PACE-GM, DH based (1024-bit MODP group with 160-bit subgroup, id 0).
    static func dhGenericMapping() throws -> Example {
        Example(
            parameters: try #require(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.1.2", parameterID: 0)),
            password: .mrz(try MRZKey(documentNumber: "T22000129", birthDate: "640812", expiryDate: "101031")),
            encryptedNonce: hex("854D8DF5827FA6852D1A4FA701CDDDCA"),
            terminalSecrets: [hex("5265030F751F4AD18B08AC565FC7AC952E41618D"), hex("89CCD99B0E8D3B1F11E1296DCA68EC53411CF2CA")],
            chipMappingKey: hex("""
                78879F57225AA8080D52ED0FC890A4B25336F699AA89A2D3A189654AF70729E623EA5738B26381E4DA19E004706FACE7\
                B235C2DBF2F38748312F3C98C2DD4882A41947B324AA1259AC22579DB93F7085655AF30889DBB845D9E6783FE42C9F24\
                49400306254C8AE8EE9DD812A804C0B66E8CAFC14F84D8258950A91B44126EE6
                """),
            terminalMappingData: hex("""
                23FB3749EA030D2A25B278D2A562047ADE3F01B74F17A15402CB7352CA7D2B3EB71C343DB13D1DEBCE9A3666DBCFC920\
                B49174A602CB47965CAA73DC702489A44D41DB914DE9613DC5E98C94160551C0DF86274B9359BC0490D01B03AD54022D\
                CB4F57FAD6322497D7A1E28D46710F461AFE710FBBBC5F8BA166F4311975EC6C
                """),
            chipEphemeralKey: hex("""
                075693D9AE941877573E634B6E644F8E60AF17A0076B8B123D9201074D36152BD8B3A213F53820C42ADC79AB5D0AEEC3\
                AEFB91394DA476BD97B9B14D0A65C1FC71A0E019CB08AF55E1F729005FBA7E3FA5DC41899238A250767A6D46DB974064\
                386CD456743585F8E5D90CC8B4004B1F6D866C79CE0584E49687FF61BC29AEA1
                """),
            terminalEphemeralKey: hex("""
                907D89E2D425A178AA81AF4A7774EC8E388C115CAE67031E85EECE520BD911551B9AE4D04369F29A02626C86FBC674\
                7CC7BC352645B6161A2A42D44EDA80A08FA8D61B76D3A154AD8A5A51786B0BC07147057871A922212C5F67F431731722\
                36B7747D1671E6D692A3C7D40A0C3C5CE397545D015C175EB5130551EDBC2EE5D4
                """),
            terminalToken: hex("B46DD9BD4D98381F"),
            chipToken: hex("917F37B5C0E6D8D1"),
            encryptionKey: hex("2F7F46ADCC9E7E521B45D192FAFA9126"),
            macKey: hex("805A1D27D45A5116F73C54469462B7D8"))
    }

    /// Worked example PACE-IM, ECDH based (brainpoolP256r1, CAN 123456).
    static func ecdhIntegratedMapping() throws -> Example {
        Example(
            parameters: try #require(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.4.2", parameterID: 13)),
            password: .can(try CardAccessNumber("123456")),
            encryptedNonce: hex("143DC40C08C8E891FBED7DEDB92B64AD"),
            terminalSecrets: [hex("5DD4CBFC96F5453B130D890A1CDBAE32"), hex("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595")],
            chipMappingKey: nil,
            terminalMappingData: hex("5DD4CBFC96F5453B130D890A1CDBAE32"),
            chipEphemeralKey: hex(
                "0467F78E5F7F7686082B293E8D087E056916D0F74BC01A5F8957D0DE45691E51E8932B69A962B52A0985AD2C0A271EE6A13A8ADDDCD1A3A994B9DED257F4D22753"),
            terminalEphemeralKey: hex(
                "0489CBA23FFE96AA18D824627C3E934E54A9FD0B87A95D1471DC1C0ABFDCD640D46755DE9B7B778280B6BEBD57439ADFEB0E21FD4ED6DF42578C13418A59B34C37"),
            terminalToken: hex("450F02B86F6A0909"),
            chipToken: hex("75D4D96E8D5B0308"),
            encryptionKey: hex("0D3FEB33251A6370893D62AE8DAAF51B"),
            macKey: hex("B01E89E3D9E8719E586B50B4A7506E0B"))
    }

    /// Worked example PACE-IM, DH based (1024-bit MODP group, CAN 123456).
    static func dhIntegratedMapping() throws -> Example {
        Example(
            parameters: try #require(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.3.2", parameterID: 0)),
            password: .can(try CardAccessNumber("123456")),
            encryptedNonce: hex("9ABB8864CA0FF1551E620D1EF4E13510"),
            terminalSecrets: [
                hex("B3A6DB3C870C3E99245E0D1C06B747DE"),
                hex("""
                    4BD0E54740F9A028E6A515BFDAF967848C4F5F5FFF65AA0915947FFD1A0DF2FA6981271BC905F3551457B7E03AC3B806\
                    6DE4AA406C1171FB43DD939C4BA16175103BA3DEE16419AA248118F90CC36A3D6F4C373652E0C3CCE7F0F1D0C5425B36\
                    00F0F0D6A67F004C8BBA33F2B4733C7252445C1DFC4F1107203F71D2EFB28161
                    """),
            ],
            chipMappingKey: nil,
            terminalMappingData: hex("B3A6DB3C870C3E99245E0D1C06B747DE"),
            chipEphemeralKey: hex("""
                928D9A0F9DBA450F13FC859C6F290D1D36E42431138A4378500BEB4E0401854CFF111F71CB6DC1D0335807A11388CC8E\
                AA87B07907AAD9FBA6B169AF6D8C26AF8DDDC39ADC3AD2E3FF882B84D23E9768E95A80E4746FB07A9767679FE92133B4\
                D379935C771BD7FBED6C7BB4B1708B275EA75679524CDC9C6A91370CC662A2F3
                """),
            terminalEphemeralKey: hex("""
                0F0CC62945A8029251FB7EF3C094E12EC68E4EF07F27CB9D9CD04C5C4250FAE0E4F8A951557E929AEB48E5C6DD47F2F5\
                CD7C351A9BD2CD722C07EDE166770F08FFCB370262CF308DD7B07F2E0DA9CAAA1492344C852906919538C98A4BA4187E\
                76CE9D87832386D319CE2E043C3343AEAE6EDBA1A9894DC5094D22F7FE1351D5
                """),
            terminalToken: hex("55D61977CBF5307E"),
            chipToken: hex("C2F04230187E1525"),
            encryptionKey: hex("01AFC10CF87BE36D8179E87370171F07"),
            macKey: hex("23F0FBD05FD6C7B8B88F4C8309669061"))
    }

    static func example(_ name: String) throws -> Example {
        switch name {
        case "DH GM": return try dhGenericMapping()
        case "ECDH IM": return try ecdhIntegratedMapping()
        default: return try dhIntegratedMapping()
        }
    }

    @Test(arguments: ["DH GM", "ECDH IM", "DH IM"]) func workedExample(name: String) async throws {
        let example = try Self.example(name)
        let card = ScriptedTransport(replies: example.replies())
        var secrets = example.terminalSecrets
        let outcome = try await PACE.run(password: example.password, parameters: example.parameters, over: card) { () throws(MRTDError) -> [UInt8] in
            secrets.removeFirst()
        }
        #expect(await card.sent == (try example.sent()))
        let messaging = try #require(await outcome.channel.messaging)
        #expect(messaging.encryptionKey == example.encryptionKey)
        #expect(messaging.macKey == example.macKey)
    }

    @Test(arguments: ["DH GM", "ECDH IM", "DH IM"]) func forgedChipTokenIsRejected(name: String) async throws {
        var example = try Self.example(name)
        example.chipToken[7] ^= 0x01
        let card = ScriptedTransport(replies: example.replies())
        var secrets = example.terminalSecrets
        let error = await #expect(throws: MRTDError.self) {
            try await PACE.run(password: example.password, parameters: example.parameters, over: card) { () throws(MRTDError) -> [UInt8] in
                secrets.removeFirst()
            }
        }
        #expect(error?.code == .chipAuthenticationFailed)
    }

    /// The intermediate values of the examples: R(s, t), R mod p and the mapped generator.
    @Test func integratedMappingIntermediates() throws {
        let curve = try #require(PACEGroup(parameterID: 13))
        let s = hex("2923BE84E16CD6AE529049F1F1BBE9EB")
        let x = try curve.pseudoRandom(s: s, t: hex("5DD4CBFC96F5453B130D890A1CDBAE32"), cipher: .aes128).get()
        #expect(x == hex("E4447E2DFB3586BAC05DDB00156B57FBB2179A3949294C97254189800C517BAA8DA0FF397ED8C445D3E421E4FEB57322"))
        #expect(try curve.mapIntegrated(x).get() == hex(
            "048E82D31559ED0FDE92A4D0498ADD3C23BABA94FB77691E31E90AEA77FB17D4274C1AE14BD0C3DBAC0C871B7F3608169364437CA30AC243A089D3F266C1E60FAD"))

        let dh = try #require(PACEGroup(parameterID: 0))
        let y = try dh.pseudoRandom(s: hex("FA5B7E3E49753A0DB9178B7B9BD898C8"), t: hex("B3A6DB3C870C3E99245E0D1C06B747DE"), cipher: .aes128).get()
        #expect(y == hex("""
            EAB98D13E09052952AA729907C3C946184DEA0FE74AD2B3AF506F0A83018459C38099CD1F7FF4EA0A078DB1FAC136550\
            5E3DC85500EF95E20B4EEF2E88489233BEE0546B472F994B618D168702406791DEEF3CB4810932EC278F3533FDB860EB\
            4835C36FA4F1BF3FA0B828A718C96BDE88FBA38A3E6C35AAA10959251EB5FC710FC187258995944C0F926E249373F485
            """))
        #expect(try dh.mapIntegrated(y).get() == hex("""
            1D7D767F11E333BCD6DBAEF40E799E7A926B96973550656FF3C830726D118D61C276CDCC61D475CF03A98E0C0E79CAEB\
            A5BE25578BD4551D0B10903236F0B0F976852FA78EEA14EA0ACA87D1E91F688FE0DFF897BBE35A472621D343564B262F\
            34223AE8FC59B664BFEDFA2BFE7516CA5510A6BBB633D517EC25D4E0BBAA16C2
            """))
    }

    @Test func diffieHellmanRejectsElementsOutsideTheSubgroup() throws {
        let dh = try #require(PACEGroup(parameterID: 0))
        let key = try dh.randomPrivateKey().get()
        #expect(throws: OpenSSLError.self) { try dh.apply(key, to: [0x01]).get() }
        #expect(throws: OpenSSLError.self) { try dh.apply(key, to: [0x02]).get() }  // 2 is not of order q
        #expect(throws: OpenSSLError.self) { try dh.apply(key, to: [UInt8](repeating: 0xFF, count: 128)).get() }  // above p
    }

    @Test func parametersCoverEveryMapping() throws {
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.1.2", parameterID: 2)?.isDiffieHellman == true)
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.3.4", parameterID: 1)?.mapping == .integrated)
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.4.1", parameterID: 12)?.mapping == .integrated)
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.1.2", parameterID: 13) == nil)  // a DH protocol on a curve
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.2.2", parameterID: 1) == nil)  // an ECDH protocol on a DH group
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.4.2", parameterID: 10) == nil)  // IM on secp224r1 (p = 1 mod 4)
        #expect(PACE.Parameters(protocol: "0.4.0.127.0.7.2.2.4.2.2", parameterID: 3) == nil)  // reserved
    }
}
