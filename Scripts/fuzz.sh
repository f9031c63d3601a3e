#!/usr/bin/env bash
# Fuzzing (local, not CI): every reader and decoder under libFuzzer with AddressSanitizer and
# leak detection, built with only the Swift toolchain.
#
#   Scripts/fuzz.sh [-t SECONDS] [-j JOBS] [TARGET ...]   run targets (default: all, 600 s each, 2 at a time)
#   Scripts/fuzz.sh --list                                the targets
#   Scripts/fuzz.sh --minimize TARGET FILE                minimize a crashing input into a reproducer
#
# SwiftPM cannot build a libFuzzer binary (executable targets do not take -parse-as-library), so
# this compiles Sources/RawCoding, Sources/Support/RawCodingFuzzTargets and Scripts/fuzz/main.swift into
# one module with swiftc. Everything goes under .build/fuzz/: the binary, one corpus per target
# (seeded from Fixtures/ and the kept findings in Fixtures/FuzzRegressions/), logs, and findings.
# Each run uses -timeout=2 -rss_limit_mb=2048 with leak detection on. A crash, leak, timeout,
# out-of-memory or property failure is minimized at once; copy the reproducer into
# Fixtures/FuzzRegressions/<target>/ after fixing it, so FuzzRegressionTests replays it in CI.
# Exit status: 0 when every target ran clean, 1 when one found something, 2 on a usage error.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work="$repo/.build/fuzz"
binary="$work/bin/rawcoding-fuzz"
seconds=600
jobs=2
targets=(json xml binary detect tree-decode rawcodable evolving reader-roundtrip codec-roundtrip json-decode json-streaming
    openstep container-shapes json5)
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"

usage() {
    sed -n '4,7p' "$0" | sed 's/^# //' >&2
    exit 2
}

build() {
    mkdir -p "$work/bin"
    local sources
    sources=$(find "$repo/Sources/RawCoding" "$repo/Sources/Support/RawCodingFuzzTargets" -name '*.swift' | sort)
    local newest
    # `|| true`: head closing the pipe early stops ls with SIGPIPE, which pipefail would report.
    newest=$(ls -t $sources "$repo/Scripts/fuzz/main.swift" | head -1 || true)
    if [ -x "$binary" ] && [ "$binary" -nt "$newest" ]; then return; fi
    echo "building $binary (about a minute)"
    # The targets import RawCoding, which this build compiles into the same module: swiftc notes
    # that it ignores those imports.
    # shellcheck disable=SC2086
    swiftc -swift-version 6 -enable-upcoming-feature ExistentialAny -parse-as-library -sanitize=fuzzer,address -O -g \
        -package-name rawcodable -module-name RawCoding \
        $sources "$repo/Scripts/fuzz/main.swift" -o "$binary.new" 2>&1 \
        | grep -vE "ignoring import|Cannot export local symbol|^ *[0-9]* \| |^ *\| |^$" || true
    [ -x "$binary.new" ] || { echo "error: the fuzz binary did not build" >&2; exit 1; }
    mv "$binary.new" "$binary"  # a rename: fuzzers still running keep the binary they started with
}

# The dictionary and seed files for a target.
dictionary() {
    case "$1" in
        json | rawcodable | json-decode | json-streaming | json5) echo "$repo/Scripts/fuzz/json.dict" ;;
        xml) echo "$repo/Scripts/fuzz/xml.dict" ;;
        binary) echo "$repo/Scripts/fuzz/binary.dict" ;;
        openstep) echo "$repo/Scripts/fuzz/openstep.dict" ;;
        codec-roundtrip | container-shapes) echo "" ;;
        *)
            cat "$repo/Scripts/fuzz/json.dict" "$repo/Scripts/fuzz/xml.dict" "$repo/Scripts/fuzz/binary.dict" \
                > "$work/mixed.dict"
            echo "$work/mixed.dict"
            ;;
    esac
}

seed() {
    local target=$1 corpus=$2 pattern
    case "$target" in
        json | rawcodable | json-decode | json-streaming | json5) pattern='*.json' ;;
        xml) pattern='*.xml.plist' ;;
        binary) pattern='*.binary.plist' ;;
        openstep) pattern='*.openstep' ;;
        codec-roundtrip | container-shapes) pattern='' ;;
        *) pattern='*' ;;
    esac
    if [ -n "$pattern" ]; then
        find "$repo/Fixtures" -type f -name "$pattern" -size -64k ! -path '*/FuzzRegressions/*' \
            -exec cp {} "$corpus/" \; 2>/dev/null || true
    fi
    # JSON5 seeds from swift-foundation's resources beside the clone, when there (never copied
    # into the project: the corpus lives under .build).
    if [ "$target" = json5 ] && [ -d "$repo/../shared/peer-suites/swift-foundation-test-resources/JSON5" ]; then
        find "$repo/../shared/peer-suites/swift-foundation-test-resources/JSON5" -type f -name '*.json5' \
            -exec cp {} "$corpus/" \; 2>/dev/null || true
    fi
    if [ "$target" = openstep ]; then
        find "$repo/Fixtures" -type f -name '*.strings' -size -64k -exec cp {} "$corpus/" \; 2>/dev/null || true
    fi
    if [ -d "$repo/Fixtures/FuzzRegressions/$target" ]; then
        cp "$repo/Fixtures/FuzzRegressions/$target"/* "$corpus/" 2>/dev/null || true
    fi
}

run_target() {
    local target=$1
    local corpus="$work/corpus/$target" findings="$work/findings/$target" log="$work/logs/$target.log"
    mkdir -p "$corpus" "$findings" "$work/logs"
    seed "$target" "$corpus"
    local dict
    dict=$(dictionary "$target")
    local status=0
    RAWCODING_FUZZ_TARGET=$target "$binary" "$corpus" -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 \
        -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$findings/" ${dict:+-dict="$dict"} \
        > "$log" 2>&1 || status=$?
    local found
    found=$(find "$findings" -type f ! -name 'minimized-*' | head -1)
    if [ $status -ne 0 ] && [ -n "$found" ]; then
        minimize "$target" "$found" >> "$log" 2>&1 || true
    fi
    echo "$status"
}

minimize() {
    local target=$1 file=$2
    RAWCODING_FUZZ_TARGET=$target "$binary" -minimize_crash=1 -runs=20000 -timeout=2 -rss_limit_mb=2048 \
        -exact_artifact_path="$(dirname "$file")/minimized-$(basename "$file")" "$file"
}

summary() {
    local target=$1 log="$work/logs/$1.log"
    local executions coverage corpus result
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    coverage=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
    corpus=$(find "$work/corpus/$target" -type f | wc -l)
    result=clean
    if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|property failed|SUMMARY: ' "$log"; then
        result="FOUND: $(grep -oE 'ERROR: [A-Za-z]+: [a-z-]+|property failed|deadly signal|timeout|out-of-memory' "$log" | head -1)"
    fi
    printf '%-18s %12s %8s %8s  %s\n' "$target" "${executions:-?}" "${coverage:-?}" "$corpus" "$result"
}

case "${1:-}" in
    --list) printf '%s\n' "${targets[@]}"; exit 0 ;;
    --minimize)
        [ $# -eq 3 ] || usage
        build
        minimize "$2" "$3"
        exit 0
        ;;
esac

chosen=()
while [ $# -gt 0 ]; do
    case "$1" in
        -t) seconds=${2:?}; shift 2 ;;
        -j) jobs=${2:?}; shift 2 ;;
        -h | --help) usage ;;
        all) chosen+=("${targets[@]}"); shift ;;
        -*) usage ;;
        *)
            printf '%s\n' "${targets[@]}" | grep -qx "$1" || { echo "unknown target $1" >&2; usage; }
            chosen+=("$1")
            shift
            ;;
    esac
done
[ ${#chosen[@]} -gt 0 ] || chosen=("${targets[@]}")

build
echo "running ${chosen[*]} for $seconds s each, $jobs at a time; logs in $work/logs"
export -f run_target minimize seed dictionary
export work binary seconds repo
printf '%s\n' "${chosen[@]}" | xargs -P "$jobs" -I{} bash -c 'run_target {} > /dev/null'

printf '%-18s %12s %8s %8s  %s\n' target executions coverage corpus result
failed=0
for target in "${chosen[@]}"; do
    line=$(summary "$target")
    echo "$line"
    case "$line" in *FOUND*) failed=1 ;; esac
done
if [ $failed -ne 0 ]; then
    echo "findings (with minimized-* reproducers) are in $work/findings/"
fi
exit $failed
