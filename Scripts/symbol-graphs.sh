#!/usr/bin/env bash
# Writes the public symbol graphs of every module (`swift package dump-symbol-graph`) and
# prints the folder they are in, for DocC and the public-API baseline.
#
#   Scripts/symbol-graphs.sh [SWIFT BUILD FLAGS…]     e.g. -Xswiftc -warnings-as-errors
#
# Give the flags the package was built with: SwiftPM rebuilds whatever a changed command line
# touches. dump-symbol-graph reads every module of the package, the tests' too, but builds only
# the products: on a fresh clone it stops with "Couldn't load module 'RawCodablePackageTests'",
# so the tests are built first when their module is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -e "$(swift build "$@" --show-bin-path)/Modules/RawCodablePackageTests.swiftmodule" ]; then
    echo "building the package and its tests first (swift build --build-tests)" >&2
    swift build --build-tests "$@" >&2
fi
# Under `set -e` a failed assignment would end the script silently: say why instead.
if ! output=$(swift package "$@" dump-symbol-graph --minimum-access-level public 2>&1); then
    printf '%s\n' "$output" >&2
    echo "error: swift package dump-symbol-graph failed (does the package build?)" >&2
    exit 1
fi
graphs=$(printf '%s\n' "$output" | sed -n 's/^Files written to //p' | tail -1)
if [ -z "$graphs" ] || [ ! -d "$graphs" ]; then
    printf '%s\n' "$output" >&2
    echo "error: no symbol graphs were written" >&2
    exit 1
fi
echo "$graphs"
