// PostgreSQL's client library, for `RawCodingPostgres` (`libpq-dev`; Homebrew's `libpq` on macOS).
#include <libpq-fe.h>
