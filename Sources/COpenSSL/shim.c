#include "COpenSSL.h"
#include "shared.h"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <string.h>

const EVP_MD *COpenSSL_select_digest(int algorithm) {
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

// ---- Signatures, certificates and CMS -------------------------------------------------

#include <openssl/cms.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <time.h>

EVP_PKEY *COpenSSL_private_key(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    return d2i_AutoPrivateKey(NULL, &p, (long)len);
}

X509 *COpenSSL_certificate(const uint8_t *der, size_t len) {
    const unsigned char *p = der;
    return d2i_X509(NULL, &p, (long)len);
}

int COpenSSL_verify_signature(int key_kind, const uint8_t *key, size_t key_len,
                              int digest, int scheme, int salt_len,
                              const uint8_t *data, size_t data_len,
                              const uint8_t *sig, size_t sig_len) {
    const EVP_MD *md = COpenSSL_select_digest(digest);
    if (md == NULL || key == NULL) return -1;
    EVP_PKEY *pkey = NULL;
    X509 *cert = NULL;
    if (key_kind == COPENSSL_KEY_CERTIFICATE) {
        cert = COpenSSL_certificate(key, key_len);
        if (cert == NULL) return -1;
        pkey = X509_get_pubkey(cert);
    } else {
        const unsigned char *p = key;
        pkey = d2i_PUBKEY(NULL, &p, (long)key_len);
    }
    X509_free(cert);
    if (pkey == NULL) return -1;
    int ok = 0;
    EVP_PKEY_CTX *pctx = NULL;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) goto done;
    if (EVP_DigestVerifyInit(ctx, &pctx, md, NULL, pkey) != 1) goto done;
    if (scheme == COPENSSL_SIGNATURE_RSA_PSS) {
        if (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) != 1) goto done;
        if (EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, md) != 1) goto done;
        if (EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, salt_len < 0 ? RSA_PSS_SALTLEN_AUTO : salt_len) != 1) goto done;
    }
    ok = EVP_DigestVerify(ctx, sig, sig_len, data, data_len) == 1;
done:
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(pkey);
    return ok;
}

static int COpenSSL_add_anchors(X509_STORE *store, const uint8_t *anchors, const size_t *anchor_lens, size_t anchors_count) {
    const uint8_t *p = anchors;
    for (size_t i = 0; i < anchors_count; i++) {
        X509 *anchor = COpenSSL_certificate(p, anchor_lens[i]);
        p += anchor_lens[i];
        if (anchor == NULL) return 0;
        if (X509_STORE_add_cert(store, anchor) != 1) { ERR_clear_error(); }  // a duplicate anchor is not an error
        X509_free(anchor);
    }
    return 1;
}

int COpenSSL_verify_chain(const uint8_t *leaf, size_t leaf_len,
                          const uint8_t *anchors, const size_t *anchor_lens, size_t anchors_count,
                          const uint8_t *crls, const size_t *crl_lens, size_t crls_count,
                          int *verify_error, char *reason, size_t reason_len) {
    if (reason_len > 0) reason[0] = '\0';
    *verify_error = 0;
    X509 *cert = COpenSSL_certificate(leaf, leaf_len);
    if (cert == NULL) return -1;
    int result = -1;
    X509_STORE_CTX *ctx = NULL;
    X509_STORE *store = X509_STORE_new();
    if (store == NULL || !COpenSSL_add_anchors(store, anchors, anchor_lens, anchors_count)) goto done;
    const uint8_t *p = crls;
    for (size_t i = 0; i < crls_count; i++) {
        const unsigned char *q = p;
        X509_CRL *crl = d2i_X509_CRL(NULL, &q, (long)crl_lens[i]);
        p += crl_lens[i];
        if (crl == NULL) goto done;
        X509_STORE_add_crl(store, crl);
        X509_CRL_free(crl);
    }
    unsigned long flags = X509_V_FLAG_PARTIAL_CHAIN | X509_V_FLAG_NO_CHECK_TIME;
    if (crls_count > 0) flags |= X509_V_FLAG_CRL_CHECK;
    X509_STORE_set_flags(store, flags);
    ctx = X509_STORE_CTX_new();
    if (ctx == NULL || X509_STORE_CTX_init(ctx, store, cert, NULL) != 1) { result = 0; goto done; }
    result = X509_verify_cert(ctx) == 1 ? 1 : 0;
    if (result == 0) {
        *verify_error = X509_STORE_CTX_get_error(ctx);
        if (reason_len > 0) {
            strncpy(reason, X509_verify_cert_error_string(*verify_error), reason_len - 1);
            reason[reason_len - 1] = '\0';
        }
    }
done:
    X509_STORE_CTX_free(ctx);
    X509_STORE_free(store);
    X509_free(cert);
    return result;
}

int COpenSSL_verify_server_chain(const uint8_t *chain, const size_t *chain_lens, size_t chain_count,
                                 const uint8_t *anchors, const size_t *anchor_lens, size_t anchors_count,
                                 const char *trust_file, const char *trust_dir,
                                 uint8_t *spki_sha256, size_t spki_cap, size_t *validated_count,
                                 int *verify_error, char *reason, size_t reason_len) {
    if (reason_len > 0) reason[0] = '\0';
    *verify_error = 0;
    *validated_count = 0;
    if (chain_count == 0) return -1;
    int result = -1;
    X509 *leaf = NULL;
    STACK_OF(X509) *untrusted = NULL;
    X509_STORE_CTX *ctx = NULL;
    X509_STORE *store = X509_STORE_new();
    if (store == NULL) goto done;
    if (anchors_count > 0) {
        if (!COpenSSL_add_anchors(store, anchors, anchor_lens, anchors_count)) goto done;
    } else if (trust_file != NULL || trust_dir != NULL) {
        if (X509_STORE_load_locations(store, trust_file, trust_dir) != 1) goto done;
    } else if (X509_STORE_set_default_paths(store) != 1) {
        goto done;
    }
    untrusted = sk_X509_new_null();
    if (untrusted == NULL) goto done;
    const uint8_t *p = chain;
    for (size_t i = 0; i < chain_count; i++) {
        X509 *cert = COpenSSL_certificate(p, chain_lens[i]);
        p += chain_lens[i];
        if (cert == NULL) goto done;
        if (i == 0) { leaf = cert; continue; }
        if (sk_X509_push(untrusted, cert) <= 0) { X509_free(cert); goto done; }
    }
    ctx = X509_STORE_CTX_new();
    if (ctx == NULL || X509_STORE_CTX_init(ctx, store, leaf, untrusted) != 1) goto done;
    X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER);
    if (X509_verify_cert(ctx) != 1) {
        *verify_error = X509_STORE_CTX_get_error(ctx);
        if (reason_len > 0) {
            strncpy(reason, X509_verify_cert_error_string(*verify_error), reason_len - 1);
            reason[reason_len - 1] = '\0';
        }
        result = 0;
        goto done;
    }
    STACK_OF(X509) *validated = X509_STORE_CTX_get0_chain(ctx);
    int count = validated == NULL ? 0 : sk_X509_num(validated);
    if (count <= 0 || (size_t)count > spki_cap) goto done;
    for (int i = 0; i < count; i++) {
        unsigned char *spki = NULL;
        int spki_len = i2d_PUBKEY(X509_get0_pubkey(sk_X509_value(validated, i)), &spki);
        if (spki_len <= 0) goto done;
        unsigned int digest_len = 0;
        int ok = EVP_Digest(spki, (size_t)spki_len, spki_sha256 + 32 * (size_t)i, &digest_len, EVP_sha256(), NULL);
        OPENSSL_free(spki);
        if (ok != 1 || digest_len != 32) goto done;
    }
    *validated_count = (size_t)count;
    result = 1;
done:
    X509_STORE_CTX_free(ctx);
    X509_STORE_free(store);
    sk_X509_pop_free(untrusted, X509_free);
    X509_free(leaf);
    return result;
}

static int COpenSSL_time(const ASN1_TIME *time, int64_t *out) {
    struct tm tm;
    if (time == NULL || ASN1_TIME_to_tm(time, &tm) != 1) return 0;
    *out = (int64_t)timegm(&tm);
    return 1;
}

int COpenSSL_certificate_validity(const uint8_t *cert_der, size_t cert_len, int64_t *not_before, int64_t *not_after) {
    X509 *cert = COpenSSL_certificate(cert_der, cert_len);
    if (cert == NULL) return -1;
    int ok = COpenSSL_time(X509_get0_notBefore(cert), not_before) && COpenSSL_time(X509_get0_notAfter(cert), not_after);
    X509_free(cert);
    return ok ? 1 : -1;
}

int COpenSSL_copy_out(const unsigned char *data, int len, uint8_t *out, size_t cap, size_t *out_len) {
    if (len <= 0) return 0;
    if ((size_t)len > cap) return -1;
    memcpy(out, data, (size_t)len);
    *out_len = (size_t)len;
    return 1;
}

static EVP_PKEY *COpenSSL_any_key(int key_kind, const uint8_t *key, size_t key_len) {
    if (key == NULL) return NULL;
    if (key_kind == COPENSSL_KEY_PRIVATE) return COpenSSL_private_key(key, key_len);
    if (key_kind == COPENSSL_KEY_SPKI) {
        const unsigned char *p = key;
        return d2i_PUBKEY(NULL, &p, (long)key_len);
    }
    X509 *cert = COpenSSL_certificate(key, key_len);
    EVP_PKEY *pkey = cert ? X509_get_pubkey(cert) : NULL;
    X509_free(cert);
    return pkey;
}

int COpenSSL_key_info(int key_kind, const uint8_t *key, size_t key_len, int *is_rsa, int *bits) {
    EVP_PKEY *pkey = COpenSSL_any_key(key_kind, key, key_len);
    if (pkey == NULL) return -1;
    *is_rsa = EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA;
    *bits = EVP_PKEY_get_bits(pkey);
    EVP_PKEY_free(pkey);
    return 1;
}

int COpenSSL_rsa_raw(int key_kind, const uint8_t *key, size_t key_len,
                     const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len) {
    if (key_kind == COPENSSL_KEY_CERTIFICATE) return -1;
    EVP_PKEY *pkey = COpenSSL_any_key(key_kind, key, key_len);
    if (pkey == NULL) return -1;
    int ok = -1;
    EVP_PKEY_CTX *ctx = NULL;
    size_t len = out_cap;
    if (EVP_PKEY_get_base_id(pkey) != EVP_PKEY_RSA || (size_t)EVP_PKEY_get_size(pkey) != in_len || out_cap < in_len) goto done;
    ok = 0;
    ctx = EVP_PKEY_CTX_new(pkey, NULL);
    if (ctx == NULL) goto done;
    if (key_kind == COPENSSL_KEY_PRIVATE) {
        if (EVP_PKEY_decrypt_init(ctx) != 1 || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) != 1) goto done;
        if (EVP_PKEY_decrypt(ctx, out, &len, in, in_len) != 1) goto done;
    } else {
        if (EVP_PKEY_encrypt_init(ctx) != 1 || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) != 1) goto done;
        if (EVP_PKEY_encrypt(ctx, out, &len, in, in_len) != 1) goto done;
    }
    *out_len = len;
    ok = 1;
done:
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(pkey);
    return ok;
}

// ---- Elliptic curves for PACE -----------------------------------------------------------

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>

EC_GROUP *COpenSSL_ec_group(int param_id) {
    int nid;
    switch (param_id) {  // BSI TR-03110 Part 3 Table 4
    case 8: nid = NID_X9_62_prime192v1; break;
    case 9: nid = NID_brainpoolP192r1; break;
    case 10: nid = NID_secp224r1; break;
    case 11: nid = NID_brainpoolP224r1; break;
    case 12: nid = NID_X9_62_prime256v1; break;
    case 13: nid = NID_brainpoolP256r1; break;
    case 14: nid = NID_brainpoolP320r1; break;
    case 15: nid = NID_secp384r1; break;
    case 16: nid = NID_brainpoolP384r1; break;
    case 17: nid = NID_brainpoolP512r1; break;
    case 18: nid = NID_secp521r1; break;
    default: return NULL;
    }
    return EC_GROUP_new_by_curve_name(nid);
}

int COpenSSL_ec_param_id_matching(const uint8_t *p, size_t p_len, const uint8_t *a, size_t a_len,
                                  const uint8_t *b, size_t b_len, const uint8_t *g, size_t g_len,
                                  const uint8_t *n, size_t n_len) {
    int found = -1;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *wp = BN_bin2bn(p, (int)p_len, NULL), *wa = BN_bin2bn(a, (int)a_len, NULL);
    BIGNUM *wb = BN_bin2bn(b, (int)b_len, NULL), *wn = BN_bin2bn(n, (int)n_len, NULL);
    BIGNUM *cp = BN_new(), *ca = BN_new(), *cb = BN_new();
    uint8_t generator[COPENSSL_EC_POINT_MAX_SIZE];
    if (ctx == NULL || wp == NULL || wa == NULL || wb == NULL || wn == NULL || cp == NULL || ca == NULL || cb == NULL) goto done;
    for (int id = 8; id <= 18 && found < 0; id++) {
        EC_GROUP *group = COpenSSL_ec_group(id);
        if (group == NULL) continue;
        if (EC_GROUP_get_curve(group, cp, ca, cb, ctx) == 1 && BN_cmp(cp, wp) == 0 && BN_cmp(ca, wa) == 0 && BN_cmp(cb, wb) == 0
            && BN_cmp(EC_GROUP_get0_order(group), wn) == 0) {
            size_t len = EC_POINT_point2oct(group, EC_GROUP_get0_generator(group), POINT_CONVERSION_UNCOMPRESSED, generator, sizeof generator, ctx);
            if (len == g_len && memcmp(generator, g, len) == 0) found = id;
        }
        EC_GROUP_free(group);
    }
done:
    BN_free(wp); BN_free(wa); BN_free(wb); BN_free(wn);
    BN_free(cp); BN_free(ca); BN_free(cb);
    BN_CTX_free(ctx);
    return found;
}

static int COpenSSL_ec_write(const EC_GROUP *group, const EC_POINT *point, uint8_t *out, size_t *out_len, BN_CTX *ctx) {
    if (EC_POINT_is_at_infinity(group, point)) return 0;
    size_t len = EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, out, COPENSSL_EC_POINT_MAX_SIZE, ctx);
    if (len == 0) return 0;
    *out_len = len;
    return 1;
}

int COpenSSL_ec_mul(int param_id, const uint8_t *scalar, size_t scalar_len,
                    const uint8_t *point, size_t point_len, uint8_t *out, size_t *out_len) {
    EC_GROUP *group = COpenSSL_ec_group(param_id);
    if (group == NULL) return -1;
    int ok = -1;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *k = BN_bin2bn(scalar, (int)scalar_len, NULL);
    EC_POINT *p = point ? EC_POINT_new(group) : NULL;
    EC_POINT *r = EC_POINT_new(group);
    if (ctx == NULL || k == NULL || r == NULL) { ok = 0; goto done; }
    if (p != NULL && EC_POINT_oct2point(group, p, point, point_len, ctx) != 1) goto done;
    ok = 0;
    if (p != NULL ? EC_POINT_mul(group, r, NULL, p, k, ctx) != 1 : EC_POINT_mul(group, r, k, NULL, NULL, ctx) != 1) goto done;
    ok = COpenSSL_ec_write(group, r, out, out_len, ctx);
done:
    EC_POINT_free(r);
    EC_POINT_free(p);
    BN_clear_free(k);
    BN_CTX_free(ctx);
    EC_GROUP_free(group);
    return ok;
}

int COpenSSL_ec_map_generic(int param_id, const uint8_t *s, size_t s_len,
                            const uint8_t *h, size_t h_len, uint8_t *out, size_t *out_len) {
    EC_GROUP *group = COpenSSL_ec_group(param_id);
    if (group == NULL) return -1;
    int ok = -1;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *k = BN_bin2bn(s, (int)s_len, NULL);
    EC_POINT *hp = EC_POINT_new(group);
    EC_POINT *r = EC_POINT_new(group);
    if (ctx == NULL || k == NULL || hp == NULL || r == NULL) { ok = 0; goto done; }
    if (EC_POINT_oct2point(group, hp, h, h_len, ctx) != 1) goto done;
    ok = 0;
    // r = s*G + 1*H in one call.
    BIGNUM *one = BN_new();
    if (one == NULL || BN_one(one) != 1) { BN_free(one); goto done; }
    int mul = EC_POINT_mul(group, r, k, hp, one, ctx);
    BN_free(one);
    if (mul != 1) goto done;
    ok = COpenSSL_ec_write(group, r, out, out_len, ctx);
done:
    EC_POINT_free(r);
    EC_POINT_free(hp);
    BN_clear_free(k);
    BN_CTX_free(ctx);
    EC_GROUP_free(group);
    return ok;
}

int COpenSSL_ec_random_scalar(int param_id, uint8_t *out, size_t out_cap, size_t *out_len) {
    EC_GROUP *group = COpenSSL_ec_group(param_id);
    if (group == NULL) return -1;
    int ok = 0;
    BIGNUM *k = BN_new();
    const BIGNUM *order = EC_GROUP_get0_order(group);
    int len = BN_num_bytes(order);
    if (k == NULL || (size_t)len > out_cap) goto done;
    do {
        if (BN_priv_rand_range(k, order) != 1) goto done;
    } while (BN_is_zero(k));
    if (BN_bn2binpad(k, out, len) != len) goto done;
    *out_len = (size_t)len;
    ok = 1;
done:
    BN_clear_free(k);
    EC_GROUP_free(group);
    return ok;
}

// ---- PACE Integrated Mapping over ECDH, and finite-field Diffie-Hellman --------------------

/// p, q and g of an RFC 5114 group (1 on success, -1 for an unknown parameter ID).
static int COpenSSL_dh_group(int param_id, BIGNUM **p, BIGNUM **q, BIGNUM **g);

int COpenSSL_group_field_bits(int param_id) {
    if (param_id >= 0 && param_id <= 2) {
        BIGNUM *p = NULL, *q = NULL, *g = NULL;
        int bits = COpenSSL_dh_group(param_id, &p, &q, &g) == 1 ? BN_num_bits(p) : -1;
        BN_free(p); BN_free(q); BN_free(g);
        return bits;
    }
    EC_GROUP *group = COpenSSL_ec_group(param_id);
    if (group == NULL) return -1;
    int bits = EC_GROUP_get_degree(group);
    EC_GROUP_free(group);
    return bits;
}

int COpenSSL_ec_map_integrated(int param_id, const uint8_t *x, size_t x_len, uint8_t *out, size_t *out_len) {
    EC_GROUP *group = COpenSSL_ec_group(param_id);
    if (group == NULL) return -1;
    int ok = 0;
    BN_CTX *ctx = BN_CTX_new();
    EC_POINT *point = EC_POINT_new(group);
    BIGNUM *p = NULL, *a = NULL, *b = NULL, *t = NULL, *alpha = NULL, *s = NULL, *x2 = NULL, *x3 = NULL, *h2 = NULL, *u = NULL, *e = NULL, *A = NULL, *tmp = NULL, *y = NULL;
    if (ctx == NULL || point == NULL) goto done;
    BN_CTX_start(ctx);
    p = BN_CTX_get(ctx); a = BN_CTX_get(ctx); b = BN_CTX_get(ctx); t = BN_CTX_get(ctx); alpha = BN_CTX_get(ctx);
    s = BN_CTX_get(ctx); x2 = BN_CTX_get(ctx); x3 = BN_CTX_get(ctx); h2 = BN_CTX_get(ctx); u = BN_CTX_get(ctx);
    e = BN_CTX_get(ctx); A = BN_CTX_get(ctx); tmp = BN_CTX_get(ctx); y = BN_CTX_get(ctx);
    if (y == NULL || EC_GROUP_get_curve(group, p, a, b, ctx) != 1) goto end;
    // The encoding (Doc 9303 Part 11 App. B.2) takes square roots as powers: p = 3 mod 4 only.
    if (!BN_is_bit_set(p, 0) || !BN_is_bit_set(p, 1)) { ok = -1; goto end; }
    if (BN_bin2bn(x, (int)x_len, t) == NULL || BN_nnmod(t, t, p, ctx) != 1 || BN_is_zero(t)) goto end;
    // alpha = -t^2; s = alpha + alpha^2
    if (BN_mod_sqr(alpha, t, p, ctx) != 1 || BN_mod_sub(alpha, p, alpha, p, ctx) != 1) goto end;
    if (BN_mod_sqr(s, alpha, p, ctx) != 1 || BN_mod_add(s, s, alpha, p, ctx) != 1 || BN_is_zero(s)) goto end;
    // X2 = -b (1 + s) / (a s)
    if (BN_mod_mul(tmp, a, s, p, ctx) != 1 || BN_mod_inverse(tmp, tmp, p, ctx) == NULL) goto end;
    if (BN_add_word(s, 1) != 1 || BN_mod_mul(x2, s, tmp, p, ctx) != 1 || BN_mod_mul(x2, x2, b, p, ctx) != 1) goto end;
    if (BN_mod_sub(x2, p, x2, p, ctx) != 1) goto end;
    // X3 = alpha X2; h2 = X2^3 + a X2 + b; U = t^3 h2
    if (BN_mod_mul(x3, alpha, x2, p, ctx) != 1) goto end;
    if (BN_mod_sqr(h2, x2, p, ctx) != 1 || BN_mod_add(h2, h2, a, p, ctx) != 1 || BN_mod_mul(h2, h2, x2, p, ctx) != 1 || BN_mod_add(h2, h2, b, p, ctx) != 1) goto end;
    if (BN_mod_sqr(u, t, p, ctx) != 1 || BN_mod_mul(u, u, t, p, ctx) != 1 || BN_mod_mul(u, u, h2, p, ctx) != 1) goto end;
    // A = h2^(p - 1 - (p + 1) / 4)
    if (BN_copy(e, p) == NULL || BN_add_word(e, 1) != 1 || BN_rshift(e, e, 2) != 1) goto end;
    if (BN_sub(e, p, e) != 1 || BN_sub_word(e, 1) != 1 || BN_mod_exp(A, h2, e, p, ctx) != 1) goto end;
    // A^2 h2 = 1: (X2, A h2), else (X3, A U)
    if (BN_mod_sqr(tmp, A, p, ctx) != 1 || BN_mod_mul(tmp, tmp, h2, p, ctx) != 1) goto end;
    const BIGNUM *px = x3;
    if (BN_is_one(tmp)) {
        if (BN_mod_mul(y, A, h2, p, ctx) != 1) goto end;
        px = x2;
    } else if (BN_mod_mul(y, A, u, p, ctx) != 1) goto end;
    if (EC_POINT_set_affine_coordinates(group, point, px, y, ctx) != 1) goto end;
    const BIGNUM *cofactor = EC_GROUP_get0_cofactor(group);
    if (cofactor != NULL && !BN_is_one(cofactor) && EC_POINT_mul(group, point, NULL, point, cofactor, ctx) != 1) goto end;
    ok = COpenSSL_ec_write(group, point, out, out_len, ctx);
end:
    BN_CTX_end(ctx);
done:
    EC_POINT_free(point);
    BN_CTX_free(ctx);
    EC_GROUP_free(group);
    return ok;
}

static int COpenSSL_dh_group(int param_id, BIGNUM **p, BIGNUM **q, BIGNUM **g) {
    // BSI TR-03110 Part 3 Table 4: the RFC 5114 groups, by their OpenSSL names.
    const char *name;
    switch (param_id) {
    case 0: name = "dh_1024_160"; break;
    case 1: name = "dh_2048_224"; break;
    case 2: name = "dh_2048_256"; break;
    default: return -1;
    }
    int ok = 0;
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "DHX", NULL);
    OSSL_PARAM params[] = { OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)name, 0), OSSL_PARAM_END };
    if (ctx == NULL || EVP_PKEY_paramgen_init(ctx) != 1 || EVP_PKEY_CTX_set_params(ctx, params) != 1) goto done;
    if (EVP_PKEY_paramgen(ctx, &pkey) != 1) goto done;
    if (EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_FFC_P, p) != 1 || EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_FFC_Q, q) != 1
        || EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_FFC_G, g) != 1) goto done;
    ok = 1;
done:
    EVP_PKEY_free(pkey);
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

/// An RFC 5114 group with a BN_CTX, for the DH operations below.
typedef struct {
    BIGNUM *p, *q, *g;
    BN_CTX *ctx;
} COpenSSL_dh_context;

/// Loads the group of `param_id`: 1, 0 on failure, -1 for an unknown ID. Close it in any case.
static int COpenSSL_dh_open(int param_id, COpenSSL_dh_context *dh) {
    memset(dh, 0, sizeof *dh);
    int status = COpenSSL_dh_group(param_id, &dh->p, &dh->q, &dh->g);
    if (status != 1) return status;
    dh->ctx = BN_CTX_new();
    return dh->ctx != NULL;
}

static void COpenSSL_dh_close(COpenSSL_dh_context *dh) {
    BN_CTX_free(dh->ctx);
    BN_free(dh->p);
    BN_free(dh->q);
    BN_free(dh->g);
}

/// Writes `value` padded to the length of `p`.
static int COpenSSL_dh_write(const BIGNUM *value, const BIGNUM *p, uint8_t *out, size_t out_cap, size_t *out_len) {
    int len = BN_num_bytes(p);
    if ((size_t)len > out_cap) return -1;
    if (BN_bn2binpad(value, out, len) != len) return 0;
    *out_len = (size_t)len;
    return 1;
}

/// 1 when `y` is an element of the order-q subgroup other than 1: 1 < y < p - 1 and y^q = 1.
static int COpenSSL_dh_check(const BIGNUM *y, const COpenSSL_dh_context *dh) {
    BIGNUM *r = BN_new();
    BIGNUM *limit = BN_dup(dh->p);
    int ok = r != NULL && limit != NULL && BN_sub_word(limit, 1) == 1 && BN_cmp(y, BN_value_one()) > 0 && BN_cmp(y, limit) < 0
        && BN_mod_exp(r, y, dh->q, dh->p, dh->ctx) == 1 && BN_is_one(r);
    BN_free(limit);
    BN_free(r);
    return ok;
}

int COpenSSL_dh_exp(int param_id, const uint8_t *base, size_t base_len, const uint8_t *exponent, size_t exponent_len,
                    uint8_t *out, size_t out_cap, size_t *out_len) {
    COpenSSL_dh_context dh;
    int ok = COpenSSL_dh_open(param_id, &dh);
    BIGNUM *b = base != NULL ? BN_bin2bn(base, (int)base_len, NULL) : BN_dup(dh.g);
    BIGNUM *k = BN_bin2bn(exponent, (int)exponent_len, NULL);
    BIGNUM *r = BN_new();
    if (ok != 1) goto done;
    ok = 0;
    if (b == NULL || k == NULL || r == NULL) goto done;
    if (base != NULL && !COpenSSL_dh_check(b, &dh)) { ok = -1; goto done; }
    if (BN_mod_exp(r, b, k, dh.p, dh.ctx) != 1 || BN_is_one(r)) goto done;
    ok = COpenSSL_dh_write(r, dh.p, out, out_cap, out_len);
done:
    BN_clear_free(r);
    BN_clear_free(k);
    BN_free(b);
    COpenSSL_dh_close(&dh);
    return ok;
}

int COpenSSL_dh_map_generic(int param_id, const uint8_t *s, size_t s_len, const uint8_t *h, size_t h_len,
                            uint8_t *out, size_t out_cap, size_t *out_len) {
    COpenSSL_dh_context dh;
    int ok = COpenSSL_dh_open(param_id, &dh);
    BIGNUM *k = BN_bin2bn(s, (int)s_len, NULL);
    BIGNUM *hb = BN_bin2bn(h, (int)h_len, NULL);
    BIGNUM *r = BN_new();
    if (ok != 1) goto done;
    ok = 0;
    if (k == NULL || hb == NULL || r == NULL) goto done;
    if (!COpenSSL_dh_check(hb, &dh)) { ok = -1; goto done; }
    // g' = g^s * h mod p
    if (BN_mod_exp(r, dh.g, k, dh.p, dh.ctx) != 1 || BN_mod_mul(r, r, hb, dh.p, dh.ctx) != 1 || BN_is_one(r)) goto done;
    ok = COpenSSL_dh_write(r, dh.p, out, out_cap, out_len);
done:
    BN_clear_free(r);
    BN_clear_free(hb);
    BN_clear_free(k);
    COpenSSL_dh_close(&dh);
    return ok;
}

int COpenSSL_dh_map_integrated(int param_id, const uint8_t *x, size_t x_len, uint8_t *out, size_t out_cap, size_t *out_len) {
    COpenSSL_dh_context dh;
    int ok = COpenSSL_dh_open(param_id, &dh);
    BIGNUM *xb = BN_bin2bn(x, (int)x_len, NULL);
    BIGNUM *e = BN_new();
    BIGNUM *r = BN_new();
    if (ok != 1) goto done;
    ok = 0;
    if (xb == NULL || e == NULL || r == NULL) goto done;
    // g' = (x mod p)^((p - 1) / q) mod p, never 1
    if (BN_copy(e, dh.p) == NULL || BN_sub_word(e, 1) != 1 || BN_div(e, NULL, e, dh.q, dh.ctx) != 1) goto done;
    if (BN_nnmod(xb, xb, dh.p, dh.ctx) != 1 || BN_mod_exp(r, xb, e, dh.p, dh.ctx) != 1 || BN_is_one(r) || BN_is_zero(r)) goto done;
    ok = COpenSSL_dh_write(r, dh.p, out, out_cap, out_len);
done:
    BN_clear_free(r);
    BN_free(e);
    BN_clear_free(xb);
    COpenSSL_dh_close(&dh);
    return ok;
}

int COpenSSL_dh_random_scalar(int param_id, uint8_t *out, size_t out_cap, size_t *out_len) {
    COpenSSL_dh_context dh;
    int ok = COpenSSL_dh_open(param_id, &dh);
    BIGNUM *k = BN_new();
    if (ok != 1) goto done;
    ok = 0;
    int len = BN_num_bytes(dh.q);
    if (k == NULL || (size_t)len > out_cap) goto done;
    do {
        if (BN_priv_rand_range(k, dh.q) != 1) goto done;
    } while (BN_is_zero(k));
    if (BN_bn2binpad(k, out, len) != len) goto done;
    *out_len = (size_t)len;
    ok = 1;
done:
    BN_clear_free(k);
    COpenSSL_dh_close(&dh);
    return ok;
}
