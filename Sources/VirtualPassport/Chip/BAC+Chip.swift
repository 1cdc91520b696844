package import MRTD

/// The chip's half of BAC, for the virtual passport: answer EXTERNAL AUTHENTICATE from
/// the document's MRZ key and start the session (Doc 9303 Part 11 §4.3).
extension BAC {
    /// What the chip answers to a terminal's EXTERNAL AUTHENTICATE data.
    package struct ChipAnswer: Sendable {
        /// E.IFD ‖ M.IFD's counterpart: E.ICC ‖ M.ICC, 40 bytes.
        package let response: [UInt8]
        /// The session the chip continues in.
        package let messaging: SecureMessaging
    }

    /// Verifies the terminal's cryptogram and builds the chip's.
    /// - Parameters:
    ///   - data: the 40-byte EXTERNAL AUTHENTICATE data.
    ///   - chipNonce: the RND.ICC the chip gave in GET CHALLENGE.
    ///   - chipKey: K.ICC, 16 fresh random bytes.
    /// - Returns: `nil` when the terminal does not hold this document's key (the chip answers 6300).
    package static func chipAnswer(
        key: MRZKey, data: [UInt8], chipNonce: [UInt8], chipKey: [UInt8]
    ) -> ChipAnswer? {
        guard data.count == 40, chipNonce.count == 8, chipKey.count == 16, let keys = try? accessKeys(for: key) else { return nil }
        let zero = [UInt8](repeating: 0, count: 8)
        let cryptogram = Array(data[0..<32])
        guard case .success(let mac) = ISO9797.retailMAC(key: keys.mac, paddedData: ISO9797.pad(cryptogram, blockSize: 8)),
            Bytes.constantTimeEqual(mac, Array(data[32..<40])),
            case .success(let plain) = LibCrypto.cipher(.desEDECBC, encrypt: false, key: keys.encryption, iv: zero, data: cryptogram),
            Array(plain[8..<16]) == chipNonce
        else { return nil }
        let terminalNonce = Array(plain[0..<8])
        let terminalKey = Array(plain[16..<32])
        guard case .success(let answer) = LibCrypto.cipher(
                .desEDECBC, encrypt: true, key: keys.encryption, iv: zero, data: chipNonce + terminalNonce + chipKey),
            case .success(let answerMAC) = ISO9797.retailMAC(key: keys.mac, paddedData: ISO9797.pad(answer, blockSize: 8))
        else { return nil }
        let seed = Bytes.xor(terminalKey, chipKey)
        guard case .success(let encryption) = KeyDerivation.derive(from: seed, purpose: .encryption, cipher: .tripleDES),
            case .success(let macKey) = KeyDerivation.derive(from: seed, purpose: .mac, cipher: .tripleDES),
            let messaging = try? SecureMessaging(
                cipher: .tripleDES, encryptionKey: encryption, macKey: macKey,
                sendSequenceCounter: Array(chipNonce[4..<8]) + Array(terminalNonce[4..<8]))
        else { return nil }
        return ChipAnswer(response: answer + answerMAC, messaging: messaging)
    }
}
