/// The block cipher of a secure messaging session (ICAO Doc 9303 Part 11 §9.8.6–9.8.7).
public enum SecureMessagingCipher: Hashable, Sendable {
    /// Two-key triple DES in CBC mode with a zero IV, retail MAC (ISO/IEC 9797-1 MAC
    /// algorithm 3); the cipher of BAC and of PACE with 3DES.
    case tripleDES
    /// AES-128 in CBC mode with IV = E(KSEnc, SSC), AES-CMAC truncated to 8 bytes.
    case aes128
    /// AES-192, as ``aes128``.
    case aes192
    /// AES-256, as ``aes128``.
    case aes256

    /// The cipher block size, which is also the length of the send sequence counter.
    public var blockSize: Int { self == .tripleDES ? 8 : 16 }

    /// The length of KSEnc and KSMAC.
    public var keyLength: Int {
        switch self {
        case .tripleDES, .aes128: return 16
        case .aes192: return 24
        case .aes256: return 32
        }
    }
}

extension SecureMessagingCipher {
    /// Encrypts padded `data`; the IV is zero for 3DES and E(KSEnc, SSC) for AES.
    package func encrypt(key: [UInt8], counter: [UInt8], data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        run(encrypt: true, key: key, counter: counter, data: data)
    }

    /// Decrypts `data` (whole blocks); padding stays for the caller to remove.
    package func decrypt(key: [UInt8], counter: [UInt8], data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        run(encrypt: false, key: key, counter: counter, data: data)
    }

    /// The 8-byte MAC of already padded `data`.
    package func mac(key: [UInt8], paddedData data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        switch self {
        case .tripleDES: return ISO9797.retailMAC(key: key, paddedData: data)
        case .aes128, .aes192, .aes256: return LibCrypto.aesCMAC(key: key, data: data).map { Array($0.prefix(8)) }
        }
    }

    private func run(encrypt: Bool, key: [UInt8], counter: [UInt8], data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        switch self {
        case .tripleDES:
            return LibCrypto.cipher(.desEDECBC, encrypt: encrypt, key: key, iv: [UInt8](repeating: 0, count: 8), data: data)
        case .aes128, .aes192, .aes256:
            return LibCrypto.cipher(.aesECB, encrypt: true, key: key, iv: [], data: counter).flatMap { iv in
                LibCrypto.cipher(.aesCBC, encrypt: encrypt, key: key, iv: iv, data: data)
            }
        }
    }
}
