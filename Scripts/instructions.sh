#!/bin/bash
# Instructions per call of the small benchmark group, counted by callgrind: deterministic, so
# two commits can be compared on a noisy machine. Each side of each row is run 100 and 1,100
# times; the difference over 1,000 is one call, without the set-up.
#
# Usage: Scripts/instructions.sh [PATTERN]   (rows whose id contains PATTERN; all by default)
# Needs valgrind. Builds RawCodingBenchmarks in release first.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }
swift build -c release --product RawCodingBenchmarks >&2
binary="$(swift build -c release --show-bin-path)/RawCodingBenchmarks"
pattern="${1:-}"
export SWIFT_DETERMINISTIC_HASHING=1  # the same hash seeds, so the same instructions, on every run

# Instructions of one run of `instructions ROW SIDE COUNT`.
count() {
    local out
    out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" instructions "$1" "$2" "$3" 2>&1) || {
        echo "instructions.sh: $1 $2 failed: $out" >&2
        exit 1
    }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out"
}
per_call() {
    local many few
    many=$(count "$1" "$2" 1100) || exit 1
    few=$(count "$1" "$2" 100) || exit 1
    echo $(((many - few) / 1000))
}

printf '%-58s %9s %9s %7s  %s\n' "instructions per call" ours theirs ratio verdict
"$binary" instructions list | while IFS=$'\t' read -r id target title; do
    [[ -z "$pattern" || "$id" == *"$pattern"* ]] || continue
    ours=$(per_call "$id" ours) || exit 1
    if [[ "$id" == *-stored-read ]]; then
        verdict=$([[ $ours -le 2000 ]] && echo "meets ≤2000" || echo "ABOVE ≤2000")
        printf '%-58s %9d %9s %7s  %s\n' "$title" "$ours" - - "$verdict"
        continue
    fi
    theirs=$(per_call "$id" theirs) || exit 1
    ratio=$(python3 -c "print(f'{$theirs / max($ours, 1):.2f}')")
    verdict="(no target)"
    if [[ "$target" != "-" ]]; then
        verdict=$(python3 -c "t=$target; r=$theirs / max($ours, 1); print(('meets' if r >= t else 'BELOW') + f' ≥{t:.2f}×')")
    fi
    printf '%-58s %9d %9d %7s× %s\n' "$title" "$ours" "$theirs" "$ratio" "$verdict"
done
