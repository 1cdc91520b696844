// CZXing: ZXing-C++'s PDF417 reader behind the C API of include/CZXing.h. C++ and
// ZXing's types stay in this file.
#include "CZXing.h"

#define ZX_USE_UTF8 1
#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <cstdio>
#include <cstring>
#include <new>

namespace {

void fail(idkzx_error *error, int code, const char *message) {
    if (!error) return;
    error->code = code;
    std::snprintf(error->message, sizeof error->message, "%s", message);
}

void ok(idkzx_error *error) {
    if (!error) return;
    error->code = IDKZX_OK;
    error->message[0] = 0;
}

#define IDKZX_STR2(x) #x
#define IDKZX_STR(x) IDKZX_STR2(x)

} // namespace

extern "C" const char *idkzx_version(void) {
    return IDKZX_STR(ZXING_VERSION_MAJOR) "." IDKZX_STR(ZXING_VERSION_MINOR) "." IDKZX_STR(ZXING_VERSION_PATCH);
}

extern "C" int idkzx_read_pdf417(const uint8_t *luma, int width, int height, int stride, idkzx_options options,
                                 uint8_t *bytes, size_t capacity, idkzx_symbol *symbol, idkzx_error *error) {
    if (!luma || !symbol || (!bytes && capacity > 0) || width <= 0 || height <= 0 || width > 16384 || height > 16384 ||
        stride < width) {
        fail(error, IDKZX_INVALID_ARGUMENT, "image or buffer out of range");
        return IDKZX_INVALID_ARGUMENT;
    }
    try {
        ok(error);
        ZXing::ImageView image(luma, width, height, ZXing::ImageFormat::Lum, stride, 1);
        ZXing::DecodeHints hints;
        hints.setFormats(ZXing::BarcodeFormat::PDF417);
        hints.setTryHarder(options.try_harder != 0);
        hints.setTryRotate(options.try_rotate != 0);
        hints.setTryDownscale(options.try_downscale != 0);
        hints.setMaxNumberOfSymbols(1);
        ZXing::Result result = ZXing::ReadBarcode(image, hints);
        if (!result.isValid()) {
            symbol->length = 0;
            return IDKZX_NOT_FOUND;
        }
        const ZXing::Position &position = result.position();
        for (int i = 0; i < 4; ++i) {
            symbol->corners[2 * i] = position[i].x;
            symbol->corners[2 * i + 1] = position[i].y;
        }
        const ZXing::ByteArray &data = result.bytes();
        symbol->length = data.size();
        if (data.size() > capacity) {
            fail(error, IDKZX_BUFFER_TOO_SMALL, "the symbol holds more bytes than the buffer");
            return IDKZX_BUFFER_TOO_SMALL;
        }
        if (!data.empty()) std::memcpy(bytes, data.data(), data.size());
        return IDKZX_OK;
    } catch (const std::bad_alloc &) {
        fail(error, IDKZX_OUT_OF_MEMORY, "out of memory");
        return IDKZX_OUT_OF_MEMORY;
    } catch (const std::exception &exception) {
        fail(error, IDKZX_ZXING_FAILED, exception.what());
        return IDKZX_ZXING_FAILED;
    } catch (...) {
        fail(error, IDKZX_ZXING_FAILED, "unknown exception");
        return IDKZX_ZXING_FAILED;
    }
}
