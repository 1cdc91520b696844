#ifndef COPENSSL_SHARED_H
#define COPENSSL_SHARED_H

/* Helpers of shim.c that COpenSSLIssuer's test-document functions use too. Not in
 * include/: Swift does not see them. */

#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/x509.h>
#include <stddef.h>
#include <stdint.h>

const EVP_MD *COpenSSL_select_digest(int algorithm);
EVP_PKEY *COpenSSL_private_key(const uint8_t *der, size_t len);
X509 *COpenSSL_certificate(const uint8_t *der, size_t len);
int COpenSSL_copy_out(const unsigned char *data, int len, uint8_t *out, size_t cap, size_t *out_len);
EC_GROUP *COpenSSL_ec_group(int param_id);

#endif
