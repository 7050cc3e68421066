#ifndef CGEOPHOTO_PQ_SHIM_H
#define CGEOPHOTO_PQ_SHIM_H
#include <libpq-fe.h>
#endif
