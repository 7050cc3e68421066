#ifndef CGEOPHOTO_EXIF_SHIM_H
#define CGEOPHOTO_EXIF_SHIM_H
/* libexif's headers use NULL and size_t without including stddef.h. */
#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-mem.h>

/* The IFD array is imported as a tuple; index it in C instead. */
static inline ExifContent *gp_exif_ifd(ExifData *data, ExifIfd ifd) {
  if (!data || ifd < 0 || ifd >= EXIF_IFD_COUNT) return NULL;
  return data->ifd[ifd];
}
#endif
