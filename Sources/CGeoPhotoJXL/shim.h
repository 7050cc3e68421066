#ifndef CGEOPHOTO_JXL_SHIM_H
#define CGEOPHOTO_JXL_SHIM_H
#include <jxl/decode.h>
#endif
