#include "COpenSSL.h"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <string.h>

static const EVP_MD *COpenSSL_select_digest(int algorithm) {
    switch (algorithm) {
    case COPENSSL_DIGEST_SHA1: return EVP_sha1();
    case COPENSSL_DIGEST_SHA256: return EVP_sha256();
    case COPENSSL_DIGEST_SHA224: return EVP_sha224();
    case COPENSSL_DIGEST_SHA384: return EVP_sha384();
    case COPENSSL_DIGEST_SHA512: return EVP_sha512();
    default: return NULL;
    }
}

int COpenSSL_digest(int algorithm, const uint8_t *data, size_t data_len,
                    uint8_t *out, unsigned int *out_len) {
    const EVP_MD *md = COpenSSL_select_digest(algorithm);
    if (md == NULL) return -1;
    _Static_assert(COPENSSL_DIGEST_MAX_SIZE >= 64, "digest buffer too small for SHA-512");
    return EVP_Digest(data, data_len, out, out_len, md, NULL);
}

static const EVP_CIPHER *COpenSSL_select_cipher(int algorithm, size_t key_len) {
    switch (algorithm) {
    case COPENSSL_CIPHER_DES_EDE_CBC: return key_len == 16 ? EVP_des_ede_cbc() : NULL;
    case COPENSSL_CIPHER_DES_EDE_ECB: return key_len == 16 ? EVP_des_ede_ecb() : NULL;
    case COPENSSL_CIPHER_AES_CBC:
        switch (key_len) {
        case 16: return EVP_aes_128_cbc();
        case 24: return EVP_aes_192_cbc();
        case 32: return EVP_aes_256_cbc();
        default: return NULL;
        }
    case COPENSSL_CIPHER_AES_ECB:
        switch (key_len) {
        case 16: return EVP_aes_128_ecb();
        case 24: return EVP_aes_192_ecb();
        case 32: return EVP_aes_256_ecb();
        default: return NULL;
        }
    default: return NULL;
    }
}

int COpenSSL_cipher(int algorithm, int encrypt,
                    const uint8_t *key, size_t key_len,
                    const uint8_t *iv, size_t iv_len,
                    const uint8_t *in, size_t in_len,
                    uint8_t *out, size_t *out_len) {
    const EVP_CIPHER *cipher = COpenSSL_select_cipher(algorithm, key_len);
    if (cipher == NULL) return -1;
    int block = EVP_CIPHER_get_block_size(cipher);
    int expected_iv = EVP_CIPHER_get_iv_length(cipher);
    if (block <= 0 || in_len % (size_t)block != 0 || in_len > INT32_MAX) return -1;
    if (expected_iv > 0 && (iv == NULL || iv_len != (size_t)expected_iv)) return -1;

    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int ok = 0;
    int written = 0, final_written = 0;
    if (EVP_CipherInit_ex(ctx, cipher, NULL, key, expected_iv > 0 ? iv : NULL, encrypt ? 1 : 0) != 1) goto done;
    if (EVP_CIPHER_CTX_set_padding(ctx, 0) != 1) goto done;
    if (in_len > 0 && EVP_CipherUpdate(ctx, out, &written, in, (int)in_len) != 1) goto done;
    if (EVP_CipherFinal_ex(ctx, out + written, &final_written) != 1) goto done;
    *out_len = (size_t)written + (size_t)final_written;
    ok = 1;
done:
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

int COpenSSL_aes_cmac(const uint8_t *key, size_t key_len,
                      const uint8_t *data, size_t data_len,
                      uint8_t *out) {
    const char *cipher_name;
    switch (key_len) {
    case 16: cipher_name = "AES-128-CBC"; break;
    case 24: cipher_name = "AES-192-CBC"; break;
    case 32: cipher_name = "AES-256-CBC"; break;
    default: return -1;
    }
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
    if (mac == NULL) return 0;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    int ok = 0;
    size_t written = 0;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cipher_name, 0),
        OSSL_PARAM_construct_end(),
    };
    if (ctx == NULL) goto done;
    if (EVP_MAC_init(ctx, key, key_len, params) != 1) goto done;
    if (data_len > 0 && EVP_MAC_update(ctx, data, data_len) != 1) goto done;
    if (EVP_MAC_final(ctx, out, &written, COPENSSL_CMAC_SIZE) != 1) goto done;
    ok = written == COPENSSL_CMAC_SIZE;
done:
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return ok;
}

unsigned long COpenSSL_pop_error(char *buf, size_t buf_len) {
    unsigned long code = ERR_get_error();
    if (buf_len > 0) buf[0] = '\0';
    if (code != 0 && buf_len > 0) ERR_error_string_n(code, buf, buf_len);
    ERR_clear_error();
    return code;
}
