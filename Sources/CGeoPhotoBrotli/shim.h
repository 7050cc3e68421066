#ifndef CGEOPHOTO_BROTLI_SHIM_H
#define CGEOPHOTO_BROTLI_SHIM_H
#include <brotli/decode.h>
#endif
