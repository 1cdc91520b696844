// The part of libcrypto (OpenSSL 3) that MRTD needs, behind a small prefixed shim.
//
// Swift never sees an EVP context: each shim call is one complete operation that
// allocates, runs and frees its context, so no error path in Swift can leak one.
// Algorithms are chosen by the constants below rather than by EVP_* getters so that
// the legacy-provider question (single DES is not in OpenSSL 3's default provider)
// is answered here, once.
#ifndef COPENSSL_H
#define COPENSSL_H

#include <stddef.h>
#include <stdint.h>

/// Digest algorithms for COpenSSL_digest.
enum {
    /// SHA-1 (EVP_sha1), 20-byte output.
    COPENSSL_DIGEST_SHA1 = 1,
    /// SHA-256 (EVP_sha256), 32-byte output.
    COPENSSL_DIGEST_SHA256 = 2,
    /// SHA-224 (EVP_sha224), 28-byte output.
    COPENSSL_DIGEST_SHA224 = 3,
    /// SHA-384 (EVP_sha384), 48-byte output.
    COPENSSL_DIGEST_SHA384 = 4,
    /// SHA-512 (EVP_sha512), 64-byte output.
    COPENSSL_DIGEST_SHA512 = 5,
};

/// Cipher algorithms for COpenSSL_cipher. All run without padding: callers pad.
enum {
    /// Two-key triple DES in CBC mode (EVP_des_ede_cbc), 16-byte key, 8-byte IV.
    COPENSSL_CIPHER_DES_EDE_CBC = 1,
    /// Two-key triple DES in ECB mode (EVP_des_ede_ecb), 16-byte key.
    COPENSSL_CIPHER_DES_EDE_ECB = 2,
    /// AES in CBC mode (EVP_aes_{128,192,256}_cbc chosen by key length), 16-byte IV.
    COPENSSL_CIPHER_AES_CBC = 3,
    /// AES in ECB mode (EVP_aes_{128,192,256}_ecb chosen by key length).
    COPENSSL_CIPHER_AES_ECB = 4,
};

/// Largest digest output of any COPENSSL_DIGEST_* (EVP_MAX_MD_SIZE is larger; this is enough).
#define COPENSSL_DIGEST_MAX_SIZE 64
/// Output length of an AES-CMAC tag.
#define COPENSSL_CMAC_SIZE 16
/// Room for an OpenSSL error string (ERR_error_string_n needs at least 120).
#define COPENSSL_ERROR_STRING_SIZE 256

/// Hashes `data` (EVP_Digest). Writes the digest to `out` (COPENSSL_DIGEST_MAX_SIZE bytes)
/// and its length to `out_len`. Returns 1 on success, 0 on failure (error queue set),
/// -1 for an unknown algorithm.
int COpenSSL_digest(int algorithm, const uint8_t *data, size_t data_len,
                    uint8_t *out, unsigned int *out_len);

/// Encrypts (`encrypt` = 1) or decrypts (0) `in` with padding disabled (EVP_CipherInit_ex,
/// EVP_CIPHER_CTX_set_padding, EVP_CipherUpdate, EVP_CipherFinal_ex). `in_len` must be a
/// multiple of the block size; `out` must hold `in_len` bytes. `iv` may be NULL for ECB.
/// Returns 1 on success, 0 on an OpenSSL failure (error queue set), -1 for an unknown
/// algorithm or a key/IV/length that does not fit it.
int COpenSSL_cipher(int algorithm, int encrypt,
                    const uint8_t *key, size_t key_len,
                    const uint8_t *iv, size_t iv_len,
                    const uint8_t *in, size_t in_len,
                    uint8_t *out, size_t *out_len);

/// Computes AES-CMAC (NIST SP 800-38B, RFC 4493) with EVP_MAC "CMAC" over `data`; the
/// AES variant follows the key length (16, 24 or 32). Writes COPENSSL_CMAC_SIZE bytes.
/// Returns 1 on success, 0 on an OpenSSL failure, -1 for a bad key length.
int COpenSSL_aes_cmac(const uint8_t *key, size_t key_len,
                      const uint8_t *data, size_t data_len,
                      uint8_t *out);

/// Signature schemes for COpenSSL_verify_signature and COpenSSL_sign.
enum {
    /// The key's default: PKCS #1 v1.5 for RSA, ECDSA (DER Ecdsa-Sig-Value) for EC keys.
    COPENSSL_SIGNATURE_DEFAULT = 0,
    /// RSASSA-PSS with MGF1 over the same digest.
    COPENSSL_SIGNATURE_RSA_PSS = 1,
};

/// Where COpenSSL_verify_signature finds the public key.
enum {
    /// `key` is a DER X.509 certificate (d2i_X509, X509_get0_pubkey).
    COPENSSL_KEY_CERTIFICATE = 0,
    /// `key` is a DER SubjectPublicKeyInfo (d2i_PUBKEY).
    COPENSSL_KEY_SPKI = 1,
    /// `key` is a PKCS #8 DER private key (d2i_AutoPrivateKey); COpenSSL_key_info and COpenSSL_rsa_raw only.
    COPENSSL_KEY_PRIVATE = 2,
};

/// Verifies `sig` over `data` (EVP_DigestVerifyInit, EVP_DigestVerify) with the public key
/// of `key`. For PSS, `salt_len` is the salt length (RSA_PSS_SALTLEN_AUTO when negative).
/// Returns 1 when the signature verifies, 0 when it does not or libcrypto failed (error
/// queue set), -1 for unusable arguments (unknown digest, undecodable key).
int COpenSSL_verify_signature(int key_kind, const uint8_t *key, size_t key_len,
                              int digest, int scheme, int salt_len,
                              const uint8_t *data, size_t data_len,
                              const uint8_t *sig, size_t sig_len);

/// Verifies the chain from the DER certificate `leaf` to one of `anchors_count` trusted
/// DER certificates concatenated in `anchors` with their lengths in `anchor_lens`
/// (X509_STORE, X509_V_FLAG_PARTIAL_CHAIN so a link certificate can be the anchor).
/// Validity dates are not checked here (X509_V_FLAG_NO_CHECK_TIME); CRLs in `crls` (same
/// layout) are checked when `crls_count` > 0 (X509_V_FLAG_CRL_CHECK).
/// Returns 1 on success, 0 when the chain does not verify (`verify_error` holds the
/// X509_V_ERR code and `reason` its text), -1 when an input does not decode.
int COpenSSL_verify_chain(const uint8_t *leaf, size_t leaf_len,
                          const uint8_t *anchors, const size_t *anchor_lens, size_t anchors_count,
                          const uint8_t *crls, const size_t *crl_lens, size_t crls_count,
                          int *verify_error, char *reason, size_t reason_len);

/// Reads the validity period of a DER certificate as seconds since 1970 (X509_get0_notBefore,
/// ASN1_TIME_to_tm). Returns 1 on success, -1 when the certificate does not decode.
int COpenSSL_certificate_validity(const uint8_t *cert, size_t cert_len, int64_t *not_before, int64_t *not_after);

/// Key types for COpenSSL_generate_key (test documents only).
enum {
    /// RSA 2048 (EVP_RSA_gen).
    COPENSSL_KEY_RSA_2048 = 1,
    /// ECDSA on P-256 (EVP_EC_gen "P-256").
    COPENSSL_KEY_EC_P256 = 2,
};

/// Describes a key: `is_rsa` 1 for RSA, 0 for EC; `bits` the modulus or field size
/// (EVP_PKEY_get_base_id, EVP_PKEY_get_bits). Returns 1, or -1 when the key does not decode.
int COpenSSL_key_info(int key_kind, const uint8_t *key, size_t key_len, int *is_rsa, int *bits);

/// The raw RSA operation without padding (ISO/IEC 9796-2 needs it): with a public key
/// (SPKI) m^e mod n (EVP_PKEY_encrypt, RSA_NO_PADDING), with a private key (PKCS #8)
/// c^d mod n (EVP_PKEY_decrypt, RSA_NO_PADDING). `in_len` must be the modulus size.
/// Returns 1, 0 on failure (error queue set), -1 for bad arguments or a small buffer.
int COpenSSL_rsa_raw(int key_kind, const uint8_t *key, size_t key_len,
                     const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len);

/// Largest uncompressed EC point of a supported curve (secp521r1: 1 + 2 * 66 bytes).
#define COPENSSL_EC_POINT_MAX_SIZE 133

/// Multiplies on the curve of BSI TR-03110 standardized domain parameter `param_id`
/// (8-18: the NIST and brainpool curves): `out` = `scalar` x `point`, or `scalar` x G when
/// `point` is NULL (EC_POINT_oct2point, which rejects points off the curve; EC_POINT_mul).
/// Writes the uncompressed point (COPENSSL_EC_POINT_MAX_SIZE bytes room). Returns 1, 0 on
/// failure (error queue set), -1 for an unknown parameter ID or a bad point.
int COpenSSL_ec_mul(int param_id, const uint8_t *scalar, size_t scalar_len,
                    const uint8_t *point, size_t point_len, uint8_t *out, size_t *out_len);

/// PACE Generic Mapping (ICAO Doc 9303 Part 11 §4.4.3.3.1): `out` = `s` x G + `h`.
/// Returns as COpenSSL_ec_mul.
int COpenSSL_ec_map_generic(int param_id, const uint8_t *s, size_t s_len,
                            const uint8_t *h, size_t h_len, uint8_t *out, size_t *out_len);

/// A uniformly random private key in [1, order) (BN_priv_rand_range), big-endian, padded
/// to the order's length. Returns 1, 0 on failure, -1 for an unknown parameter ID.
int COpenSSL_ec_random_scalar(int param_id, uint8_t *out, size_t out_cap, size_t *out_len);

/// The standardized domain parameter ID (8-18) of the curve with exactly these explicit
/// parameters, as an ECParameters structure (RFC 3279) carries them: the prime p, the
/// coefficients a and b, the generator as an uncompressed point and the order, all
/// big-endian (leading zeros ignored). Returns the ID, or -1 when no standardized curve has
/// them (EC_GROUP_get_curve, EC_GROUP_get0_generator, EC_GROUP_get0_order, BN_cmp).
int COpenSSL_ec_param_id_matching(const uint8_t *p, size_t p_len, const uint8_t *a, size_t a_len,
                                  const uint8_t *b, size_t b_len, const uint8_t *g, size_t g_len,
                                  const uint8_t *n, size_t n_len);

/// Bit length of the field prime of standardized domain parameter `param_id` (0-2: the
/// RFC 5114 DH groups, 8-18: the curves; EC_GROUP_get_degree, BN_num_bits). -1 when unknown.
int COpenSSL_group_field_bits(int param_id);

/// PACE Integrated Mapping over ECDH (Doc 9303 Part 11 §4.4.3.3.2, App. B.2): the point
/// encoding f_G of `x` mod p (x from the pseudo-random function R(s,t)), times the cofactor
/// (EC_GROUP_get_curve, BN_mod_* , EC_POINT_set_affine_coordinates). Curves with p = 3 mod 4
/// only (-1 for secp224r1). Returns as COpenSSL_ec_mul.
int COpenSSL_ec_map_integrated(int param_id, const uint8_t *x, size_t x_len, uint8_t *out, size_t *out_len);

/// Largest DH group element of a supported group (2048 bits).
#define COPENSSL_DH_ELEMENT_MAX_SIZE 256

/// Modular exponentiation in the RFC 5114 group of standardized domain parameter `param_id`
/// (0-2; p, q, g from OpenSSL's "dh_1024_160", "dh_2048_224", "dh_2048_256"): `out` =
/// `base`^`exponent` mod p, or g^`exponent` when `base` is NULL (BN_mod_exp). A given base
/// must be in the order-q subgroup and not 1 (-1 otherwise). Writes the result padded to the
/// length of p. Returns 1, 0 on failure, -1 for an unknown parameter ID or a bad base.
int COpenSSL_dh_exp(int param_id, const uint8_t *base, size_t base_len, const uint8_t *exponent, size_t exponent_len,
                    uint8_t *out, size_t out_cap, size_t *out_len);

/// PACE Generic Mapping over DH: `out` = g^`s` * `h` mod p. Returns as COpenSSL_dh_exp.
int COpenSSL_dh_map_generic(int param_id, const uint8_t *s, size_t s_len, const uint8_t *h, size_t h_len,
                            uint8_t *out, size_t out_cap, size_t *out_len);

/// PACE Integrated Mapping over DH: `out` = (`x` mod p)^((p-1)/q) mod p, refused when 1.
/// Returns as COpenSSL_dh_exp.
int COpenSSL_dh_map_integrated(int param_id, const uint8_t *x, size_t x_len, uint8_t *out, size_t out_cap, size_t *out_len);

/// A uniformly random exponent in [1, q) (BN_priv_rand_range), padded to the length of q.
/// Returns 1, 0 on failure, -1 for an unknown parameter ID.
int COpenSSL_dh_random_scalar(int param_id, uint8_t *out, size_t out_cap, size_t *out_len);

/// Pops the oldest error from OpenSSL's thread-local queue (ERR_get_error) and writes its
/// text (ERR_error_string_n) to `buf`. Returns the error code, 0 when the queue is empty.
/// Clears the rest of the queue so the next failure reports its own cause.
unsigned long COpenSSL_pop_error(char *buf, size_t buf_len);

/// Verifies a TLS server's certificate chain for the purpose "SSL server" at the current
/// time (X509_verify_cert): `chain` holds `chain_count` DER certificates concatenated,
/// leaf first, the rest untrusted intermediates, with their lengths in `chain_lens`.
/// Trust anchors: the `anchors_count` DER certificates of `anchors` when there are any,
/// else the PEM file `trust_file` or the hashed directory `trust_dir` when not NULL,
/// else OpenSSL's default paths (X509_STORE_set_default_paths: /etc/ssl/certs on Debian).
/// The host name is not checked here (the TLS library checks it).
/// On success writes SHA-256 of each validated certificate's DER SubjectPublicKeyInfo
/// (i2d_PUBKEY), leaf first, 32 bytes each, to `spki_sha256` (room for `spki_cap`
/// certificates) and their number to `validated_count`.
/// Returns 1 on success, 0 when the chain does not verify (`verify_error` holds the
/// X509_V_ERR code and `reason` its text), -1 when an input does not decode or a call fails.
int COpenSSL_verify_server_chain(const uint8_t *chain, const size_t *chain_lens, size_t chain_count,
                                 const uint8_t *anchors, const size_t *anchor_lens, size_t anchors_count,
                                 const char *trust_file, const char *trust_dir,
                                 uint8_t *spki_sha256, size_t spki_cap, size_t *validated_count,
                                 int *verify_error, char *reason, size_t reason_len);

#endif
