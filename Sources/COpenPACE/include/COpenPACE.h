#ifndef COPENPACE_H
#define COPENPACE_H

/*
 * A test chip whose PACE, Chip Authentication and secure messaging come from OpenPACE
 * (Debian's libeac), an implementation of ICAO Doc 9303 Part 11 and BSI TR-03110 that
 * we did not write: the independent peer the chip reader is tested against (#13).
 * Only tests link this module. The APDU framing around OpenPACE's computations (the
 * GENERAL AUTHENTICATE templates, the secure messaging data objects) is written here,
 * in C, apart from the reader's Swift code.
 *
 * Each function answers with an ISO 7816 status word; 0x9000 is success. OpenPACE is not
 * safe to use from several threads at once (parallel tests crashed inside libcrypto
 * under it): callers serialise every call, across chips.
 */

#include <stddef.h>
#include <stdint.h>

typedef struct COpenPACE_chip COpenPACE_chip;

/* A chip offering the PACEInfos of EF.CardAccess as OpenPACE reads them. The passwords:
 * the MRZ information (document number, date of birth, date of expiry, each with its
 * check digit) and the card access number, or NULL. NULL when OpenPACE rejects EF.CardAccess. */
COpenPACE_chip *COpenPACE_chip_new(const uint8_t *card_access, size_t card_access_len,
                                   const char *mrz_information, const char *card_access_number);
void COpenPACE_chip_free(COpenPACE_chip *chip);

/* How many PACEInfos OpenPACE found in EF.CardAccess. */
int COpenPACE_chip_offered(const COpenPACE_chip *chip);

/* The chip's static Chip Authentication key (DG14's): the ChipAuthenticationInfo OID in
 * dotted text, the standardized domain parameter ID of its group, the private value and
 * the public key (an uncompressed point). 1 on success. */
int COpenPACE_chip_set_chip_authentication_key(COpenPACE_chip *chip, const char *protocol, int parameter_id,
                                               const uint8_t *private_key, size_t private_len,
                                               const uint8_t *public_key, size_t public_len);

/* A plain MSE:Set AT or GENERAL AUTHENTICATE of PACE (the whole command APDU). Writes the
 * response data to out. On success of the last step, secure messaging starts. */
uint16_t COpenPACE_chip_pace(COpenPACE_chip *chip, const uint8_t *apdu, size_t apdu_len,
                             uint8_t *out, size_t out_cap, size_t *out_len);

/* Whether secure messaging is on. */
int COpenPACE_chip_secure(const COpenPACE_chip *chip);

/* Ends secure messaging (a plain command arrived, or the card was reset). */
void COpenPACE_chip_abort(COpenPACE_chip *chip);

/* Checks and decrypts a protected command APDU; writes the plain command APDU to out
 * (short or extended encoding). 6987 or 6988 end secure messaging. */
uint16_t COpenPACE_chip_unwrap(COpenPACE_chip *chip, const uint8_t *apdu, size_t apdu_len,
                               uint8_t *out, size_t out_cap, size_t *out_len);

/* Protects a response (data and status word); odd_ins: the command had an odd INS
 * (DO'85' instead of DO'87'). Writes the whole response APDU, status word included.
 * 0x9000 on success. */
uint16_t COpenPACE_chip_wrap(COpenPACE_chip *chip, const uint8_t *data, size_t data_len, uint16_t status,
                             int odd_ins, uint8_t *out, size_t out_cap, size_t *out_len);

/* A Chip Authentication command inside secure messaging (the plain command APDU after
 * unwrapping): MSE:Set AT, GENERAL AUTHENTICATE, or MSE:Set KAT. Writes the response
 * data. When it succeeds the answer still goes out under the old keys (wrap it), then
 * COpenPACE_chip_finish_chip_authentication switches to the new ones. */
uint16_t COpenPACE_chip_chip_authentication(COpenPACE_chip *chip, const uint8_t *apdu, size_t apdu_len,
                                            uint8_t *out, size_t out_cap, size_t *out_len);
void COpenPACE_chip_finish_chip_authentication(COpenPACE_chip *chip);

/* The last OpenSSL/OpenPACE error as text, for test failures (empty when none). */
void COpenPACE_last_error(char *buf, size_t buf_len);

#endif
