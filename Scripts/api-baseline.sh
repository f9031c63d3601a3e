#!/usr/bin/env bash
# Rewrites the public-API baseline in .ci/api/ from the current sources. Run it when a public
# declaration changes on purpose, and commit .ci/api/ with the change (and a CHANGELOG entry):
# `.ci/run` fails, printing the difference, whenever the two disagree.
#
#   Scripts/api-baseline.sh [--check] [--graphs DIR]
#
# With --check it only compares, as `.ci/run` does. With --graphs it reads the symbol graphs
# Scripts/symbol-graphs.sh wrote to DIR (`.ci/run` has made them for DocC) instead of making
# them again. The listing is made on Linux; the
# Apple-only declarations of RawCodingStoresApple (compiled on Apple systems only) are not in it.
set -euo pipefail
cd "$(dirname "$0")/.."
products=(RawCoding RawCodingStores RawCodingStoresApple RawCodingSQLite RawCodingPostgres RawCodingTesting)
check=""
graphs=""
while [ $# -gt 0 ]; do
    case "$1" in
        --check) check=yes; shift ;;
        --graphs) graphs=${2:?--graphs needs a folder}; shift 2 ;;
        *) echo "usage: Scripts/api-baseline.sh [--check] [--graphs DIR]" >&2; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$graphs" ]; then graphs=$(Scripts/symbol-graphs.sh); fi
[ -d "$graphs" ] || { echo "error: no symbol graphs in $graphs" >&2; exit 1; }
swiftc -O Scripts/api-listing.swift -o "$work/api-listing"
"$work/api-listing" "$graphs" "$work/api" "${products[@]}"

if [ -n "$check" ]; then
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
