/// The group PACE runs in: a standardized elliptic curve (domain parameters 8–18) or an
/// RFC 5114 Diffie-Hellman group (0–2), with the operations both mappings need.
package struct PACEGroup: Hashable, Sendable {
    package let parameterID: Int

    /// `nil` for domain parameters not implemented.
    package init?(parameterID: Int) {
        guard (0...2).contains(parameterID) || (8...18).contains(parameterID) else { return nil }
        self.parameterID = parameterID
    }

    package var isDiffieHellman: Bool { parameterID <= 2 }

    /// A random private key.
    package func randomPrivateKey() -> Result<[UInt8], OpenSSLError> {
        isDiffieHellman ? LibCrypto.dhRandomScalar(parameterID: parameterID) : LibCrypto.ecRandomScalar(parameterID: parameterID)
    }

    /// `key` applied to `element` (k × P, or b^k), or to the standard generator when `nil`;
    /// a received element off the curve or outside the subgroup fails.
    package func apply(_ key: [UInt8], to element: [UInt8]?) -> Result<[UInt8], OpenSSLError> {
        isDiffieHellman
            ? LibCrypto.dhExp(parameterID: parameterID, base: element, exponent: key)
            : LibCrypto.ecMultiply(parameterID: parameterID, scalar: key, point: element)
    }

    /// Generic Mapping: s × G + H, or g^s · h.
    package func mapGeneric(nonce: [UInt8], shared: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        isDiffieHellman
            ? LibCrypto.dhMapGeneric(parameterID: parameterID, nonce: nonce, h: shared)
            : LibCrypto.ecMapGeneric(parameterID: parameterID, nonce: nonce, point: shared)
    }

    /// Integrated Mapping: the point encoding f_G(x), or x^((p−1)/q).
    package func mapIntegrated(_ x: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        isDiffieHellman ? LibCrypto.dhMapIntegrated(parameterID: parameterID, x: x) : LibCrypto.ecMapIntegrated(parameterID: parameterID, x: x)
    }

    /// The key agreement's shared secret: the x-coordinate of the point, or the whole group
    /// element (padded to the length of p).
    package func sharedSecret(_ element: [UInt8]) -> [UInt8] {
        isDiffieHellman ? element : PACE.xCoordinate(element)
    }

    /// The public key inside the token's 7F49 object: DO'86' (EC point) or DO'84' (DH value,
    /// an unsigned integer without leading zeros).
    package func tokenKeyObject(_ publicKey: [UInt8]) -> [UInt8] {
        if isDiffieHellman {
            let value = Array(publicKey.drop { $0 == 0 })
            return TLV.encode(tag: 0x84, value: value.isEmpty ? [0] : value)
        }
        return TLV.encode(tag: 0x86, value: publicKey)
    }

    /// The pseudo-random function R(s, t) of Integrated Mapping (Doc 9303 Part 11
    /// §4.4.3.3.2): the block cipher of the protocol in CBC mode with a zero IV, keyed first
    /// with the terminal's nonce `t` over the chip's nonce `s`, then chained through the
    /// constants c0 (next key) and c1 (output) until the output has |p| + 64 bits.
    package func pseudoRandom(s: [UInt8], t: [UInt8], cipher: SecureMessagingCipher) -> Result<[UInt8], OpenSSLError> {
        let bits: Int
        switch LibCrypto.groupFieldBits(parameterID: parameterID) {
        case .success(let value): bits = value
        case .failure(let error): return .failure(error)
        }
        let l = s.count * 8
        let c0: [UInt8], c1: [UInt8]
        if l == 128 {
            c0 = Self.bytes("a668892a7c41e3ca739f40b057d85904")
            c1 = Self.bytes("a4e136ac725f738b01c1f60217c188ad")
        } else {
            c0 = Self.bytes("d463d65234124ef7897054986dca0a174e28df758cbaa03f240616414d5a1676")
            c1 = Self.bytes("54bd7255f0aaf831bec3423fcf39d69b6cbf066677d0faae5aadd99df8e53517")
        }
        func encrypt(_ key: [UInt8], _ data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
            cipher == .tripleDES
                ? LibCrypto.cipher(.desEDECBC, encrypt: true, key: key, iv: [UInt8](repeating: 0, count: 8), data: data)
                : LibCrypto.cipher(.aesCBC, encrypt: true, key: key, iv: [UInt8](repeating: 0, count: 16), data: data)
        }
        let blocks = (bits + 64 + l - 1) / l
        var key: [UInt8]
        switch encrypt(t, s) {
        case .success(let value): key = value
        case .failure(let error): return .failure(error)
        }
        var output: [UInt8] = []
        for _ in 0..<blocks {
            let truncated = Array(key.prefix(cipher.keyLength))
            switch (encrypt(truncated, c0), encrypt(truncated, c1)) {
            case (.success(let next), .success(let block)):
                key = next
                output += block
            case (.failure(let error), _), (_, .failure(let error)):
                return .failure(error)
            }
        }
        return .success(output)
    }

    private static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return result
    }
}
