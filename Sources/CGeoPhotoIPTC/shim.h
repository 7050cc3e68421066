#ifndef CGEOPHOTO_IPTC_SHIM_H
#define CGEOPHOTO_IPTC_SHIM_H
#include <libiptcdata/iptc-data.h>
#include <libiptcdata/iptc-jpeg.h>
#endif
