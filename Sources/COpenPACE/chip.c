#include "COpenPACE.h"

#include <eac/ca.h>
#include <eac/eac.h>
#include <eac/objects.h>
#include <eac/pace.h>
#include <openssl/buffer.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/stack.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Exported by libeac but not declared in its public headers: CA version 1 key derivation
 * (no nonce), as ICAO Doc 9303 Part 11 §6.2 specifies. */
int KA_CTX_derive_keys(KA_CTX *ctx, const BUF_MEM *nonce, EVP_MD_CTX *md_ctx);

enum {
    SW_OK = 0x9000,
    SW_WRONG_LENGTH = 0x6700,
    SW_SM_MISSING = 0x6987,
    SW_SM_INCORRECT = 0x6988,
    SW_SECURITY = 0x6982,
    SW_CONDITIONS = 0x6985,
    SW_WRONG_DATA = 0x6A80,
    SW_NOT_FOUND = 0x6A88,
    SW_P1P2 = 0x6A86,
    SW_AUTH_FAILED = 0x6300,
    SW_UNKNOWN = 0x6F00,
};

#define MAX_OFFERS 16

struct COpenPACE_chip {
    int offers;
    int offer_protocol[MAX_OFFERS];
    int offer_parameter[MAX_OFFERS];
    char mrz[90];            /* the MRZ information laid out as a TD1, as OpenPACE reads an MRZ */
    char can[16];
    EAC_CTX *ctx;            /* the session: PACE, then Chip Authentication */
    PACE_SEC *secret;
    int step;                /* 1 after MSE:Set AT, then one per GENERAL AUTHENTICATE */
    BUF_MEM *terminal_key;   /* the terminal's ephemeral PACE key, for the chip's token */
    int secure;
    char ca_protocol[64];
    int ca_parameter;
    BUF_MEM *ca_private;
    BUF_MEM *ca_public;
    int ca_pending;          /* MSE:Set AT for CA seen */
    int ca_done;             /* new keys derived; they apply after the answer */
};

static pthread_once_t initialized = PTHREAD_ONCE_INIT;

/* EAC_init registers OpenPACE's object identifiers with OpenSSL: once, for every thread. */
static void init_once(void) { pthread_once(&initialized, EAC_init); }

/* ---- BER-TLV, the few shapes the protocols use ---- */

static int tlv_read(const uint8_t *p, size_t len, size_t *pos, unsigned *tag, const uint8_t **value, size_t *value_len) {
    size_t i = *pos;
    if (i >= len) return 0;
    unsigned t = p[i++];
    if ((t & 0x1F) == 0x1F) {
        do {
            if (i >= len) return 0;
            t = (t << 8) | p[i];
        } while (p[i++] & 0x80);
    }
    if (i >= len) return 0;
    size_t l = p[i++];
    if (l & 0x80) {
        size_t n = l & 0x7F;
        if (n == 0 || n > 3 || i + n > len) return 0;
        l = 0;
        while (n--) l = (l << 8) | p[i++];
    }
    if (l > len - i) return 0;
    *tag = t;
    *value = p + i;
    *value_len = l;
    *pos = i + l;
    return 1;
}

/* The first data object with this tag at the top level of p. */
static int tlv_find(const uint8_t *p, size_t len, unsigned tag, const uint8_t **value, size_t *value_len) {
    size_t pos = 0;
    unsigned t;
    const uint8_t *v;
    size_t l;
    while (tlv_read(p, len, &pos, &t, &v, &l)) {
        if (t == tag) {
            *value = v;
            *value_len = l;
            return 1;
        }
    }
    return 0;
}

static size_t tlv_write(uint8_t *out, unsigned tag, const uint8_t *value, size_t len) {
    size_t i = 0;
    if (tag > 0xFF) out[i++] = (uint8_t)(tag >> 8);
    out[i++] = (uint8_t)tag;
    if (len < 0x80) {
        out[i++] = (uint8_t)len;
    } else if (len < 0x100) {
        out[i++] = 0x81;
        out[i++] = (uint8_t)len;
    } else {
        out[i++] = 0x82;
        out[i++] = (uint8_t)(len >> 8);
        out[i++] = (uint8_t)len;
    }
    if (len) memcpy(out + i, value, len);
    return i + len;
}

/* ---- command APDUs ---- */

typedef struct {
    uint8_t header[4];
    const uint8_t *data;
    size_t data_len;
    size_t le;               /* 0: absent */
    int has_le;
} command;

static int parse_command(const uint8_t *apdu, size_t len, command *c) {
    if (len < 4) return 0;
    memcpy(c->header, apdu, 4);
    c->data = NULL;
    c->data_len = 0;
    c->le = 0;
    c->has_le = 0;
    if (len == 4) return 1;
    if (len == 5) {
        c->has_le = 1;
        c->le = apdu[4] ? apdu[4] : 256;
        return 1;
    }
    if (apdu[4] != 0) {
        size_t lc = apdu[4];
        if (len != 5 + lc && len != 6 + lc) return 0;
        c->data = apdu + 5;
        c->data_len = lc;
        if (len == 6 + lc) {
            c->has_le = 1;
            c->le = apdu[5 + lc] ? apdu[5 + lc] : 256;
        }
        return 1;
    }
    if (len < 7) return 0;
    size_t first = ((size_t)apdu[5] << 8) | apdu[6];
    if (len == 7) {
        c->has_le = 1;
        c->le = first ? first : 65536;
        return 1;
    }
    if (len != 7 + first && len != 9 + first) return 0;
    c->data = apdu + 7;
    c->data_len = first;
    if (len == 9 + first) {
        size_t le = ((size_t)apdu[7 + first] << 8) | apdu[8 + first];
        c->has_le = 1;
        c->le = le ? le : 65536;
    }
    return 1;
}

static int nid_of(const uint8_t *oid, size_t len) {
    uint8_t der[64];
    if (len + 2 > sizeof der || len > 0x7F) return NID_undef;
    der[0] = 0x06;
    der[1] = (uint8_t)len;
    memcpy(der + 2, oid, len);
    const unsigned char *p = der;
    ASN1_OBJECT *object = d2i_ASN1_OBJECT(NULL, &p, (long)(len + 2));
    if (!object) return NID_undef;
    int nid = OBJ_obj2nid(object);
    ASN1_OBJECT_free(object);
    return nid;
}

static BUF_MEM *buffer(const uint8_t *data, size_t len) {
    BUF_MEM *b = BUF_MEM_new();
    if (!b) return NULL;
    if (len && !BUF_MEM_grow(b, len)) {
        BUF_MEM_free(b);
        return NULL;
    }
    if (len) memcpy(b->data, data, len);
    b->length = len;
    return b;
}

static uint16_t copy_out(const BUF_MEM *b, uint8_t *out, size_t cap, size_t *out_len) {
    if (b->length > cap) return SW_UNKNOWN;
    memcpy(out, b->data, b->length);
    *out_len = b->length;
    return SW_OK;
}

/* ---- the chip ---- */

COpenPACE_chip *COpenPACE_chip_new(const uint8_t *card_access, size_t card_access_len,
                                   const char *mrz_information, const char *card_access_number) {
    init_once();
    COpenPACE_chip *chip = calloc(1, sizeof *chip);
    if (!chip) return NULL;
    /* Read under TR-03110 2.01's rules, which still allow Integrated Mapping. */
    EAC_CTX *parsed = EAC_CTX_new();
    if (parsed) parsed->tr_version = EAC_TR_VERSION_2_01;
    if (!parsed || !EAC_CTX_init_ef_cardaccess(card_access, card_access_len, parsed)) {
        EAC_CTX_clear_free(parsed);
        free(chip);
        return NULL;
    }
    OPENSSL_STACK *offers = (OPENSSL_STACK *)parsed->pace_ctxs;
    for (int i = 0; i < OPENSSL_sk_num(offers) && chip->offers < MAX_OFFERS; i++) {
        const PACE_CTX *pace = OPENSSL_sk_value(offers, i);
        chip->offer_protocol[chip->offers] = pace->protocol;
        chip->offer_parameter[chip->offers] = pace->id;
        chip->offers++;
    }
    EAC_CTX_clear_free(parsed);
    /* OpenPACE reads the password from an MRZ as an ID card's (TD1) lines: the document
     * number at 5, the date of birth at 30, the date of expiry at 38, each with its check
     * digit. The MRZ information is laid out there. */
    memset(chip->mrz, '<', sizeof chip->mrz);
    if (mrz_information && strlen(mrz_information) == 24) {
        memcpy(chip->mrz + 5, mrz_information, 10);
        memcpy(chip->mrz + 30, mrz_information + 10, 7);
        memcpy(chip->mrz + 38, mrz_information + 17, 7);
    }
    if (card_access_number) {
        strncpy(chip->can, card_access_number, sizeof chip->can - 1);
    }
    return chip;
}

static void end_session(COpenPACE_chip *chip) {
    EAC_CTX_clear_free(chip->ctx);
    chip->ctx = NULL;
    PACE_SEC_clear_free(chip->secret);
    chip->secret = NULL;
    BUF_MEM_clear_free(chip->terminal_key);
    chip->terminal_key = NULL;
    chip->step = 0;
    chip->secure = 0;
    chip->ca_pending = 0;
    chip->ca_done = 0;
}

void COpenPACE_chip_free(COpenPACE_chip *chip) {
    if (!chip) return;
    end_session(chip);
    BUF_MEM_clear_free(chip->ca_private);
    BUF_MEM_clear_free(chip->ca_public);
    OPENSSL_cleanse(chip, sizeof *chip);
    free(chip);
}

int COpenPACE_chip_offered(const COpenPACE_chip *chip) { return chip->offers; }

int COpenPACE_chip_secure(const COpenPACE_chip *chip) { return chip->secure; }

void COpenPACE_chip_abort(COpenPACE_chip *chip) { end_session(chip); }

int COpenPACE_chip_set_chip_authentication_key(COpenPACE_chip *chip, const char *protocol, int parameter_id,
                                               const uint8_t *private_key, size_t private_len,
                                               const uint8_t *public_key, size_t public_len) {
    init_once();
    if (strlen(protocol) >= sizeof chip->ca_protocol) return 0;
    strcpy(chip->ca_protocol, protocol);
    chip->ca_parameter = parameter_id;
    BUF_MEM_clear_free(chip->ca_private);
    BUF_MEM_clear_free(chip->ca_public);
    chip->ca_private = buffer(private_key, private_len);
    chip->ca_public = buffer(public_key, public_len);
    return chip->ca_private && chip->ca_public;
}

static int integrated_mapping(int protocol) {
    return protocol == NID_id_PACE_ECDH_IM_AES_CBC_CMAC_128 || protocol == NID_id_PACE_ECDH_IM_AES_CBC_CMAC_192
        || protocol == NID_id_PACE_ECDH_IM_AES_CBC_CMAC_256 || protocol == NID_id_PACE_ECDH_IM_3DES_CBC_CBC
        || protocol == NID_id_PACE_DH_IM_AES_CBC_CMAC_128 || protocol == NID_id_PACE_DH_IM_AES_CBC_CMAC_192
        || protocol == NID_id_PACE_DH_IM_AES_CBC_CMAC_256 || protocol == NID_id_PACE_DH_IM_3DES_CBC_CBC;
}

/* MSE:Set AT for PACE: DO'80' the protocol, DO'83' the password, DO'84' the parameter set
 * (required when the chip offers more than one for the protocol, as real chips do). */
static uint16_t pace_set_at(COpenPACE_chip *chip, const command *c) {
    const uint8_t *oid, *password, *reference;
    size_t oid_len, password_len, reference_len;
    end_session(chip);
    if (!tlv_find(c->data, c->data_len, 0x80, &oid, &oid_len) || !tlv_find(c->data, c->data_len, 0x83, &password, &password_len)
        || password_len != 1)
        return SW_WRONG_DATA;
    int protocol = nid_of(oid, oid_len);
    int has_reference = tlv_find(c->data, c->data_len, 0x84, &reference, &reference_len);
    if (has_reference && reference_len != 1) return SW_WRONG_DATA;
    int chosen = -1, candidates = 0;
    for (int i = 0; i < chip->offers; i++) {
        if (chip->offer_protocol[i] != protocol) continue;
        candidates++;
        if (!has_reference || chip->offer_parameter[i] == reference[0]) chosen = i;
    }
    if (chosen < 0 || (!has_reference && candidates > 1)) return SW_WRONG_DATA;
    EAC_CTX *ctx = EAC_CTX_new();
    if (!ctx) return SW_UNKNOWN;
    /* OpenPACE implements Integrated Mapping as TR-03110 2.01 and ICAO's Supplemental
     * Access Control specify it; it refuses it under the later version's rules. */
    if (integrated_mapping(protocol)) ctx->tr_version = EAC_TR_VERSION_2_01;
    if (!EAC_CTX_init_pace(ctx, protocol, chip->offer_parameter[chosen])) {
        EAC_CTX_clear_free(ctx);
        return SW_WRONG_DATA;
    }
    if (password[0] == 1) {
        chip->secret = PACE_SEC_new(chip->mrz, sizeof chip->mrz, PACE_MRZ);
    } else if (password[0] == 2 && chip->can[0]) {
        chip->secret = PACE_SEC_new(chip->can, strlen(chip->can), PACE_CAN);
    }
    if (!chip->secret) {
        EAC_CTX_clear_free(ctx);
        return SW_NOT_FOUND;
    }
    chip->ctx = ctx;
    chip->step = 1;
    return SW_OK;
}

static uint16_t answer_template(unsigned tag, const BUF_MEM *value, uint8_t *out, size_t cap, size_t *out_len) {
    size_t inner = value ? value->length : 0;
    if (inner + 8 > cap) return SW_UNKNOWN;
    uint8_t *scratch = malloc(inner + 4);
    if (!scratch) return SW_UNKNOWN;
    size_t n = tlv_write(scratch, tag, value ? (const uint8_t *)value->data : NULL, inner);
    *out_len = tlv_write(out, 0x7C, scratch, n);
    free(scratch);
    return SW_OK;
}

/* One GENERAL AUTHENTICATE of PACE; every computation is OpenPACE's. */
static uint16_t pace_step(COpenPACE_chip *chip, const command *c, uint8_t *out, size_t cap, size_t *out_len) {
    const uint8_t *template, *value;
    size_t template_len, value_len;
    if (!chip->ctx || chip->step < 1) return SW_CONDITIONS;
    if (!tlv_find(c->data, c->data_len, 0x7C, &template, &template_len)) return SW_WRONG_DATA;
    uint16_t sw = SW_OK;
    BUF_MEM *in = NULL, *mine = NULL;
    switch (chip->step) {
    case 1: /* encrypted nonce */
        if (template_len != 0) return SW_WRONG_DATA;
        mine = PACE_STEP1_enc_nonce(chip->ctx, chip->secret);
        sw = mine ? answer_template(0x80, mine, out, cap, out_len) : SW_UNKNOWN;
        break;
    case 2: /* mapping: Generic Mapping answers the chip's mapping key, Integrated Mapping nothing */
        if (!tlv_find(template, template_len, 0x81, &value, &value_len)) return SW_WRONG_DATA;
        in = buffer(value, value_len);
        if (!integrated_mapping(chip->ctx->pace_ctx->protocol)) mine = PACE_STEP3A_generate_mapping_data(chip->ctx);
        if (!in || (!mine && !integrated_mapping(chip->ctx->pace_ctx->protocol)) || !PACE_STEP3A_map_generator(chip->ctx, in)) {
            sw = SW_WRONG_DATA;
            break;
        }
        sw = answer_template(0x82, mine, out, cap, out_len);
        break;
    case 3: /* key agreement */
        if (!tlv_find(template, template_len, 0x83, &value, &value_len)) return SW_WRONG_DATA;
        chip->terminal_key = buffer(value, value_len);
        mine = PACE_STEP3B_generate_ephemeral_key(chip->ctx);
        if (!chip->terminal_key || !mine || !PACE_STEP3B_compute_shared_secret(chip->ctx, chip->terminal_key)) {
            sw = SW_WRONG_DATA;
            break;
        }
        sw = answer_template(0x84, mine, out, cap, out_len);
        break;
    case 4: /* mutual authentication */
        if (!tlv_find(template, template_len, 0x85, &value, &value_len)) return SW_WRONG_DATA;
        in = buffer(value, value_len);
        if (!in || !PACE_STEP3C_derive_keys(chip->ctx) || PACE_STEP3D_verify_authentication_token(chip->ctx, in) != 1) {
            sw = SW_AUTH_FAILED;
            break;
        }
        mine = PACE_STEP3D_compute_authentication_token(chip->ctx, chip->terminal_key);
        if (!mine || !EAC_CTX_set_encryption_ctx(chip->ctx, EAC_ID_PACE)) {
            sw = SW_UNKNOWN;
            break;
        }
        sw = answer_template(0x86, mine, out, cap, out_len);
        if (sw == SW_OK) chip->secure = 1;
        break;
    default:
        sw = SW_CONDITIONS;
    }
    BUF_MEM_clear_free(in);
    BUF_MEM_clear_free(mine);
    if (sw == SW_OK) {
        chip->step++;
    } else {
        end_session(chip);
    }
    return sw;
}

uint16_t COpenPACE_chip_pace(COpenPACE_chip *chip, const uint8_t *apdu, size_t apdu_len,
                             uint8_t *out, size_t out_cap, size_t *out_len) {
    command c;
    *out_len = 0;
    if (!parse_command(apdu, apdu_len, &c)) return SW_WRONG_LENGTH;
    if (c.header[1] == 0x22) {
        if (c.header[2] != 0xC1 || c.header[3] != 0xA4) return SW_P1P2;
        return pace_set_at(chip, &c);
    }
    if (c.header[1] == 0x86) return pace_step(chip, &c, out, out_cap, out_len);
    return SW_CONDITIONS;
}

/* ---- secure messaging (ICAO Doc 9303 Part 11 §9.8), OpenPACE's cipher and MAC ---- */

static BUF_MEM *padded(const EAC_CTX *ctx, const uint8_t *data, size_t len) {
    BUF_MEM *plain = buffer(data, len);
    if (!plain) return NULL;
    BUF_MEM *out = EAC_add_iso_pad(ctx, plain);
    BUF_MEM_clear_free(plain);
    return out;
}

uint16_t COpenPACE_chip_unwrap(COpenPACE_chip *chip, const uint8_t *apdu, size_t apdu_len,
                               uint8_t *out, size_t out_cap, size_t *out_len) {
    command c;
    *out_len = 0;
    if (!chip->secure) return SW_SECURITY;
    EAC_increment_ssc(chip->ctx);
    if (!parse_command(apdu, apdu_len, &c) || (c.header[0] & 0x0C) != 0x0C) {
        end_session(chip);
        return SW_SM_MISSING;
    }
    /* The data objects in order: DO'87' or DO'85' (the cryptogram), DO'97' (Le), DO'8E'. */
    size_t pos = 0, mac_input_end = 0;
    unsigned tag;
    const uint8_t *value, *cryptogram = NULL, *le = NULL, *mac = NULL;
    size_t value_len, cryptogram_len = 0, le_len = 0;
    while (tlv_read(c.data, c.data_len, &pos, &tag, &value, &value_len)) {
        if (tag == 0x87 || tag == 0x85) {
            if (tag == 0x87 && (value_len < 2 || value[0] != 0x01)) break;
            cryptogram = tag == 0x87 ? value + 1 : value;
            cryptogram_len = tag == 0x87 ? value_len - 1 : value_len;
            mac_input_end = pos;
        } else if (tag == 0x97) {
            le = value;
            le_len = value_len;
            mac_input_end = pos;
        } else if (tag == 0x8E) {
            mac = value;
            if (value_len != 8) mac = NULL;
            break;
        } else {
            break;
        }
    }
    if (!mac || pos != c.data_len) {
        end_session(chip);
        return SW_SM_MISSING;
    }
    /* MAC over the padded header and the padded data objects; OpenPACE puts the SSC first. */
    uint8_t header[4] = {c.header[0], c.header[1], c.header[2], c.header[3]};
    BUF_MEM *head = padded(chip->ctx, header, 4);
    BUF_MEM *objects = head ? buffer(NULL, 0) : NULL;
    uint16_t sw = SW_OK;
    if (!head || !objects || !BUF_MEM_grow(objects, head->length + mac_input_end)) {
        sw = SW_UNKNOWN;
        goto done;
    }
    memcpy(objects->data, head->data, head->length);
    memcpy(objects->data + head->length, c.data, mac_input_end);
    objects->length = head->length + mac_input_end;
    {
        BUF_MEM *input = EAC_add_iso_pad(chip->ctx, objects);
        BUF_MEM *tag_mac = buffer(mac, 8);
        int verified = input && tag_mac && EAC_verify_authentication(chip->ctx, input, tag_mac) == 1;
        BUF_MEM_free(input);
        BUF_MEM_free(tag_mac);
        if (!verified) {
            sw = SW_SM_INCORRECT;
            goto done;
        }
    }
    {
        uint8_t plain_header[4] = {(uint8_t)(c.header[0] & ~0x0C), c.header[1], c.header[2], c.header[3]};
        BUF_MEM *data = NULL;
        if (cryptogram) {
            BUF_MEM *encrypted = buffer(cryptogram, cryptogram_len);
            BUF_MEM *decrypted = encrypted ? EAC_decrypt(chip->ctx, encrypted) : NULL;
            data = decrypted ? EAC_remove_iso_pad(decrypted) : NULL;
            BUF_MEM_free(encrypted);
            BUF_MEM_clear_free(decrypted);
            if (!data) {
                sw = SW_SM_INCORRECT;
                goto done;
            }
        }
        size_t n = data ? data->length : 0;
        size_t expected = 0;
        if (le) {
            for (size_t i = 0; i < le_len; i++) expected = (expected << 8) | le[i];
            if (expected == 0) expected = le_len == 1 ? 256 : 65536;
        }
        int extended = n > 255 || expected > 256;
        if (out_cap < 4 + 3 + n + 3) {
            BUF_MEM_clear_free(data);
            sw = SW_UNKNOWN;
            goto done;
        }
        size_t i = 0;
        memcpy(out, plain_header, 4);
        i = 4;
        if (n) {
            if (extended) {
                out[i++] = 0;
                out[i++] = (uint8_t)(n >> 8);
                out[i++] = (uint8_t)n;
            } else {
                out[i++] = (uint8_t)n;
            }
            memcpy(out + i, data->data, n);
            i += n;
        }
        if (le) {
            if (extended) {
                if (!n) out[i++] = 0;
                out[i++] = (uint8_t)((expected == 65536 ? 0 : expected) >> 8);
                out[i++] = (uint8_t)(expected == 65536 ? 0 : expected);
            } else {
                out[i++] = (uint8_t)(expected == 256 ? 0 : expected);
            }
        }
        *out_len = i;
        BUF_MEM_clear_free(data);
    }
done:
    BUF_MEM_free(head);
    BUF_MEM_free(objects);
    if (sw != SW_OK) end_session(chip);
    return sw;
}

uint16_t COpenPACE_chip_wrap(COpenPACE_chip *chip, const uint8_t *data, size_t data_len, uint16_t status,
                             int odd_ins, uint8_t *out, size_t out_cap, size_t *out_len) {
    *out_len = 0;
    if (!chip->secure) return SW_SECURITY;
    EAC_increment_ssc(chip->ctx);
    size_t need = data_len + 64;
    uint8_t *objects = malloc(need);
    if (!objects) return SW_UNKNOWN;
    size_t n = 0;
    uint16_t sw = SW_OK;
    if (data_len) {
        BUF_MEM *plain = padded(chip->ctx, data, data_len);
        BUF_MEM *encrypted = plain ? EAC_encrypt(chip->ctx, plain) : NULL;
        BUF_MEM_clear_free(plain);
        if (!encrypted || encrypted->length + 1 > need - 32) {
            BUF_MEM_free(encrypted);
            free(objects);
            return SW_UNKNOWN;
        }
        if (odd_ins) {
            n += tlv_write(objects + n, 0x85, (const uint8_t *)encrypted->data, encrypted->length);
        } else {
            uint8_t *indicated = malloc(encrypted->length + 1);
            if (!indicated) {
                BUF_MEM_free(encrypted);
                free(objects);
                return SW_UNKNOWN;
            }
            indicated[0] = 0x01;
            memcpy(indicated + 1, encrypted->data, encrypted->length);
            n += tlv_write(objects + n, 0x87, indicated, encrypted->length + 1);
            free(indicated);
        }
        BUF_MEM_free(encrypted);
    }
    uint8_t status_bytes[2] = {(uint8_t)(status >> 8), (uint8_t)status};
    n += tlv_write(objects + n, 0x99, status_bytes, 2);
    BUF_MEM *input = padded(chip->ctx, objects, n);
    BUF_MEM *mac = input ? EAC_authenticate(chip->ctx, input) : NULL;
    BUF_MEM_free(input);
    if (!mac || mac->length < 8) {
        sw = SW_UNKNOWN;
    } else {
        n += tlv_write(objects + n, 0x8E, (const uint8_t *)mac->data, 8);
        if (n + 2 > out_cap) {
            sw = SW_UNKNOWN;
        } else {
            memcpy(out, objects, n);
            out[n] = 0x90;
            out[n + 1] = 0x00;
            *out_len = n + 2;
        }
    }
    BUF_MEM_free(mac);
    free(objects);
    return sw;
}

/* ---- Chip Authentication, version 1 (ICAO Doc 9303 Part 11 §6.2), OpenPACE's key agreement ---- */

static uint16_t chip_authenticate(COpenPACE_chip *chip, const uint8_t *terminal_key, size_t terminal_key_len) {
    if (!chip->ca_private) return SW_CONDITIONS;
    int protocol = OBJ_txt2nid(chip->ca_protocol);
    BUF_MEM *pub = buffer(terminal_key, terminal_key_len);
    /* The session's current keys stay PACE's until the answer has gone out. */
    int ok = protocol != NID_undef && pub && EAC_CTX_init_ca(chip->ctx, protocol, chip->ca_parameter)
        && CA_set_key(chip->ctx, (const unsigned char *)chip->ca_private->data, chip->ca_private->length,
                      (const unsigned char *)chip->ca_public->data, chip->ca_public->length)
        && CA_STEP4_compute_shared_secret(chip->ctx, pub)
        && KA_CTX_derive_keys(chip->ctx->ca_ctx->ka_ctx, NULL, chip->ctx->md_ctx);
    BUF_MEM_free(pub);
    if (!ok) return SW_WRONG_DATA;
    chip->ca_done = 1;
    return SW_OK;
}

uint16_t COpenPACE_chip_chip_authentication(COpenPACE_chip *chip, const uint8_t *apdu, size_t apdu_len,
                                            uint8_t *out, size_t out_cap, size_t *out_len) {
    command c;
    const uint8_t *value, *template;
    size_t value_len, template_len;
    *out_len = 0;
    if (!parse_command(apdu, apdu_len, &c)) return SW_WRONG_LENGTH;
    if (c.header[1] == 0x22 && c.header[2] == 0x41 && c.header[3] == 0xA6) {  /* MSE:Set KAT, 3DES */
        if (!tlv_find(c.data, c.data_len, 0x91, &value, &value_len)) return SW_WRONG_DATA;
        return chip_authenticate(chip, value, value_len);
    }
    if (c.header[1] == 0x22 && c.header[2] == 0x41 && c.header[3] == 0xA4) {  /* MSE:Set AT */
        if (!tlv_find(c.data, c.data_len, 0x80, &value, &value_len)) return SW_WRONG_DATA;
        if (nid_of(value, value_len) != OBJ_txt2nid(chip->ca_protocol)) return SW_WRONG_DATA;
        chip->ca_pending = 1;
        return SW_OK;
    }
    if (c.header[1] == 0x86 && chip->ca_pending) {
        chip->ca_pending = 0;
        if (!tlv_find(c.data, c.data_len, 0x7C, &template, &template_len)
            || !tlv_find(template, template_len, 0x80, &value, &value_len))
            return SW_WRONG_DATA;
        uint16_t sw = chip_authenticate(chip, value, value_len);
        if (sw != SW_OK) return sw;
        if (out_cap < 2) return SW_UNKNOWN;
        out[0] = 0x7C;
        out[1] = 0x00;
        *out_len = 2;
        return SW_OK;
    }
    return SW_CONDITIONS;
}

void COpenPACE_chip_finish_chip_authentication(COpenPACE_chip *chip) {
    if (!chip->ca_done) return;
    chip->ca_done = 0;
    EAC_CTX_set_encryption_ctx(chip->ctx, EAC_ID_CA);  /* resets the SSC to zero */
}

void COpenPACE_last_error(char *buf, size_t buf_len) {
    unsigned long code = ERR_peek_last_error();
    if (buf_len == 0) return;
    buf[0] = 0;
    if (code) ERR_error_string_n(code, buf, buf_len);
    ERR_clear_error();
}
