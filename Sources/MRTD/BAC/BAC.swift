public import APDU

/// Basic Access Control (ICAO Doc 9303 Part 11 §4.3, worked example in Appendix D):
/// mutual authentication from the MRZ key, ending in a 3DES secure messaging session.
public enum BAC {
    /// Authenticates with the chip and returns the secure channel to read it through.
    ///
    /// - Parameters:
    ///   - key: the document's MRZ key.
    ///   - transport: the plain transport to the chip.
    ///   - generator: the source of RND.IFD and K.IFD; must be cryptographically secure.
    /// - Returns: a ``SecureChannel`` over `transport`.
    /// - Throws: ``MRTDError``: `.accessDenied` when the chip rejects the key (a wrong MRZ),
    ///   `.cardRefused` for other status words, `.chipAuthenticationFailed` when the chip's
    ///   cryptogram does not verify, `.malformedCardResponse`, `.transportFailure`.
    public static func establish(
        with key: MRZKey,
        over transport: any APDUTransport,
        using generator: inout some RandomNumberGenerator
    ) async throws(MRTDError) -> SecureChannel {
        let terminalNonce = randomBytes(8, using: &generator)
        let terminalKey = randomBytes(16, using: &generator)
        let messaging = try await authenticate(key: key, over: transport, terminalNonce: terminalNonce, terminalKey: terminalKey)
        return SecureChannel(over: transport, messaging: messaging)
    }

    /// ``establish(with:over:using:)`` with the system's secure random generator.
    public static func establish(with key: MRZKey, over transport: any APDUTransport) async throws(MRTDError) -> SecureChannel {
        var generator = SystemRandomNumberGenerator()
        return try await establish(with: key, over: transport, using: &generator)
    }

    /// The basic access keys KEnc and KMAC: K_seed is the first 16 bytes of SHA-1 over
    /// the MRZ information, and each key comes from the §9.7.1 KDF with parity adjusted.
    package static func accessKeys(for key: MRZKey) throws(MRTDError) -> (seed: [UInt8], encryption: [UInt8], mac: [UInt8]) {
        let seed = try value(LibCrypto.digest(.sha1, key.mrzInformation)).prefix(16)
        let encryption = try value(KeyDerivation.derive(from: Array(seed), purpose: .encryption, cipher: .tripleDES))
        let mac = try value(KeyDerivation.derive(from: Array(seed), purpose: .mac, cipher: .tripleDES))
        return (Array(seed), encryption, mac)
    }

    package static func authenticate(
        key: MRZKey, over transport: any APDUTransport, terminalNonce: [UInt8], terminalKey: [UInt8]
    ) async throws(MRTDError) -> SecureMessaging {
        let keys = try accessKeys(for: key)

        let challenge = try await send(CommandAPDU(ins: 0x84, le: 8), over: transport, step: "GET CHALLENGE")
        guard challenge.status == .success else {
            throw MRTDError(code: .cardRefused, message: "the chip refused GET CHALLENGE; it may not support BAC", statusWord: challenge.status)
        }
        guard challenge.data.count == 8 else {
            throw MRTDError(code: .malformedCardResponse, message: "GET CHALLENGE returned \(challenge.data.count) bytes instead of 8", statusWord: challenge.status)
        }
        let chipNonce = challenge.data

        let plain = terminalNonce + chipNonce + terminalKey
        let cryptogram = try value(LibCrypto.cipher(.desEDECBC, encrypt: true, key: keys.encryption, iv: [UInt8](repeating: 0, count: 8), data: plain))
        let checksum = try value(ISO9797.retailMAC(key: keys.mac, paddedData: ISO9797.pad(cryptogram, blockSize: 8)))
        let answer = try await send(CommandAPDU(ins: 0x82, data: cryptogram + checksum, le: 40), over: transport, step: "EXTERNAL AUTHENTICATE")
        switch answer.status {
        case .success:
            break
        case StatusWord(rawValue: 0x6300), .securityStatusNotSatisfied:
            throw MRTDError(
                code: .accessDenied,
                message: "the chip rejected the access key: check document number, date of birth and date of expiry",
                statusWord: answer.status)
        default:
            throw MRTDError(code: .cardRefused, message: "the chip refused EXTERNAL AUTHENTICATE", statusWord: answer.status)
        }
        guard answer.data.count == 40 else {
            throw MRTDError(code: .malformedCardResponse, message: "EXTERNAL AUTHENTICATE returned \(answer.data.count) bytes instead of 40", statusWord: answer.status)
        }
        let chipCryptogram = Array(answer.data[0..<32])
        let chipChecksum = Array(answer.data[32..<40])
        let expected = try value(ISO9797.retailMAC(key: keys.mac, paddedData: ISO9797.pad(chipCryptogram, blockSize: 8)))
        guard Bytes.constantTimeEqual(expected, chipChecksum) else {
            throw MRTDError(code: .chipAuthenticationFailed, message: "the chip's authentication MAC does not verify")
        }
        let decrypted = try value(LibCrypto.cipher(.desEDECBC, encrypt: false, key: keys.encryption, iv: [UInt8](repeating: 0, count: 8), data: chipCryptogram))
        guard Array(decrypted[0..<8]) == chipNonce, Array(decrypted[8..<16]) == terminalNonce else {
            throw MRTDError(code: .chipAuthenticationFailed, message: "the chip's cryptogram does not echo the challenges")
        }
        let chipKey = Array(decrypted[16..<32])

        let sessionSeed = Bytes.xor(terminalKey, chipKey)
        let sessionEncryption = try value(KeyDerivation.derive(from: sessionSeed, purpose: .encryption, cipher: .tripleDES))
        let sessionMAC = try value(KeyDerivation.derive(from: sessionSeed, purpose: .mac, cipher: .tripleDES))
        let counter = Array(chipNonce[4..<8]) + Array(terminalNonce[4..<8])
        return try SecureMessaging(cipher: .tripleDES, encryptionKey: sessionEncryption, macKey: sessionMAC, sendSequenceCounter: counter)
    }

    private static func send(_ command: CommandAPDU, over transport: any APDUTransport, step: String) async throws(MRTDError) -> ResponseAPDU {
        do {
            return try await transport.transmit(command)
        } catch {
            throw MRTDError.transport(error, during: step)
        }
    }

    private static func value(_ result: Result<[UInt8], OpenSSLError>) throws(MRTDError) -> [UInt8] {
        switch result {
        case .success(let bytes): return bytes
        case .failure(let error): throw .crypto(error)
        }
    }

    private static func randomBytes(_ count: Int, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            let word = generator.next()
            for shift in stride(from: 56, through: 0, by: -8) where out.count < count {
                out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return out
    }
}
