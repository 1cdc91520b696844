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

/// Pops the oldest error from OpenSSL's thread-local queue (ERR_get_error) and writes its
/// text (ERR_error_string_n) to `buf`. Returns the error code, 0 when the queue is empty.
/// Clears the rest of the queue so the next failure reports its own cause.
unsigned long COpenSSL_pop_error(char *buf, size_t buf_len);

#endif
