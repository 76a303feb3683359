#include <sqlite3.h>

/// `sqlite3_db_config(db, op, value, result)` for the options that take an int and report the setting in effect
/// (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`…): the function is variadic, and Swift cannot call C variadic functions.
static inline int tender_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}
