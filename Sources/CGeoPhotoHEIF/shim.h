#ifndef CGEOPHOTO_HEIF_SHIM_H
#define CGEOPHOTO_HEIF_SHIM_H
#include <libheif/heif.h>
#endif
