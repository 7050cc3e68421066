#ifndef CGEOPHOTO_CAIRO_SHIM_H
#define CGEOPHOTO_CAIRO_SHIM_H
#include <cairo.h>
#include <cairo-svg.h>
#endif
