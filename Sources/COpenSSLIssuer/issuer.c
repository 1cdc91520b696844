#include "COpenSSLIssuer.h"
#include "COpenSSL.h"
#include "../COpenSSL/shared.h"

#include <openssl/bn.h>
#include <openssl/cms.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>

int COpenSSL_generate_key(int kind, uint8_t *private_out, size_t private_cap, size_t *private_len,
                          uint8_t *public_out, size_t public_cap, size_t *public_len) {
    EVP_PKEY *pkey = NULL;
    switch (kind) {
    case COPENSSL_KEY_RSA_2048: pkey = EVP_RSA_gen(2048); break;
    case COPENSSL_KEY_EC_P256: pkey = EVP_EC_gen("P-256"); break;
    default: return -1;
    }
    if (pkey == NULL) return 0;
    unsigned char *priv = NULL, *pub = NULL;
    int priv_len = i2d_PrivateKey(pkey, &priv);
    int pub_len = i2d_PUBKEY(pkey, &pub);
    int ok = COpenSSL_copy_out(priv, priv_len, private_out, private_cap, private_len);
    if (ok == 1) ok = COpenSSL_copy_out(pub, pub_len, public_out, public_cap, public_len);
    OPENSSL_clear_free(priv, priv_len > 0 ? (size_t)priv_len : 0);
    OPENSSL_free(pub);
    EVP_PKEY_free(pkey);
    return ok;
}

int COpenSSL_make_certificate(const char *country, const char *common_name, long serial,
                              int64_t not_before, int64_t not_after, int is_ca,
                              const uint8_t *subject_public, size_t subject_public_len,
                              const uint8_t *issuer_cert, size_t issuer_cert_len,
                              const uint8_t *issuer_key, size_t issuer_key_len,
                              uint8_t *out, size_t out_cap, size_t *out_len) {
    const unsigned char *p = subject_public;
    EVP_PKEY *subject = d2i_PUBKEY(NULL, &p, (long)subject_public_len);
    EVP_PKEY *signer = COpenSSL_private_key(issuer_key, issuer_key_len);
    X509 *issuer = issuer_cert ? COpenSSL_certificate(issuer_cert, issuer_cert_len) : NULL;
    X509 *cert = X509_new();
    X509V3_CTX v3;
    X509_EXTENSION *ext = NULL;
    unsigned char *der = NULL;
    int der_len = 0;
    int ok = -1;
    if (subject == NULL || signer == NULL || cert == NULL || (issuer_cert && issuer == NULL)) goto done;
    ok = 0;
    X509_NAME *name = X509_NAME_new();
    X509_NAME_add_entry_by_txt(name, "C", MBSTRING_ASC, (const unsigned char *)country, -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)common_name, -1, -1, 0);
    X509_set_version(cert, X509_VERSION_3);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), serial);
    X509_set_subject_name(cert, name);
    X509_set_issuer_name(cert, issuer ? X509_get_subject_name(issuer) : name);
    X509_NAME_free(name);
    ASN1_TIME_set(X509_getm_notBefore(cert), (time_t)not_before);
    ASN1_TIME_set(X509_getm_notAfter(cert), (time_t)not_after);
    X509_set_pubkey(cert, subject);
    X509V3_set_ctx(&v3, issuer ? issuer : cert, cert, NULL, NULL, 0);
    ext = X509V3_EXT_conf_nid(NULL, &v3, NID_basic_constraints, is_ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
    if (ext == NULL || X509_add_ext(cert, ext, -1) != 1) goto done;
    X509_EXTENSION_free(ext);
    ext = X509V3_EXT_conf_nid(NULL, &v3, NID_key_usage, is_ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature");
    if (ext == NULL || X509_add_ext(cert, ext, -1) != 1) goto done;
    X509_EXTENSION_free(ext);
    // Key identifiers let a verifier tell apart CSCAs that share a name (key rollover).
    ext = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_key_identifier, "hash");
    if (ext == NULL || X509_add_ext(cert, ext, -1) != 1) goto done;
    X509_EXTENSION_free(ext);
    ext = X509V3_EXT_conf_nid(NULL, &v3, NID_authority_key_identifier, "keyid:always");
    if (ext == NULL || X509_add_ext(cert, ext, -1) != 1) goto done;
    if (X509_sign(cert, signer, EVP_sha256()) <= 0) goto done;
    der_len = i2d_X509(cert, &der);
    ok = COpenSSL_copy_out(der, der_len, out, out_cap, out_len);
done:
    X509_EXTENSION_free(ext);
    OPENSSL_free(der);
    X509_free(cert);
    X509_free(issuer);
    EVP_PKEY_free(signer);
    EVP_PKEY_free(subject);
    return ok;
}

int COpenSSL_make_crl(const uint8_t *issuer_cert, size_t issuer_cert_len,
                      const uint8_t *issuer_key, size_t issuer_key_len,
                      const long *revoked, size_t revoked_count, int64_t this_update, int64_t next_update,
                      uint8_t *out, size_t out_cap, size_t *out_len) {
    X509 *issuer = COpenSSL_certificate(issuer_cert, issuer_cert_len);
    EVP_PKEY *key = COpenSSL_private_key(issuer_key, issuer_key_len);
    X509_CRL *crl = X509_CRL_new();
    ASN1_TIME *last = ASN1_TIME_set(NULL, (time_t)this_update);
    ASN1_TIME *next = ASN1_TIME_set(NULL, (time_t)next_update);
    unsigned char *der = NULL;
    int der_len = 0;
    int ok = -1;
    if (issuer == NULL || key == NULL || crl == NULL || last == NULL || next == NULL) goto done;
    ok = 0;
    if (X509_CRL_set_version(crl, X509_CRL_VERSION_2) != 1) goto done;
    if (X509_CRL_set_issuer_name(crl, X509_get_subject_name(issuer)) != 1) goto done;
    if (X509_CRL_set1_lastUpdate(crl, last) != 1 || X509_CRL_set1_nextUpdate(crl, next) != 1) goto done;
    for (size_t i = 0; i < revoked_count; i++) {
        X509_REVOKED *entry = X509_REVOKED_new();
        ASN1_INTEGER *serial = ASN1_INTEGER_new();
        int added = entry != NULL && serial != NULL && ASN1_INTEGER_set(serial, revoked[i]) == 1
            && X509_REVOKED_set_serialNumber(entry, serial) == 1 && X509_REVOKED_set_revocationDate(entry, last) == 1
            && X509_CRL_add0_revoked(crl, entry) == 1;
        ASN1_INTEGER_free(serial);
        if (!added) { X509_REVOKED_free(entry); goto done; }
    }
    if (X509_CRL_sort(crl) != 1 || X509_CRL_sign(crl, key, EVP_sha256()) <= 0) goto done;
    der_len = i2d_X509_CRL(crl, &der);
    ok = COpenSSL_copy_out(der, der_len, out, out_cap, out_len);
done:
    OPENSSL_free(der);
    ASN1_TIME_free(next);
    ASN1_TIME_free(last);
    X509_CRL_free(crl);
    EVP_PKEY_free(key);
    X509_free(issuer);
    return ok;
}

int COpenSSL_cms_sign(const uint8_t *content, size_t content_len, const char *econtent_oid,
                      const uint8_t *cert_der, size_t cert_len, const uint8_t *key_der, size_t key_len,
                      int digest, uint8_t *out, size_t out_cap, size_t *out_len) {
    const EVP_MD *md = COpenSSL_select_digest(digest);
    X509 *cert = COpenSSL_certificate(cert_der, cert_len);
    EVP_PKEY *key = COpenSSL_private_key(key_der, key_len);
    ASN1_OBJECT *type = OBJ_txt2obj(econtent_oid, 1);
    BIO *bio = BIO_new_mem_buf(content, (int)content_len);
    CMS_ContentInfo *cms = NULL;
    unsigned char *der = NULL;
    int der_len = 0;
    int ok = -1;
    unsigned int flags = CMS_PARTIAL | CMS_BINARY | CMS_NOSMIMECAP;
    if (md == NULL || cert == NULL || key == NULL || type == NULL || bio == NULL) goto done;
    ok = 0;
    cms = CMS_sign(NULL, NULL, NULL, NULL, flags);
    if (cms == NULL) goto done;
    if (CMS_set1_eContentType(cms, type) != 1) goto done;
    if (CMS_add1_signer(cms, cert, key, md, flags) == NULL) goto done;
    if (CMS_final(cms, bio, NULL, flags) != 1) goto done;
    der_len = i2d_CMS_ContentInfo(cms, &der);
    ok = COpenSSL_copy_out(der, der_len, out, out_cap, out_len);
done:
    OPENSSL_free(der);
    CMS_ContentInfo_free(cms);
    BIO_free(bio);
    ASN1_OBJECT_free(type);
    EVP_PKEY_free(key);
    X509_free(cert);
    return ok;
}

int COpenSSL_sign(const uint8_t *key_der, size_t key_len, int digest, int scheme,
                  const uint8_t *data, size_t data_len, uint8_t *out, size_t out_cap, size_t *out_len) {
    const EVP_MD *md = COpenSSL_select_digest(digest);
    EVP_PKEY *key = COpenSSL_private_key(key_der, key_len);
    if (md == NULL || key == NULL) { EVP_PKEY_free(key); return -1; }
    int ok = 0;
    EVP_PKEY_CTX *pctx = NULL;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t len = out_cap;
    if (ctx == NULL || EVP_DigestSignInit(ctx, &pctx, md, NULL, key) != 1) goto done;
    if (scheme == COPENSSL_SIGNATURE_RSA_PSS) {
        if (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) != 1) goto done;
        if (EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, md) != 1) goto done;
        if (EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) != 1) goto done;
    }
    if (EVP_DigestSign(ctx, NULL, &len, data, data_len) != 1) goto done;
    if (len > out_cap) { ok = -1; goto done; }
    len = out_cap;
    if (EVP_DigestSign(ctx, out, &len, data, data_len) != 1) goto done;
    *out_len = len;
    ok = 1;
done:
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    return ok;
}

int COpenSSL_ec_cam_scalar(int param_id, const uint8_t *map_key, size_t map_key_len,
                           const uint8_t *static_key, size_t static_key_len,
                           uint8_t *out, size_t out_cap, size_t *out_len) {
    EC_GROUP *group = COpenSSL_ec_group(param_id);
    if (group == NULL) return -1;
    int ok = 0;
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *a = BN_bin2bn(map_key, (int)map_key_len, NULL);
    BIGNUM *b = BN_bin2bn(static_key, (int)static_key_len, NULL);
    BIGNUM *inverse = BN_new();
    BIGNUM *r = BN_new();
    const BIGNUM *order = EC_GROUP_get0_order(group);
    int len = BN_num_bytes(order);
    if (ctx == NULL || a == NULL || b == NULL || inverse == NULL || r == NULL || (size_t)len > out_cap) goto done;
    if (BN_mod_inverse(inverse, b, order, ctx) == NULL) goto done;
    if (BN_mod_mul(r, a, inverse, order, ctx) != 1) goto done;
    if (BN_bn2binpad(r, out, len) != len) goto done;
    *out_len = (size_t)len;
    ok = 1;
done:
    BN_clear_free(r);
    BN_clear_free(inverse);
    BN_clear_free(b);
    BN_clear_free(a);
    BN_CTX_free(ctx);
    EC_GROUP_free(group);
    return ok;
}

int COpenSSL_ec_explicit_parameters(int param_id, uint8_t *out, size_t out_cap, size_t *out_len) {
    EC_GROUP *group = COpenSSL_ec_group(param_id);
    if (group == NULL) return -1;
    EC_GROUP_set_asn1_flag(group, OPENSSL_EC_EXPLICIT_CURVE);
    EC_GROUP_set_point_conversion_form(group, POINT_CONVERSION_UNCOMPRESSED);
    int len = i2d_ECPKParameters(group, NULL);
    int ok = 0;
    if (len <= 0) goto done;
    if ((size_t)len > out_cap) { ok = -1; goto done; }
    uint8_t *cursor = out;
    if (i2d_ECPKParameters(group, &cursor) != len) goto done;
    *out_len = (size_t)len;
    ok = 1;
done:
    EC_GROUP_free(group);
    return ok;
}
