// The part of ZXing-C++ (Debian's libzxing 1.4, Apache-2.0) that Vision needs: PDF417
// decoding from an 8-bit luma image, behind a plain C API.
//
// No C++ type crosses this header: images are pointer + width + height + stride; the
// decoded symbol's bytes are copied into a buffer the caller owns. Every function
// catches ZXing's exceptions and returns a code and a message. The functions keep no
// state and may be called from any thread.
#ifndef CZXING_H
#define CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes of every idkzx_* call.
enum {
    IDKZX_OK = 0,
    /// An argument is out of range (a size, a stride, a null buffer).
    IDKZX_INVALID_ARGUMENT = 1,
    /// ZXing raised an exception; the message says what it said.
    IDKZX_ZXING_FAILED = 2,
    /// Memory could not be allocated.
    IDKZX_OUT_OF_MEMORY = 3,
    /// No PDF417 symbol could be decoded in the image (not an error of the call).
    IDKZX_NOT_FOUND = 4,
    /// The decoded symbol holds more bytes than the caller's buffer; `length` says how many.
    IDKZX_BUFFER_TOO_SMALL = 5,
};

/// What a failed call says.
typedef struct idkzx_error {
    int code;
    char message[240];
} idkzx_error;

/// How hard to look.
typedef struct idkzx_options {
    /// Try harder (more scan lines, both polarities): slower, finds more.
    int try_harder;
    /// Also try the image rotated by 90 degrees.
    int try_rotate;
    /// Also try downscaled copies of a large image.
    int try_downscale;
} idkzx_options;

/// A decoded PDF417 symbol: its corners in image pixels (top-left, top-right,
/// bottom-right, bottom-left as the symbol reads) and the number of bytes written.
typedef struct idkzx_symbol {
    int corners[8];
    size_t length;
} idkzx_symbol;

/// Decodes the first PDF417 symbol in an 8-bit luma image into `bytes` (capacity
/// `capacity`): the symbol's bytes as encoded (byte compaction kept, no character-set
/// conversion). Returns IDKZX_OK, IDKZX_NOT_FOUND or an error code (error filled).
int idkzx_read_pdf417(const uint8_t *luma, int width, int height, int stride, idkzx_options options,
                      uint8_t *bytes, size_t capacity, idkzx_symbol *symbol, idkzx_error *error);

/// The library's version, e.g. "1.4.0".
const char *idkzx_version(void);

#ifdef __cplusplus
}
#endif

#endif
