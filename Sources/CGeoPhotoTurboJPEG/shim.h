#ifndef CGEOPHOTO_TURBOJPEG_SHIM_H
#define CGEOPHOTO_TURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
