internal import COpenSSL

extension LibCrypto {
    /// The bit length of the field prime of a standardized domain parameter (`COpenSSL_group_field_bits`).
    package static func groupFieldBits(parameterID: Int) -> Result<Int, OpenSSLError> {
        let bits = COpenSSL_group_field_bits(CInt(parameterID))
        guard bits > 0 else { return .failure(failure("COpenSSL_group_field_bits", status: -1)) }
        return .success(Int(bits))
    }

    /// Integrated Mapping over ECDH: the point encoding of `x` mod p (`COpenSSL_ec_map_integrated`).
    package static func ecMapIntegrated(parameterID: Int, x: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_ec_map_integrated", capacity: Int(COPENSSL_EC_POINT_MAX_SIZE)) { out, _, length in
            x.withUnsafeBufferPointer { COpenSSL_ec_map_integrated(CInt(parameterID), $0.baseAddress, $0.count, out, &length) }
        }
    }

    /// `base`^`exponent` mod p, or g^`exponent` (`COpenSSL_dh_exp`); a given base must lie in the subgroup.
    package static func dhExp(parameterID: Int, base: [UInt8]?, exponent: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_dh_exp", capacity: Int(COPENSSL_DH_ELEMENT_MAX_SIZE)) { out, capacity, length in
            (base ?? []).withUnsafeBufferPointer { b in
                exponent.withUnsafeBufferPointer { k in
                    COpenSSL_dh_exp(CInt(parameterID), base == nil ? nil : b.baseAddress, b.count, k.baseAddress, k.count, out, capacity, &length)
                }
            }
        }
    }

    /// Generic Mapping over DH: g^`nonce` · `h` mod p (`COpenSSL_dh_map_generic`).
    package static func dhMapGeneric(parameterID: Int, nonce: [UInt8], h: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_dh_map_generic", capacity: Int(COPENSSL_DH_ELEMENT_MAX_SIZE)) { out, capacity, length in
            nonce.withUnsafeBufferPointer { s in
                h.withUnsafeBufferPointer { h in
                    COpenSSL_dh_map_generic(CInt(parameterID), s.baseAddress, s.count, h.baseAddress, h.count, out, capacity, &length)
                }
            }
        }
    }

    /// Integrated Mapping over DH: (`x` mod p)^((p−1)/q) mod p (`COpenSSL_dh_map_integrated`).
    package static func dhMapIntegrated(parameterID: Int, x: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_dh_map_integrated", capacity: Int(COPENSSL_DH_ELEMENT_MAX_SIZE)) { out, capacity, length in
            x.withUnsafeBufferPointer { COpenSSL_dh_map_integrated(CInt(parameterID), $0.baseAddress, $0.count, out, capacity, &length) }
        }
    }

    /// A random exponent in [1, q) (`COpenSSL_dh_random_scalar`).
    package static func dhRandomScalar(parameterID: Int) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_dh_random_scalar", capacity: 64) { out, capacity, length in
            COpenSSL_dh_random_scalar(CInt(parameterID), out, capacity, &length)
        }
    }
}
