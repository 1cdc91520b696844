import COpenSSLIssuer
package import MRTD

/// The libcrypto calls that make test documents (COpenSSLIssuer): keys, certificates,
/// CRLs, CMS signatures, the chip's signature and its PACE-CAM scalar. The reader has none.
extension LibCrypto {
    /// A fresh key pair: PKCS #8 private key and SubjectPublicKeyInfo, both DER (`COpenSSL_generate_key`).
    package static func generateKey(_ type: KeyType) -> Result<(privateKey: [UInt8], publicKey: [UInt8]), OpenSSLError> {
        var publicKey: [UInt8] = []
        let privateKey = output("COpenSSL_generate_key", capacity: 4096) { out, capacity, length in
            var pub = [UInt8](repeating: 0, count: 2048)
            var pubLength = 0
            let status = pub.withUnsafeMutableBufferPointer { COpenSSL_generate_key(type.rawValue, out, capacity, &length, $0.baseAddress, $0.count, &pubLength) }
            publicKey = Array(pub.prefix(pubLength))
            return status
        }
        return privateKey.map { ($0, publicKey) }
    }

    /// A certificate for a test document PKI (`COpenSSL_make_certificate`).
    package static func makeCertificate(
        country: String, commonName: String, serial: Int, notBefore: Int64, notAfter: Int64, isCA: Bool,
        subjectPublicKey: [UInt8], issuerCertificate: [UInt8]?, issuerPrivateKey: [UInt8]
    ) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_make_certificate", capacity: 8192) { out, capacity, length in
            subjectPublicKey.withUnsafeBufferPointer { subject in
                issuerPrivateKey.withUnsafeBufferPointer { key in
                    let issuer = issuerCertificate ?? []
                    return issuer.withUnsafeBufferPointer { issuerBuffer in
                        COpenSSL_make_certificate(
                            country, commonName, serial, notBefore, notAfter, isCA ? 1 : 0,
                            subject.baseAddress, subject.count,
                            issuerCertificate == nil ? nil : issuerBuffer.baseAddress, issuerBuffer.count,
                            key.baseAddress, key.count, out, capacity, &length)
                    }
                }
            }
        }
    }

    /// CMS SignedData over `content` (`COpenSSL_cms_sign`), as ContentInfo DER.
    package static func cmsSign(
        content: [UInt8], contentType: String, certificate: [UInt8], privateKey: [UInt8], digest: Digest
    ) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_cms_sign", capacity: content.count + certificate.count + 4096) { out, capacity, length in
            content.withUnsafeBufferPointer { content in
                certificate.withUnsafeBufferPointer { cert in
                    privateKey.withUnsafeBufferPointer { key in
                        COpenSSL_cms_sign(
                            content.baseAddress, content.count, contentType, cert.baseAddress, cert.count,
                            key.baseAddress, key.count, digest.rawValue, out, capacity, &length)
                    }
                }
            }
        }
    }

    /// A signature with a PKCS #8 private key (`COpenSSL_sign`).
    package static func sign(privateKey: [UInt8], digest: Digest, scheme: SignatureScheme, data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_sign", capacity: 1024) { out, capacity, length in
            privateKey.withUnsafeBufferPointer { key in
                data.withUnsafeBufferPointer { data in
                    COpenSSL_sign(key.baseAddress, key.count, digest.rawValue, scheme.rawValue, data.baseAddress, data.count, out, capacity, &length)
                }
            }
        }
    }
    /// The curve of a standardized domain parameter ID as explicit DER ECParameters.
    package static func ecExplicitParameters(parameterID: Int) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_ec_explicit_parameters", capacity: 1024) { out, capacity, length in
            COpenSSL_ec_explicit_parameters(CInt(parameterID), out, capacity, &length)
        }
    }
}

extension LibCrypto {
    /// A CRL for a test PKI (`COpenSSL_make_crl`).
    package static func makeCRL(
        issuerCertificate: [UInt8], issuerPrivateKey: [UInt8], revokedSerials: [Int], thisUpdate: Int64, nextUpdate: Int64
    ) -> Result<[UInt8], OpenSSLError> {
        let serials = revokedSerials.map { CLong($0) }
        return output("COpenSSL_make_crl", capacity: 4096) { out, capacity, length in
            issuerCertificate.withUnsafeBufferPointer { cert in
                issuerPrivateKey.withUnsafeBufferPointer { key in
                    serials.withUnsafeBufferPointer { serials in
                        COpenSSL_make_crl(
                            cert.baseAddress, cert.count, key.baseAddress, key.count, serials.baseAddress, serials.count,
                            thisUpdate, nextUpdate, out, capacity, &length)
                    }
                }
            }
        }
    }
}

extension LibCrypto {
    /// CA = map key × static key⁻¹ mod n, the chip's PACE-CAM scalar (`COpenSSL_ec_cam_scalar`).
    package static func ecChipAuthenticationScalar(parameterID: Int, mappingKey: [UInt8], staticKey: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        output("COpenSSL_ec_cam_scalar", capacity: 80) { out, capacity, length in
            mappingKey.withUnsafeBufferPointer { a in
                staticKey.withUnsafeBufferPointer { b in
                    COpenSSL_ec_cam_scalar(CInt(parameterID), a.baseAddress, a.count, b.baseAddress, b.count, out, capacity, &length)
                }
            }
        }
    }
}
