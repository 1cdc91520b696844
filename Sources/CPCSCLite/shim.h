#ifndef CPCSCLITE_SHIM_H
#define CPCSCLITE_SHIM_H

// The pcsc-lite API as Swift sees it. Macros Swift cannot import (address-of
// globals, function-like macros, string literals) are re-exported here as prefixed
// inline functions; Swift code never spells a PC/SC number itself.

#include <winscard.h>
#include <reader.h>

static inline const SCARD_IO_REQUEST *cpcsc_pci_t0(void) { return SCARD_PCI_T0; }
static inline const SCARD_IO_REQUEST *cpcsc_pci_t1(void) { return SCARD_PCI_T1; }

/// SCARD_CTL_CODE(3400): ask a reader for its CCID / PC/SC part 10 feature TLVs.
static inline DWORD cpcsc_ioctl_get_feature_request(void) { return CM_IOCTL_GET_FEATURE_REQUEST; }

/// The reader name PC/SC uses for plug-and-play notifications.
static inline const char *cpcsc_pnp_notification(void) { return "\\\\?PnP?\\Notification"; }

/// SCARD_ATTR_VENDOR_NAME and SCARD_ATTR_VENDOR_IFD_VERSION, built by function-like macros.
static inline DWORD cpcsc_attr_vendor_name(void) { return SCARD_ATTR_VENDOR_NAME; }
static inline DWORD cpcsc_attr_vendor_ifd_version(void) { return SCARD_ATTR_VENDOR_IFD_VERSION; }
static inline DWORD cpcsc_attr_maxinput(void) { return SCARD_ATTR_MAXINPUT; }

/// MAX_BUFFER_SIZE_EXTENDED: the largest response an extended-length APDU can bring.
static inline DWORD cpcsc_max_buffer_size_extended(void) { return MAX_BUFFER_SIZE_EXTENDED; }

#endif
