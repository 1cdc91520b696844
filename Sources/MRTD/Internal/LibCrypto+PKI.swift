internal import COpenSSL

/// The certificate, signature and CMS calls of the shim; like ``LibCrypto``, one function
/// per C call, each returning a `Result` with an ``OpenSSLError`` that names it.
extension LibCrypto {
    /// A signature scheme (`COPENSSL_SIGNATURE_*`).
    package struct SignatureScheme: RawRepresentable, Hashable, Sendable {
        package var rawValue: CInt
        package init(rawValue: CInt) { self.rawValue = rawValue }
        /// PKCS #1 v1.5 for RSA keys, ECDSA for EC keys (`COPENSSL_SIGNATURE_DEFAULT`).
        package static let keyDefault = SignatureScheme(rawValue: CInt(COPENSSL_SIGNATURE_DEFAULT))
        /// RSASSA-PSS with MGF1 (`COPENSSL_SIGNATURE_RSA_PSS`).
        package static let rsaPSS = SignatureScheme(rawValue: CInt(COPENSSL_SIGNATURE_RSA_PSS))
    }

    /// Where the public key comes from (`COPENSSL_KEY_*`).
    package enum PublicKeySource {
        case certificate([UInt8])
        case subjectPublicKeyInfo([UInt8])
    }

    /// A key type for test documents (`COPENSSL_KEY_RSA_2048`, `COPENSSL_KEY_EC_P256`).
    package struct KeyType: RawRepresentable, Hashable, Sendable {
        package var rawValue: CInt
        package init(rawValue: CInt) { self.rawValue = rawValue }
        package static let rsa2048 = KeyType(rawValue: CInt(COPENSSL_KEY_RSA_2048))
        package static let ecP256 = KeyType(rawValue: CInt(COPENSSL_KEY_EC_P256))
    }

    /// Whether `signature` over `data` verifies (`COpenSSL_verify_signature`). `.success(false)`
    /// is a signature that does not verify; `.failure` is a key or algorithm libcrypto refused.
    package static func verifySignature(
        key: PublicKeySource, digest: Digest, scheme: SignatureScheme, saltLength: Int?, data: [UInt8], signature: [UInt8]
    ) -> Result<Bool, OpenSSLError> {
        let (kind, bytes): (CInt, [UInt8])
        switch key {
        case .certificate(let der): (kind, bytes) = (CInt(COPENSSL_KEY_CERTIFICATE), der)
        case .subjectPublicKeyInfo(let der): (kind, bytes) = (CInt(COPENSSL_KEY_SPKI), der)
        }
        let status = bytes.withUnsafeBufferPointer { key in
            data.withUnsafeBufferPointer { data in
                signature.withUnsafeBufferPointer { signature in
                    COpenSSL_verify_signature(
                        kind, key.baseAddress, key.count, digest.rawValue, scheme.rawValue, CInt(saltLength ?? -1),
                        data.baseAddress, data.count, signature.baseAddress, signature.count)
                }
            }
        }
        switch status {
        case 1: return .success(true)
        case -1: return .failure(failure("COpenSSL_verify_signature", status: status))
        default:
            _ = failure("COpenSSL_verify_signature", status: status)  // clear the queue: a bad signature is an answer
            return .success(false)
        }
    }

    /// The outcome of a chain verification.
    package enum ChainVerdict: Hashable, Sendable {
        case verified
        /// The X509_V_ERR code and its text.
        case rejected(code: Int, reason: String)
    }

    /// Verifies `leaf` against `anchors` (`COpenSSL_verify_chain`).
    package static func verifyChain(leaf: [UInt8], anchors: [[UInt8]], crls: [[UInt8]]) -> Result<ChainVerdict, OpenSSLError> {
        let anchorBytes = anchors.flatMap { $0 }
        let anchorLengths = anchors.map(\.count)
        let crlBytes = crls.flatMap { $0 }
        let crlLengths = crls.map(\.count)
        var code: CInt = 0
        var reason = [CChar](repeating: 0, count: Int(COPENSSL_ERROR_STRING_SIZE))
        let status = leaf.withUnsafeBufferPointer { leaf in
            anchorBytes.withUnsafeBufferPointer { anchors in
                anchorLengths.withUnsafeBufferPointer { anchorLengths in
                    crlBytes.withUnsafeBufferPointer { crls in
                        crlLengths.withUnsafeBufferPointer { crlLengths in
                            reason.withUnsafeMutableBufferPointer { reason in
                                COpenSSL_verify_chain(
                                    leaf.baseAddress, leaf.count, anchors.baseAddress, anchorLengths.baseAddress, anchorLengths.count,
                                    crls.baseAddress, crlLengths.baseAddress, crlLengths.count, &code, reason.baseAddress, reason.count)
                            }
                        }
                    }
                }
            }
        }
        switch status {
        case 1: return .success(.verified)
        case 0:
            _ = failure("COpenSSL_verify_chain", status: status)
            let text = reason.withUnsafeBufferPointer { String(decoding: $0.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            return .success(.rejected(code: Int(code), reason: text))
        default: return .failure(failure("COpenSSL_verify_chain", status: status))
        }
    }

    /// The validity period of a DER certificate in seconds since 1970 (`COpenSSL_certificate_validity`).
    package static func certificateValidity(_ certificate: [UInt8]) -> Result<(notBefore: Int64, notAfter: Int64), OpenSSLError> {
        var notBefore: Int64 = 0
        var notAfter: Int64 = 0
        let status = certificate.withUnsafeBufferPointer { COpenSSL_certificate_validity($0.baseAddress, $0.count, &notBefore, &notAfter) }
        guard status == 1 else { return .failure(failure("COpenSSL_certificate_validity", status: status)) }
        return .success((notBefore, notAfter))
    }

    /// Runs a shim call that fills an output buffer, growing nothing: `capacity` must be enough.
    package static func output(
        _ function: String, capacity: Int, _ body: (UnsafeMutablePointer<UInt8>?, Int, inout Int) -> CInt
    ) -> Result<[UInt8], OpenSSLError> {
        var out = [UInt8](repeating: 0, count: capacity)
        var length = 0
        let status = out.withUnsafeMutableBufferPointer { body($0.baseAddress, $0.count, &length) }
        guard status == 1 else { return .failure(failure(function, status: status)) }
        return .success(Array(out.prefix(length)))
    }
}

extension LibCrypto {
    /// A key for ``keyInfo(_:)`` and ``rsaRaw(_:input:)``.
    package enum AnyKey {
        case subjectPublicKeyInfo([UInt8])
        case privateKey([UInt8])

        package var kind: CInt { if case .privateKey = self { CInt(COPENSSL_KEY_PRIVATE) } else { CInt(COPENSSL_KEY_SPKI) } }
        package var bytes: [UInt8] {
            switch self {
            case .subjectPublicKeyInfo(let bytes), .privateKey(let bytes): return bytes
            }
        }
    }

    /// Whether a key is RSA, and its modulus or field size in bits (`COpenSSL_key_info`).
    package static func keyInfo(_ key: AnyKey) -> Result<(isRSA: Bool, bits: Int), OpenSSLError> {
        var isRSA: CInt = 0
        var bits: CInt = 0
        let bytes = key.bytes
        let status = bytes.withUnsafeBufferPointer { COpenSSL_key_info(key.kind, $0.baseAddress, $0.count, &isRSA, &bits) }
        guard status == 1 else { return .failure(failure("COpenSSL_key_info", status: status)) }
        return .success((isRSA != 0, Int(bits)))
    }

    /// The raw RSA operation: public (m^e) with an SPKI, private (c^d) with a private key (`COpenSSL_rsa_raw`).
    package static func rsaRaw(_ key: AnyKey, input: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        let bytes = key.bytes
        return output("COpenSSL_rsa_raw", capacity: max(input.count, 1)) { out, capacity, length in
            bytes.withUnsafeBufferPointer { keyBuffer in
                input.withUnsafeBufferPointer { inBuffer in
                    COpenSSL_rsa_raw(key.kind, keyBuffer.baseAddress, keyBuffer.count, inBuffer.baseAddress, inBuffer.count, out, capacity, &length)
                }
            }
        }
    }
}

extension LibCrypto {
    /// `scalar` × `point` (or × G) on the curve of standardized domain parameter `parameterID` (`COpenSSL_ec_mul`).
    package static func ecMultiply(parameterID: Int, scalar: [UInt8], point: [UInt8]?) -> Result<[UInt8], OpenSSLError> {
        var out = [UInt8](repeating: 0, count: Int(COPENSSL_EC_POINT_MAX_SIZE))
        var length = 0
        let status = scalar.withUnsafeBufferPointer { k in
            (point ?? []).withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o in
                    COpenSSL_ec_mul(CInt(parameterID), k.baseAddress, k.count, point == nil ? nil : p.baseAddress, p.count, o.baseAddress, &length)
                }
            }
        }
        guard status == 1 else { return .failure(failure("COpenSSL_ec_mul", status: status)) }
        return .success(Array(out.prefix(length)))
    }

    /// Generic Mapping: `s` × G + `h` (`COpenSSL_ec_map_generic`).
    package static func ecMapGeneric(parameterID: Int, nonce: [UInt8], point: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        var out = [UInt8](repeating: 0, count: Int(COPENSSL_EC_POINT_MAX_SIZE))
        var length = 0
        let status = nonce.withUnsafeBufferPointer { s in
            point.withUnsafeBufferPointer { h in
                out.withUnsafeMutableBufferPointer { o in
                    COpenSSL_ec_map_generic(CInt(parameterID), s.baseAddress, s.count, h.baseAddress, h.count, o.baseAddress, &length)
                }
            }
        }
        guard status == 1 else { return .failure(failure("COpenSSL_ec_map_generic", status: status)) }
        return .success(Array(out.prefix(length)))
    }

    /// A random private key for the curve (`COpenSSL_ec_random_scalar`).
    package static func ecRandomScalar(parameterID: Int) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_ec_random_scalar", capacity: 80) { out, capacity, length in
            COpenSSL_ec_random_scalar(CInt(parameterID), out, capacity, &length)
        }
    }

    /// The standardized domain parameter ID of the curve with these explicit parameters
    /// (big-endian p, a, b, the uncompressed generator, the order); nil when none has them.
    package static func ecParameterID(prime: [UInt8], a: [UInt8], b: [UInt8], generator: [UInt8], order: [UInt8]) -> Int? {
        let id = prime.withUnsafeBufferPointer { p in
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    generator.withUnsafeBufferPointer { g in
                        order.withUnsafeBufferPointer { n in
                            COpenSSL_ec_param_id_matching(
                                p.baseAddress, p.count, a.baseAddress, a.count, b.baseAddress, b.count, g.baseAddress, g.count, n.baseAddress, n.count)
                        }
                    }
                }
            }
        }
        return id < 0 ? nil : Int(id)
    }
}
