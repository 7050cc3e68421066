#ifndef CGEOPHOTO_YAJL_SHIM_H
#define CGEOPHOTO_YAJL_SHIM_H
#include <yajl/yajl_parse.h>
#endif
