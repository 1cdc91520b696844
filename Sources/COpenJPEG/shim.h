#ifndef COPENJPEG_SHIM_H
#define COPENJPEG_SHIM_H

// OpenJPEG 2.5 (Debian 12: libopenjp2-7-dev), for the JPEG 2000 faces of DG2.

#include <openjpeg.h>

#endif
