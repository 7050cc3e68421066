#ifndef CGEOPHOTO_SQLITE_SHIM_H
#define CGEOPHOTO_SQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro cast of -1; Swift cannot import it. */
static inline sqlite3_destructor_type gp_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

/* sqlite3_db_config is variadic; Swift cannot call it. Turns on SQLITE_DBCONFIG_DEFENSIVE and
   turns off triggers and views' side effects for a file geophoto did not write. */
static inline int gp_sqlite_defensive(sqlite3 *db) {
  int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
  if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
  if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0);
  return rc;
}
#endif
