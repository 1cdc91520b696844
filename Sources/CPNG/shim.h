// libpng 1.6's simplified API (png_image_*): enough to read a still into luma or RGB.
#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
#include <png.h>

/// PNG_IMAGE_VERSION, a macro Swift does not import.
static inline png_uint_32 cpng_image_version(void) { return PNG_IMAGE_VERSION; }
/// PNG_FORMAT_GRAY and PNG_FORMAT_RGB.
static inline png_uint_32 cpng_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 cpng_format_rgb(void) { return PNG_FORMAT_RGB; }
/// PNG_IMAGE_FAILED: whether a png_image call failed (warnings do not count).
static inline int cpng_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }
#endif
