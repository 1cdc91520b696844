// Tesseract's C API (libtesseract-dev): only the vision benchmark links it, as the field's
// OCR baseline for reading MRZ lines.
#ifndef CTESSERACT_SHIM_H
#define CTESSERACT_SHIM_H
#include <tesseract/capi.h>
#endif
