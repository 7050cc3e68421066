#ifndef CGEOPHOTO_EXPAT_SHIM_H
#define CGEOPHOTO_EXPAT_SHIM_H
#include <expat.h>
#endif
