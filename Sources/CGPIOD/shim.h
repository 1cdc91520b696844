#ifndef CGPIOD_SHIM_H
#define CGPIOD_SHIM_H

// libgpiod 1.6 (Debian 12: libgpiod-dev). The v2 API (gpiod_line_request, line
// settings) differs; this module is written against 1.6 only.

#include <gpiod.h>

/// The consumer label the kernel shows for lines we hold (gpioinfo, /sys/kernel/debug/gpio).
static inline const char *cgpiod_consumer(void) { return "idkiosk"; }

#endif
