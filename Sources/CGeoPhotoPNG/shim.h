#ifndef CGEOPHOTO_PNG_SHIM_H
#define CGEOPHOTO_PNG_SHIM_H
#include <png.h>
#endif
