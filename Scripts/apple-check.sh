#!/usr/bin/env bash
# Type-checks the package's Apple-facing targets against a real Apple SDK, from Linux or a Mac.
#
#   Scripts/apple-check.sh SDK_PATH
#   Scripts/apple-check.sh GIT_DIR     (a fetched copy of danpashin/sdks: the SDK is written from it)
#
# For each platform the SDK serves (an iPhoneOS SDK: arm64-apple-ios; a macOS SDK:
# arm64-apple-macosx) and at the deployment target Package.swift declares for it, it compiles
# (Swift 6 mode, whole module, through SIL, so that availability and the runtime-support checks
# run) every library target, the `rawcoding` tool and the example apps, in dependency order.
# It prints one line per error (file:line: error: …) and the warnings, ends with a summary line,
# and exits non-zero on any error.
#
# It never writes into the SDK or the repository: intermediate modules go to a temporary folder,
# and what is worth keeping between runs (module caches, and on Linux the standard library and
# the SDK's link farm) to APPLE_CHECK_CACHE (default: ~/.cache/rawcodable-apple-check).
#
# On Linux three things make an SDK usable (measured in ../shared/APPLE-CHECK.md of the team's
# notes, and repeated in the README's contributor section): a link farm of the SDK whose
# duplicated usr/include/libxml folder points at libxml2/libxml; a resource folder holding only
# the toolchain's clang, shims and host folders (the toolchain's Linux Dispatch module clashes
# with the SDK's) plus apinotes for `os`; and the toolchain's own standard library rebuilt for the
# Apple target from its interfaces (Scripts/apple-check-stdlib.py), since an SDK's standard
# library is as old as the SDK. On a Mac with Xcode none of that is needed: the SDK and the
# compiler come together.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: Scripts/apple-check.sh SDK_PATH   (an iPhoneOS or MacOSX .sdk folder," >&2
    echo "       or the git directory of a repository whose commit is one, e.g. danpashin/sdks)" >&2
    exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${APPLE_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rawcodable-apple-check}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
    echo "apple-check: $*" >&2
    exit 2
}

# A git directory (bare, or a clone's .git) whose commit holds an SDK at its root, as
# danpashin/sdks does: the SDK is written once into the cache from commit
# APPLE_CHECK_SDK_COMMIT (default HEAD). Such a copy can lack a few large blobs (SwiftUI's
# .swiftdoc among them, none needed), and `git archive` stops at the first missing one; so the
# commit's tree is read into an index of this run's own, the paths whose blob is absent are
# removed from it, and the tree written from that index is archived. The repository is only read:
# new objects go to a folder of this run's, with the repository's objects as alternates.
sdk_from_git() {
    local git_dir=$1 commit tree target objects
    commit=$(git --git-dir "$git_dir" rev-parse --verify "${APPLE_CHECK_SDK_COMMIT:-HEAD}^{commit}") \
        || fail "$git_dir: no commit ${APPLE_CHECK_SDK_COMMIT:-HEAD}"
    target=$cache/sdk-$commit
    if [ ! -f "$target.done" ]; then
        echo "apple-check: writing the SDK of $git_dir at $commit to $target (once)" >&2
        objects=$(cd "$git_dir" && pwd)/objects
        mkdir -p "$work/git-objects"
        rm -rf "$target"
        mkdir -p "$target"
        (
            export GIT_INDEX_FILE="$work/git-index" GIT_OBJECT_DIRECTORY="$work/git-objects"
            export GIT_ALTERNATE_OBJECT_DIRECTORIES="$objects"
            git --git-dir "$git_dir" read-tree "$commit"
            git --git-dir "$git_dir" ls-files -s | awk '{ print $2 }' \
                | git --git-dir "$git_dir" cat-file --batch-check='%(objectname) %(objecttype)' \
                | awk '$2 == "missing" { print $1 }' | sort -u > "$work/missing-blobs"
            if [ -s "$work/missing-blobs" ]; then
                git --git-dir "$git_dir" ls-files -s | awk 'NR == FNR { gone[$1]; next } $2 in gone' \
                    "$work/missing-blobs" - | cut -f2- | tr '\n' '\0' \
                    | xargs -0 git --git-dir "$git_dir" update-index --force-remove --
                echo "apple-check: left out $(wc -l < "$work/missing-blobs") files whose content the copy lacks" >&2
            fi
            tree=$(git --git-dir "$git_dir" write-tree)
            git --git-dir "$git_dir" archive "$tree" | tar -x -C "$target"
        ) || fail "could not write the SDK of $git_dir at $commit"
        touch "$target.done"
    fi
    echo "$target"
}

if [ -f "$1/HEAD" ] && [ -d "$1/objects" ]; then
    sdk_given=$(sdk_from_git "$1")
elif [ -d "$1/.git" ] && [ ! -f "$1/SDKSettings.json" ]; then
    sdk_given=$(sdk_from_git "$1/.git")
else
    sdk_given=$(cd "$1" && pwd)
fi

[ -f "$sdk_given/SDKSettings.json" ] || fail "$sdk_given has no SDKSettings.json: not an Apple SDK"
read -r sdk_name sdk_version < <(python3 -c '
import json, sys
settings = json.load(open(sys.argv[1]))
print(settings["CanonicalName"], settings["Version"])' "$sdk_given/SDKSettings.json")

swiftc=$(command -v swiftc) || fail "no swiftc on PATH"
compiler_version=$("$swiftc" --version 2>&1 | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)

# The deployment targets Package.swift declares, e.g. `.iOS(.v14)` → 14.0.
declared() {
    local version
    version=$(sed -n "s/.*\.$1(\.v\([0-9_]*\)).*/\1/p" "$repo/Package.swift" | head -1 | tr _ .)
    [ -n "$version" ] || fail "Package.swift declares no .$1 platform"
    case $version in *.*) echo "$version" ;; *) echo "$version.0" ;; esac
}
case $sdk_name in
    iphoneos*) platforms=("ios:$(declared iOS)") ;;
    macosx*) platforms=("macosx:$(declared macOS)") ;;
    *) fail "$sdk_name: only iPhoneOS and macOS SDKs can be checked (watchOS, tvOS and visionOS need their own)" ;;
esac

sdk=$sdk_given
extra_flags=()
stdlib_note="the SDK's own standard library"
if [ "$(uname)" != Darwin ]; then
    toolchain_lib=$(dirname "$(dirname "$swiftc")")/lib/swift
    [ -d "$toolchain_lib/linux" ] || fail "$toolchain_lib/linux not found: is $swiftc a Linux toolchain?"
    key="swift-$compiler_version-$sdk_name"
    mkdir -p "$cache/$key"
    prepared=$cache/$key

    # The SDK as links, with usr/include/libxml (a copy of libxml2/libxml that redefines its
    # module) replaced by a link to it.
    if [ ! -f "$prepared/sdk.done" ]; then
        rm -rf "$prepared/sdk"
        cp -as "$sdk_given" "$prepared/sdk"
        if [ -d "$prepared/sdk/usr/include/libxml2/libxml" ] && [ -d "$prepared/sdk/usr/include/libxml" ]; then
            rm -rf "$prepared/sdk/usr/include/libxml"
            ln -s libxml2/libxml "$prepared/sdk/usr/include/libxml"
        fi
        touch "$prepared/sdk.done"
    fi
    sdk=$prepared/sdk

    # A resource folder without the toolchain's Linux modules.
    resources=$prepared/resources
    mkdir -p "$resources/apinotes"
    for entry in clang shims host; do ln -sfn "$toolchain_lib/$entry" "$resources/$entry"; done
    # The Swift names of the os module's C API, which Apple's toolchains ship beside the compiler
    # (swiftlang/swift's apinotes/os.apinotes) and an SDK does not: without them the SDK's os
    # overlay, and so SwiftUI, does not build.
    {
        printf '%s\n' --- "Name: os" Classes: "- Name: OS_os_log" "  SwiftName: OSLog" Typedefs:
        printf '%s\n' "- Name: os_log_type_t" "  SwiftName: OSLogType" "- Name: os_signpost_type_t" \
            "  SwiftName: OSSignpostType"
        for name in os_log_t os_trace_payload_t; do printf -- '- Name: %s\n  Availability: nonswift\n' "$name"; done
        echo Enumerators:
        for name in OS_LOG_TYPE_DEFAULT OS_LOG_TYPE_INFO OS_LOG_TYPE_DEBUG OS_LOG_TYPE_ERROR OS_LOG_TYPE_FAULT \
            OS_SIGNPOST_INTERVAL_BEGIN OS_SIGNPOST_INTERVAL_END OS_SIGNPOST_EVENT; do
            printf -- '- Name: %s\n  SwiftPrivate: true\n' "$name"
        done
        echo Functions:
        # The SDK's os overlay calls these two by their private names (__name).
        for name in _os_log_impl _os_signpost_emit_with_name_impl; do
            printf -- '- Name: %s\n  SwiftPrivate: true\n' "$name"
        done
        for name in _os_log_error_impl _os_log_fault_impl _os_log_sensitive_deprecated _os_trace_with_buffer \
            os_log_is_enabled _os_log_create os_log_is_debug_enabled; do
            printf -- '- Name: %s\n  Availability: nonswift\n' "$name"
        done
        printf '%s\n' "- Name: os_log_type_enabled" "  SwiftName: 'OSLog.isEnabled(self:type:)'" \
            "- Name: os_log_create" "  SwiftName: 'OSLog.init(__subsystem:category:)'" "  SwiftPrivate: true" \
            "  NullabilityOfRet: N"
        for name in os_signpost_enabled os_signpost_id_generate os_signpost_id_make_with_pointer; do
            printf -- '- Name: %s\n  SwiftPrivate: true\n' "$name"
            [ "$name" = os_signpost_enabled ] || echo "  NullabilityOfRet: O"
        done
    } > "$resources/apinotes/os.apinotes"

    # The toolchain's own standard library, for the Apple target (once per toolchain and SDK).
    stdlib=$prepared/stdlib
    stdlib_target=arm64-apple-ios$sdk_version
    case $sdk_name in macosx*) stdlib_target=arm64-apple-macosx$sdk_version ;; esac
    if [ ! -f "$stdlib/done" ]; then
        echo "apple-check: building the Swift $compiler_version standard library for $stdlib_target (once; a few minutes)"
        mkdir -p "$stdlib/interfaces" "$stdlib/lib"
        modules=$(python3 "$repo/Scripts/apple-check-stdlib.py" "$toolchain_lib/linux" "$sdk" "$stdlib_target" \
            "$stdlib/interfaces")
        module_file=$(printf '%s' "$stdlib_target" | sed 's/[0-9.]*$//').swiftmodule
        for module in $modules; do
            # A module already built from the same interface is kept (an interrupted first run
            # resumes where it stopped).
            built=$stdlib/lib/$module.swiftmodule/$module_file
            if [ -f "$built" ] && cmp -s "$stdlib/interfaces/$module.swiftinterface" "$built.from"; then continue; fi
            stdlib_flags=()
            [ "$module" = Swift ] && stdlib_flags=(-parse-stdlib)
            mkdir -p "$stdlib/lib/$module.swiftmodule"
            if ! "$(dirname "$swiftc")/swift-frontend" -compile-module-from-interface \
                "$stdlib/interfaces/$module.swiftinterface" -module-name "$module" "${stdlib_flags[@]}" \
                -target "$stdlib_target" -sdk "$sdk" -resource-dir "$resources" -I "$stdlib/lib" \
                -module-cache-path "$prepared/module-cache" -o "$built" > "$work/stdlib.log" 2>&1; then
                grep -m 20 "error:" "$work/stdlib.log" >&2 || tail -20 "$work/stdlib.log" >&2
                fail "the standard library module $module did not build for $stdlib_target"
            fi
            cp "$stdlib/interfaces/$module.swiftinterface" "$built.from"
        done
        touch "$stdlib/done"
    fi
    # XCTest is part of Xcode, not of an SDK: a stub declaring what RawCodingTesting calls.
    mkdir -p "$work/xctest"
    cat > "$work/xctest/XCTest.swift" << 'EOF'
public func XCTFail(_ message: String = "", file: StaticString = #filePath, line: UInt = #line) {}
EOF
    extra_flags=(-resource-dir "$resources" -I "$stdlib/lib" -I "$work/modules")
    stdlib_note="the Swift $compiler_version standard library"
    module_cache=$prepared/module-cache
else
    platform_frameworks="$(xcrun --sdk "$sdk_given" --show-sdk-platform-path)/Developer/Library/Frameworks"
    extra_flags=(-F "$platform_frameworks" -I "$work/modules")
    module_cache=$cache/module-cache
fi

# Every target but the tests (a Mac's `swift build` compiles them all), in dependency order:
# "name kind path dependency…" per line, from the package's own description.
swift package --package-path "$repo" dump-package > "$work/package.json" 2> "$work/dump.log" \
    || { cat "$work/dump.log" >&2; fail "swift package dump-package failed"; }
# A dependency whose condition leaves out the SDK's platform is left out; a target that needs a
# system library no Apple SDK has is listed as "unavailable", with the library, and not checked.
apple_platform=ios
case $sdk_name in macosx*) apple_platform=macos ;; esac
python3 - "$work/package.json" "$apple_platform" > "$work/targets" << 'EOF'
import json, sys
platform = sys.argv[2]
targets = {t["name"]: t for t in json.load(open(sys.argv[1]))["targets"] if t["type"] in ("regular", "executable")}
absent = {"CLibPQ": "libpq, which no Apple SDK has (Homebrew's libpq on a Mac)"}
def applicable(target):
    names = [entry for value in target.get("dependencies", []) for entry in value.values()]
    return [n[0] for n in names if len(n) < 2 or not n[1] or platform in n[1].get("platformNames", [platform])]
def dependencies(target):
    return [name for name in applicable(target) if name in targets]
def missing(name):
    for dependency in applicable(targets[name]):
        if dependency in absent:
            return absent[dependency]
        if dependency in targets and missing(dependency):
            return missing(dependency)
    return None
done = []
def visit(name):
    if name not in done:
        for dependency in dependencies(targets[name]):
            visit(dependency)
        done.append(name)
for name in targets:
    visit(name)
for name in done:
    if missing(name):
        print(name, "unavailable", missing(name))
        continue
    kind = "library" if targets[name]["type"] == "regular" else "executable"
    print(name, kind, targets[name].get("path") or "Sources/" + name, *dependencies(targets[name]))
EOF

errors=0
warnings=0
checked=()
for platform in "${platforms[@]}"; do
    os=${platform%%:*}
    version=${platform#*:}
    triple=arm64-apple-$os$version
    rm -rf "$work/modules"
    mkdir -p "$work/modules"
    if [ -d "$work/xctest" ]; then
        "$swiftc" -emit-module -emit-module-path "$work/modules/XCTest.swiftmodule" -module-name XCTest \
            -parse-as-library -target "$triple" -sdk "$sdk" "${extra_flags[@]}" -module-cache-path "$module_cache" \
            "$work/xctest/XCTest.swift" || fail "the XCTest stub did not build for $triple"
    fi
    failed=" "
    while read -r target kind path dependencies; do
        if [ "$kind" = unavailable ]; then
            echo "apple-check: $target not checked for $triple: it needs $path $dependencies"
            continue
        fi
        skip=""
        for dependency in $dependencies; do
            case $failed in *" $dependency "*) skip=$dependency ;; esac
        done
        if [ -n "$skip" ]; then
            echo "apple-check: $target not checked for $triple: it depends on $skip, which failed" >&2
            failed="$failed$target "
            continue
        fi
        sources=()
        while IFS= read -r -d '' file; do sources+=("$file"); done \
            < <(find "$repo/$path" -name '*.swift' -print0 | sort -z)
        mode=(-parse-as-library -emit-module -emit-module-path "$work/modules/$target.swiftmodule")
        # As SwiftPM: an executable's top-level code is in main.swift, or in its only file when
        # that file has no @main; otherwise the executable has an @main type.
        if [ "$kind" = executable ]; then
            mode=(-parse-as-library)
            if [ -f "$repo/$path/main.swift" ] \
                || { [ "${#sources[@]}" -eq 1 ] && ! grep -q '@main' "${sources[0]}"; }; then
                mode=()
            fi
        fi
        # Whole-module SIL: the checks that run after type-checking (typed-throws runtime
        # support among them) are ones a Linux build cannot make either. The SIL goes to this
        # run's own folder, never to a system path: a compiler that fails deletes its outputs,
        # and as root `-o /dev/null` would delete the device itself.
        if "$swiftc" -wmo -emit-sil -o "$work/$target.sil" "${mode[@]}" -module-name "$target" -package-name RawCodable \
            -swift-version 6 -enable-upcoming-feature ExistentialAny -DSWIFT_PACKAGE \
            -target "$triple" -sdk "$sdk" "${extra_flags[@]}" -module-cache-path "$module_cache" \
            "${sources[@]}" > "$work/$target.log" 2>&1; then
            status=0
        else
            status=1
        fi
        # One line per diagnostic (the first time it is given), paths relative to the repository.
        found=$(grep -E '^/.*:[0-9]+:[0-9]+: (error|warning):' "$work/$target.log" | sed "s|^$repo/||" \
            | awk '!seen[$0]++' || true)
        target_errors=$(printf '%s\n' "$found" | grep -c ': error:' || true)
        target_warnings=$(printf '%s\n' "$found" | grep -c ': warning:' || true)
        if [ -n "$found" ]; then printf '%s\n' "$found"; fi
        if [ "$status" -ne 0 ] && [ "$target_errors" -eq 0 ]; then
            # Failed without a located error (a missing module, a crash): show what it said.
            grep -E 'error|fatal' "$work/$target.log" | head -20 >&2 || tail -20 "$work/$target.log" >&2
            target_errors=1
        fi
        rm -f "$work/$target.sil"
        errors=$((errors + target_errors))
        warnings=$((warnings + target_warnings))
        if [ "$status" -ne 0 ]; then failed="$failed$target "; fi
    done < "$work/targets"
    checked+=("$triple")
done

names=$(awk '$2 != "unavailable" { print $1 }' "$work/targets" | paste -sd, - | sed 's/,/, /g')
echo "apple-check: $names checked for ${checked[*]} against the $sdk_name SDK ($sdk_version)" \
    "with $stdlib_note: $errors errors, $warnings warnings"
[ "$errors" -eq 0 ]
