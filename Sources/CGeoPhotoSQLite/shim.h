#ifndef CGEOPHOTO_SQLITE_SHIM_H
#define CGEOPHOTO_SQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro cast of -1; Swift cannot import it. */
static inline sqlite3_destructor_type gp_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}
#endif
