#!/usr/bin/env bash
# Rewrites the public-API baseline in .ci/api/ from the current sources. Run it when a public
# declaration changes on purpose, and commit .ci/api/ with the change (and a CHANGELOG entry):
# `.ci/run` fails, printing the difference, whenever the two disagree.
#
#   Scripts/api-baseline.sh [--check]
#
# With --check it only compares, as `.ci/run` does. The listing is made on Linux; the
# Apple-only declarations of RawCodingStoresApple (compiled on Apple systems only) are not in it.
set -euo pipefail
cd "$(dirname "$0")/.."
products=(RawCoding RawCodingStores RawCodingStoresApple RawCodingSQLite RawCodingPostgres RawCodingTesting)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# dump-symbol-graph reads every module of the package, the tests' too, but builds only the
# products: on a fresh clone it stops with "Couldn't load module 'RawCodablePackageTests'". Build
# the tests first when their module is missing (`.ci/run` has built them, with its own flags,
# which a second build here would make SwiftPM redo).
if [ ! -e "$(swift build --show-bin-path)/Modules/RawCodablePackageTests.swiftmodule" ]; then
    echo "building the package and its tests first (swift build --build-tests)" >&2
    swift build --build-tests >&2
fi

# Under `set -e` a failed assignment would end the script silently: say why instead.
if ! graphs_output=$(swift package dump-symbol-graph --minimum-access-level public 2>&1); then
    printf '%s\n' "$graphs_output"
    echo "error: swift package dump-symbol-graph failed (does the package build?)" >&2
    exit 1
fi
graphs=$(printf '%s\n' "$graphs_output" | sed -n 's/^Files written to //p' | tail -1)
if [ -z "$graphs" ] || [ ! -d "$graphs" ]; then
    printf '%s\n' "$graphs_output"
    echo "error: no symbol graphs were written" >&2
    exit 1
fi
swiftc -O Scripts/api-listing.swift -o "$work/api-listing"
"$work/api-listing" "$graphs" "$work/api" "${products[@]}"

if [ "${1:-}" = --check ]; then
    if ! diff -ru .ci/api "$work/api"; then
        echo "error: the public API differs from the baseline in .ci/api (above: - baseline, + now)." >&2
        echo "If the change is meant, run Scripts/api-baseline.sh and commit .ci/api with it and a CHANGELOG entry." >&2
        exit 1
    fi
    echo "public API: as in .ci/api"
else
    rm -rf .ci/api
    cp -r "$work/api" .ci/api
    echo "wrote .ci/api ($(cat .ci/api/*.txt | wc -l) lines)"
fi
