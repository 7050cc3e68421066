#ifndef CGEOPHOTO_ZLIB_SHIM_H
#define CGEOPHOTO_ZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro; Swift sees this function instead.
static inline int geophoto_inflate_init(z_stream *stream, int window_bits) {
  return inflateInit2(stream, window_bits);
}
#endif
