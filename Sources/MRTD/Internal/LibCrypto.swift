internal import COpenSSL

/// The only place MRTD calls C: one function per libcrypto shim call, each returning a
/// `Result` with an ``OpenSSLError`` that names the call.
package enum LibCrypto {
    /// A digest algorithm the shim knows.
    package struct Digest: RawRepresentable, Hashable, Sendable {
        package var rawValue: CInt
        package init(rawValue: CInt) { self.rawValue = rawValue }
        /// SHA-1 (`COPENSSL_DIGEST_SHA1`).
        package static let sha1 = Digest(rawValue: CInt(COPENSSL_DIGEST_SHA1))
        /// SHA-256 (`COPENSSL_DIGEST_SHA256`).
        package static let sha256 = Digest(rawValue: CInt(COPENSSL_DIGEST_SHA256))
        /// SHA-224 (`COPENSSL_DIGEST_SHA224`).
        package static let sha224 = Digest(rawValue: CInt(COPENSSL_DIGEST_SHA224))
        /// SHA-384 (`COPENSSL_DIGEST_SHA384`).
        package static let sha384 = Digest(rawValue: CInt(COPENSSL_DIGEST_SHA384))
        /// SHA-512 (`COPENSSL_DIGEST_SHA512`).
        package static let sha512 = Digest(rawValue: CInt(COPENSSL_DIGEST_SHA512))
    }

    /// A block cipher and mode the shim knows; all run without padding.
    package struct Cipher: RawRepresentable, Hashable, Sendable {
        package var rawValue: CInt
        package init(rawValue: CInt) { self.rawValue = rawValue }
        /// Two-key triple DES, CBC (`COPENSSL_CIPHER_DES_EDE_CBC`).
        package static let desEDECBC = Cipher(rawValue: CInt(COPENSSL_CIPHER_DES_EDE_CBC))
        /// Two-key triple DES, ECB (`COPENSSL_CIPHER_DES_EDE_ECB`).
        package static let desEDEECB = Cipher(rawValue: CInt(COPENSSL_CIPHER_DES_EDE_ECB))
        /// AES-128/192/256 by key length, CBC (`COPENSSL_CIPHER_AES_CBC`).
        package static let aesCBC = Cipher(rawValue: CInt(COPENSSL_CIPHER_AES_CBC))
        /// AES-128/192/256 by key length, ECB (`COPENSSL_CIPHER_AES_ECB`).
        package static let aesECB = Cipher(rawValue: CInt(COPENSSL_CIPHER_AES_ECB))
    }

    /// Hashes `data` with `digest` (`COpenSSL_digest`, which calls `EVP_Digest`).
    package static func digest(_ digest: Digest, _ data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        var out = [UInt8](repeating: 0, count: Int(COPENSSL_DIGEST_MAX_SIZE))
        var length: CUnsignedInt = 0
        let status = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                COpenSSL_digest(digest.rawValue, input.baseAddress, input.count, output.baseAddress, &length)
            }
        }
        guard status == 1 else { return .failure(failure("COpenSSL_digest", status: status)) }
        return .success(Array(out.prefix(Int(length))))
    }

    /// Runs `cipher` over whole blocks of `data` (`COpenSSL_cipher`, which calls the
    /// `EVP_Cipher*` family with padding disabled).
    package static func cipher(
        _ cipher: Cipher, encrypt: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]
    ) -> Result<[UInt8], OpenSSLError> {
        var out = [UInt8](repeating: 0, count: data.count)
        var length = 0
        let status = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                data.withUnsafeBufferPointer { input in
                    out.withUnsafeMutableBufferPointer { output in
                        COpenSSL_cipher(
                            cipher.rawValue, encrypt ? 1 : 0,
                            key.baseAddress, key.count,
                            iv.baseAddress, iv.count,
                            input.baseAddress, input.count,
                            output.baseAddress, &length)
                    }
                }
            }
        }
        guard status == 1, length == data.count else { return .failure(failure("COpenSSL_cipher", status: status)) }
        return .success(out)
    }

    /// Computes the 16-byte AES-CMAC of `data` (`COpenSSL_aes_cmac`, `EVP_MAC` "CMAC").
    package static func aesCMAC(key: [UInt8], data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        var out = [UInt8](repeating: 0, count: Int(COPENSSL_CMAC_SIZE))
        let status = key.withUnsafeBufferPointer { key in
            data.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { output in
                    COpenSSL_aes_cmac(key.baseAddress, key.count, input.baseAddress, input.count, output.baseAddress)
                }
            }
        }
        guard status == 1 else { return .failure(failure("COpenSSL_aes_cmac", status: status)) }
        return .success(out)
    }

    /// Takes the pending error off OpenSSL's queue (`COpenSSL_pop_error`) and names it
    /// after `function`; a status of -1 means the shim refused the arguments itself.
    package static func failure(_ function: String, status: CInt) -> OpenSSLError {
        var buffer = [CChar](repeating: 0, count: Int(COPENSSL_ERROR_STRING_SIZE))
        let code = buffer.withUnsafeMutableBufferPointer { COpenSSL_pop_error($0.baseAddress, $0.count) }
        if status == -1 {
            return OpenSSLError(function: function, code: UInt(code), reason: "algorithm, key, IV or data length not accepted")
        }
        let text = buffer.withUnsafeBufferPointer { pointer in
            String(decoding: pointer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return OpenSSLError(function: function, code: UInt(code), reason: text.isEmpty ? "no OpenSSL error queued" : text)
    }
}
