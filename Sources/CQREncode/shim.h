// libqrencode 4 (Debian's libqrencode-dev, LGPL-2.1+): a string to a QR code's module matrix.
#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H
#include <qrencode.h>

/// The bit of a QRcode data byte that marks a dark module (the library documents bit 0).
static inline unsigned char cqrencode_dark_bit(void) { return 0x01; }
#endif
