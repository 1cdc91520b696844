@testable import MRTD
import Testing

/// Known answers for the primitives under BAC and secure messaging.
///
/// ICAO Doc 9303 Part 11 Appendix D values, as reproduced in gmrtd/gmrtd
/// `bac/bac_test.go` and `iso7816/secure_messaging_test.go`, tsenger/animamea
/// `SecureMessagingTest`, and others; AES-CMAC from RFC 4493 §4.
@Suite struct CryptoPrimitiveTests {
    @Test func sha1OfMRZInformationGivesTheAppendixDKeySeed() throws {
        // D.2: SHA-1("L898902C<369080619406236") = 239AB9CB282DAF66231DC5A4DF6BFBAEDF477565
        let digest = try LibCrypto.digest(.sha1, Array("L898902C<369080619406236".utf8)).get()
        #expect(digest == hex("239AB9CB282DAF66231DC5A4DF6BFBAEDF477565"))
    }

    @Test func sha256OfEmptyInput() throws {
        // FIPS 180-2 SHA-256 of the empty string.
        let digest = try LibCrypto.digest(.sha256, []).get()
        #expect(digest == hex("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"))
    }

    @Test func kdfGivesBasicAccessKeysWithParity() throws {
        // D.2: K_seed → KEnc, KMAC.
        let seed = hex("239AB9CB282DAF66231DC5A4DF6BFBAE")
        #expect(try KeyDerivation.derive(from: seed, purpose: .encryption, cipher: .tripleDES).get() == hex("AB94FDECF2674FDFB9B391F85D7F76F2"))
        #expect(try KeyDerivation.derive(from: seed, purpose: .mac, cipher: .tripleDES).get() == hex("7962D9ECE03D1ACD4C76089DCE131543"))
    }

    @Test func kdfGivesSessionKeys() throws {
        // D.3: K_seed = K.IFD xor K.IC = 0036D272F5C350ACAC50C3F572D23600.
        let seed = Bytes.xor(hex("0B795240CB7049B01C19B33E32804F0B"), hex("0B4F80323EB3191CB04970CB4052790B"))
        #expect(seed == hex("0036D272F5C350ACAC50C3F572D23600"))
        #expect(try KeyDerivation.derive(from: seed, purpose: .encryption, cipher: .tripleDES).get() == hex("979EC13B1CBFE9DCD01AB0FED307EAE5"))
        #expect(try KeyDerivation.derive(from: seed, purpose: .mac, cipher: .tripleDES).get() == hex("F1CB1F1FB5ADF208806B89DC579DC1F8"))
    }

    @Test func parityAdjustmentMakesEveryByteOdd() {
        let adjusted = KeyDerivation.adjustParity([0x00, 0x01, 0xFE, 0xFF, 0x80, 0x7F])
        #expect(adjusted == [0x01, 0x01, 0xFE, 0xFE, 0x80, 0x7F])
        #expect(adjusted.allSatisfy { $0.nonzeroBitCount % 2 == 1 })
    }

    @Test func tripleDESEncryptionGivesEIFD() throws {
        // D.3: E_IFD = 3DES-CBC(KEnc, RND.IFD || RND.IC || K.IFD), zero IV.
        let s = hex("781723860C06C2264608F919887022120B795240CB7049B01C19B33E32804F0B")
        let encrypted = try LibCrypto.cipher(.desEDECBC, encrypt: true, key: hex("AB94FDECF2674FDFB9B391F85D7F76F2"), iv: [UInt8](repeating: 0, count: 8), data: s).get()
        #expect(encrypted == hex("72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2"))
        let decrypted = try LibCrypto.cipher(.desEDECBC, encrypt: false, key: hex("AB94FDECF2674FDFB9B391F85D7F76F2"), iv: [UInt8](repeating: 0, count: 8), data: encrypted).get()
        #expect(decrypted == s)
    }

    @Test func retailMACGivesMIFD() throws {
        // D.3: M_IFD = MAC(KMAC, pad(E_IFD)).
        let padded = ISO9797.pad(hex("72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2"), blockSize: 8)
        #expect(padded.count == 40)
        #expect(try ISO9797.retailMAC(key: hex("7962D9ECE03D1ACD4C76089DCE131543"), paddedData: padded).get() == hex("5F1448EEA8AD90A7"))
    }

    @Test func retailMACRejectsUnpaddedData() {
        #expect(throws: OpenSSLError.self) { try ISO9797.retailMAC(key: [UInt8](repeating: 1, count: 16), paddedData: [1, 2, 3]).get() }
    }

    @Test(arguments: [
        (0, "bb1d6929e95937287fa37d129b756746"),
        (16, "070a16b46b4d4144f79bdd9dd04a287c"),
        (40, "dfa66747de9ae63030ca32611497c827"),
        (64, "51f0bebf7e3b9d92fc49741779363cfe"),
    ])
    func aesCMACMatchesRFC4493(length: Int, expected: String) throws {
        let key = hex("2b7e151628aed2a6abf7158809cf4f3c")
        let message = hex("""
            6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51
            30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710
            """)
        #expect(try LibCrypto.aesCMAC(key: key, data: Array(message.prefix(length))).get() == hex(expected))
    }

    @Test func cipherReportsRefusedArgumentsAsOpenSSLError() {
        let result = LibCrypto.cipher(.aesCBC, encrypt: true, key: [1, 2, 3], iv: [], data: [])
        guard case .failure(let error) = result else {
            Issue.record("a 3-byte AES key was accepted")
            return
        }
        #expect(error.function == "COpenSSL_cipher")
    }

    @Test func paddingMethod2RoundTripsAndRejectsGarbage() {
        #expect(ISO9797.pad([0x01, 0x1E], blockSize: 8) == [0x01, 0x1E, 0x80, 0, 0, 0, 0, 0])
        #expect(ISO9797.pad([UInt8](repeating: 7, count: 8), blockSize: 8).count == 16)
        #expect(ISO9797.unpad([0x01, 0x1E, 0x80, 0, 0, 0, 0, 0], blockSize: 8) == [0x01, 0x1E])
        #expect(ISO9797.unpad([0x01, 0x1E, 0x00, 0, 0, 0, 0, 0], blockSize: 8) == nil)
        #expect(ISO9797.unpad([0x80] + [UInt8](repeating: 0, count: 8), blockSize: 8) == nil)
    }

    @Test func counterIncrementCarriesAndWraps() {
        var counter = hex("887022120C06C2FF")
        Bytes.increment(&counter)
        #expect(counter == hex("887022120C06C300"))
        var top = [UInt8](repeating: 0xFF, count: 8)
        Bytes.increment(&top)
        #expect(top == [UInt8](repeating: 0, count: 8))
    }
}
