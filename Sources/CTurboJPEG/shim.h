#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H

// libjpeg-turbo's TurboJPEG 2.1 API (Debian 12: libturbojpeg0-dev). We use the 2.x
// functions (tjDecompress2, tjCompress2), not the 3.x tj3* ones, which Debian 12 lacks.

#include <turbojpeg.h>

/// TJFLAG_FASTDCT | TJFLAG_NOREALLOC: the flags of the camera hot path.
static inline int cturbojpeg_flags_fast(void) { return TJFLAG_FASTDCT; }
static inline int cturbojpeg_flags_accurate(void) { return TJFLAG_ACCURATEDCT; }
static inline int cturbojpeg_flag_norealloc(void) { return TJFLAG_NOREALLOC; }

#endif
