#ifndef CGEOPHOTO_WEBP_SHIM_H
#define CGEOPHOTO_WEBP_SHIM_H
#include <webp/decode.h>
#endif
