#ifndef COPENSSL_ISSUER_H
#define COPENSSL_ISSUER_H

/*
 * The issuer's and the chip's libcrypto functions, for test documents only (the virtual
 * passport, its test PKI and the tests): keys, certificates, CRLs, CMS signatures and the
 * chip's halves of Active Authentication and PACE-CAM. Apart from COpenSSL so that the
 * reader (MRTD) links no code that makes documents.
 */

#include <stddef.h>
#include <stdint.h>

/// Generates a key pair and writes its private key as PKCS #8 DER (i2d_PrivateKey) and its
/// public key as SubjectPublicKeyInfo DER (i2d_PUBKEY). Returns 1, 0 on failure, -1 when
/// a buffer is too small.
int COpenSSL_generate_key(int kind, uint8_t *private_out, size_t private_cap, size_t *private_len,
                          uint8_t *public_out, size_t public_cap, size_t *public_len);

/// Issues an X.509 v3 certificate (test documents only): subject C and CN, serial, validity
/// in seconds since 1970, basicConstraints CA when `is_ca`, signed with SHA-256 by
/// `issuer_key` (PKCS #8 DER); self-signed when `issuer_cert` is NULL. Returns 1, 0 on
/// failure, -1 for bad arguments or a small buffer.
int COpenSSL_make_certificate(const char *country, const char *common_name, long serial,
                              int64_t not_before, int64_t not_after, int is_ca,
                              const uint8_t *subject_public, size_t subject_public_len,
                              const uint8_t *issuer_cert, size_t issuer_cert_len,
                              const uint8_t *issuer_key, size_t issuer_key_len,
                              uint8_t *out, size_t out_cap, size_t *out_len);

/// Issues a CRL (test documents only) by `issuer_cert` with `issuer_key`, revoking the
/// certificates with `revoked_count` serial numbers, valid from `this_update` to
/// `next_update` (seconds since 1970), signed with SHA-256. Returns 1, 0 on failure, -1 for
/// bad arguments or a small buffer.
int COpenSSL_make_crl(const uint8_t *issuer_cert, size_t issuer_cert_len,
                      const uint8_t *issuer_key, size_t issuer_key_len,
                      const long *revoked, size_t revoked_count, int64_t this_update, int64_t next_update,
                      uint8_t *out, size_t out_cap, size_t *out_len);

/// Signs `content` as CMS SignedData (CMS_sign with CMS_PARTIAL, CMS_add1_signer,
/// CMS_set1_eContentType, CMS_final) with eContentType `econtent_oid` (dotted text),
/// the signer's certificate included, signed attributes, digest `digest`. Writes the
/// ContentInfo DER. Returns 1, 0 on failure, -1 for bad arguments or a small buffer.
int COpenSSL_cms_sign(const uint8_t *content, size_t content_len, const char *econtent_oid,
                      const uint8_t *cert, size_t cert_len, const uint8_t *key, size_t key_len,
                      int digest, uint8_t *out, size_t out_cap, size_t *out_len);

/// Signs `data` (EVP_DigestSign) with a PKCS #8 DER private key. For EC keys the signature
/// is DER Ecdsa-Sig-Value. Returns 1, 0 on failure, -1 for bad arguments or a small buffer.
int COpenSSL_sign(const uint8_t *key, size_t key_len, int digest, int scheme,
                  const uint8_t *data, size_t data_len, uint8_t *out, size_t out_cap, size_t *out_len);

/// PACE Chip Authentication Mapping, chip side (test documents only): CA = `map_key` x
/// `static_key`^-1 mod the group order (BN_mod_inverse, BN_mod_mul), padded to the order's
/// length. Returns 1, 0 on failure, -1 for an unknown parameter ID.
int COpenSSL_ec_cam_scalar(int param_id, const uint8_t *map_key, size_t map_key_len,
                           const uint8_t *static_key, size_t static_key_len,
                           uint8_t *out, size_t out_cap, size_t *out_len);

/// The curve of standardized domain parameter `param_id` as explicit DER ECParameters
/// (EC_GROUP_set_asn1_flag(OPENSSL_EC_EXPLICIT_CURVE), i2d_ECPKParameters), as many issuing
/// states encode it in DG14 (test documents). Returns 1, 0 on failure, -1 for an unknown ID
/// or too little room.
int COpenSSL_ec_explicit_parameters(int param_id, uint8_t *out, size_t out_cap, size_t *out_len);

#endif
