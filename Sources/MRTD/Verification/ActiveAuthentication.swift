public import APDU

/// Active Authentication (Doc 9303 Part 11 §6.1): the chip proves it holds the private key
/// of DG15 by signing a fresh challenge, so the chip is not a copy.
///
/// RSA keys sign with ISO/IEC 9796-2 digital signature scheme 1 (partial message
/// recovery); EC keys sign with ECDSA in plain r‖s form (BSI TR-03111), the hash named by
/// DG14's ActiveAuthenticationInfo. Trust DG15 only after Passive Authentication.
public enum ActiveAuthentication {
    /// Runs INTERNAL AUTHENTICATE over `channel` and checks the answer.
    /// - Parameters:
    ///   - channel: the secure channel (AA runs inside the access-controlled session).
    ///   - dataGroup15: the chip's public key.
    ///   - securityInfos: DG14, for the ECDSA hash algorithm.
    ///   - challenge: RND.IFD, 8 fresh random bytes.
    /// - Returns: passed, failed (the chip's signature does not verify, or it refused), or not supported.
    public static func authenticate(
        over channel: any APDUTransport, dataGroup15: DataGroup15, securityInfos: SecurityInfos?, challenge: [UInt8]
    ) async -> VerificationCheck {
        let response: ResponseAPDU
        do {
            response = try await channel.transmit(CommandAPDU(ins: 0x88, data: challenge, le: 256))
        } catch {
            return VerificationCheck(name, .failed, "INTERNAL AUTHENTICATE failed: \(error)")
        }
        guard response.status == .success, !response.data.isEmpty else {
            return VerificationCheck(name, .failed, "the chip refused INTERNAL AUTHENTICATE (SW \(response.status))")
        }
        return verify(signature: response.data, challenge: challenge, dataGroup15: dataGroup15, securityInfos: securityInfos)
    }

    package static let name = "active authentication"

    /// Checks a chip's answer to `challenge`.
    public static func verify(signature: [UInt8], challenge: [UInt8], dataGroup15: DataGroup15, securityInfos: SecurityInfos?) -> VerificationCheck {
        let key = LibCrypto.AnyKey.subjectPublicKeyInfo(dataGroup15.subjectPublicKeyInfo)
        guard case .success(let info) = LibCrypto.keyInfo(key) else {
            return VerificationCheck(name, .notSupported, "the DG15 key (\(dataGroup15.algorithm.oid)) is not usable")
        }
        return info.isRSA
            ? verifyRSA(signature: signature, challenge: challenge, key: key, bits: info.bits)
            : verifyECDSA(signature: signature, challenge: challenge, key: dataGroup15.subjectPublicKeyInfo, bits: info.bits, securityInfos: securityInfos)
    }

    /// ISO/IEC 10118-3 hash identifiers of the two-byte 9796-2 trailer (`xx CC`).
    package static let trailerHashes: [UInt8: HashAlgorithm] = [0x33: .sha1, 0x34: .sha256, 0x35: .sha512, 0x36: .sha384, 0x38: .sha224]

    package static func verifyRSA(signature: [UInt8], challenge: [UInt8], key: LibCrypto.AnyKey, bits: Int) -> VerificationCheck {
        let size = (bits + 7) / 8
        guard signature.count <= size else { return VerificationCheck(name, .failed, "the signature is longer than the modulus") }
        let padded = [UInt8](repeating: 0, count: size - signature.count) + signature
        guard case .success(let recovered) = LibCrypto.rsaRaw(key, input: padded), recovered.count == size, let last = recovered.last else {
            return VerificationCheck(name, .failed, "the signature is not an RSA value under the DG15 key")
        }
        // The header first: a signature made with another key recovers to random bytes, which
        // must read as "failed", not fall on the 1-in-256 `CC` trailer with an unknown hash.
        guard recovered[0] == 0x6A else {
            return VerificationCheck(name, .failed, "the recovered message is not an ISO/IEC 9796-2 partial-recovery representative")
        }
        let hash: HashAlgorithm
        let trailer: Int
        switch last {
        case 0xBC: (hash, trailer) = (.sha1, 1)
        case 0xCC:
            guard let named = trailerHashes[recovered[size - 2]] else { return VerificationCheck(name, .notSupported, "unknown ISO/IEC 9796-2 hash identifier") }
            (hash, trailer) = (named, 2)
        default:
            return VerificationCheck(name, .failed, "the recovered message has no ISO/IEC 9796-2 trailer")
        }
        guard size > 1 + hash.length + trailer else {
            return VerificationCheck(name, .failed, "the recovered message is not an ISO/IEC 9796-2 partial-recovery representative")
        }
        let messageEnd = size - trailer - hash.length
        let recoverable = Array(recovered[1..<messageEnd])
        let digest = Array(recovered[messageEnd..<(size - trailer)])
        guard let expected = try? hash.hash(recoverable + challenge) else { return VerificationCheck(name, .notSupported, "hashing failed") }
        return Bytes.constantTimeEqual(expected, digest)
            ? VerificationCheck(name, .passed, "ISO/IEC 9796-2 signature with \(hash.rawValue) verifies")
            : VerificationCheck(name, .failed, "the ISO/IEC 9796-2 signature does not cover the challenge")
    }

    /// ECDSA hash algorithms by the signature algorithm OID of ActiveAuthenticationInfo:
    /// BSI ecdsa-plain-SHA* and X9.62 ecdsa-with-SHA*.
    package static let ecdsaHashes: [OID: HashAlgorithm] = [
        "0.4.0.127.0.7.1.1.4.1.1": .sha1, "0.4.0.127.0.7.1.1.4.1.2": .sha224, "0.4.0.127.0.7.1.1.4.1.3": .sha256,
        "0.4.0.127.0.7.1.1.4.1.4": .sha384, "0.4.0.127.0.7.1.1.4.1.5": .sha512,
        "1.2.840.10045.4.1": .sha1, "1.2.840.10045.4.3.1": .sha224, "1.2.840.10045.4.3.2": .sha256,
        "1.2.840.10045.4.3.3": .sha384, "1.2.840.10045.4.3.4": .sha512,
    ]

    package static func verifyECDSA(signature: [UInt8], challenge: [UInt8], key: [UInt8], bits: Int, securityInfos: SecurityInfos?) -> VerificationCheck {
        let named = securityInfos?.infos.lazy.compactMap { info -> OID? in
            if case .activeAuthentication(_, let algorithm) = info { algorithm } else { nil }
        }.first
        guard let hash = named.map({ ecdsaHashes[$0] }) ?? .sha256 else {
            return VerificationCheck(name, .notSupported, "ECDSA signature algorithm \(named?.description ?? "") is not supported")
        }
        guard signature.count % 2 == 0, !signature.isEmpty else { return VerificationCheck(name, .failed, "the ECDSA signature is not r‖s") }
        let der = ECDSASignature.der(plain: signature)
        switch LibCrypto.verifySignature(key: .subjectPublicKeyInfo(key), digest: hash.digest, scheme: .keyDefault, saltLength: nil, data: challenge, signature: der) {
        case .success(true):
            return VerificationCheck(name, .passed, "ECDSA with \(hash.rawValue) verifies" + (named == nil ? " (DG14 names no algorithm; SHA-256 assumed)" : ""))
        case .success(false): return VerificationCheck(name, .failed, "the ECDSA signature does not cover the challenge")
        case .failure(let error): return VerificationCheck(name, .failed, "the DG15 key is unusable: \(error)")
        }
    }

}

/// Conversions between the DER (X9.62) and plain r‖s (TR-03111) forms of ECDSA signatures.
package enum ECDSASignature {
    package static func der(plain: [UInt8]) -> [UInt8] {
        let half = plain.count / 2
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return DER.tlv(0x02, value)
        }
        return DER.sequence(integer(plain[0..<half]), integer(plain[half...]))
    }

    package static func plain(der: [UInt8], size: Int) -> [UInt8]? {
        guard let sequence = try? TLV.parse(der), sequence.children.count == 2 else { return nil }
        var out: [UInt8] = []
        for integer in sequence.children {
            let value = Array(integer.value.drop { $0 == 0 })
            guard value.count <= size else { return nil }
            out += [UInt8](repeating: 0, count: size - value.count) + value
        }
        return out
    }
}
