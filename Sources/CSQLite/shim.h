// The system SQLite, for `RawCodingSQLite` where the SDK has no `SQLite3` module (Linux).
#include <sqlite3.h>
