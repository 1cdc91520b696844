/// The key derivation function of ICAO Doc 9303 Part 11 §9.7.1 and DES parity adjustment.
package enum KeyDerivation {
    /// The counter values of §9.7.1.
    package enum Purpose: UInt32 {
        /// c = 1: the encryption key.
        case encryption = 1
        /// c = 2: the MAC key.
        case mac = 2
        /// c = 3: the PACE password key.
        case password = 3
    }

    /// Derives a key of `cipher` from the shared secret: SHA-1 for two-key triple DES
    /// (with parity adjusted) and AES-128, SHA-256 for AES-192 and AES-256.
    package static func derive(
        from secret: [UInt8], purpose: Purpose, cipher: SecureMessagingCipher
    ) -> Result<[UInt8], OpenSSLError> {
        let input = secret + Bytes.bigEndian(purpose.rawValue)
        switch cipher {
        case .tripleDES:
            return LibCrypto.digest(.sha1, input).map { adjustParity(Array($0.prefix(16))) }
        case .aes128:
            return LibCrypto.digest(.sha1, input).map { Array($0.prefix(16)) }
        case .aes192, .aes256:
            return LibCrypto.digest(.sha256, input).map { Array($0.prefix(cipher.keyLength)) }
        }
    }

    /// Sets the low bit of each byte so that every byte has odd parity, as DES keys must.
    package static func adjustParity(_ key: [UInt8]) -> [UInt8] {
        key.map { byte in
            let high = byte & 0xFE
            return high.nonzeroBitCount % 2 == 0 ? high | 1 : high
        }
    }
}
