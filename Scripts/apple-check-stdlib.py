#!/usr/bin/env python3
"""Writes Darwin copies of the Swift toolchain's own standard-library interfaces.

Used by Scripts/apple-check.sh on Linux. An Apple SDK carries the standard library of the
Swift that shipped with it (Swift 5.10 for iPhoneOS 17.4), which has no `Int128`, no
`SendableMetatype` and no typed `Result.get`. The toolchain running the check ships its own
standard library as text (`usr/lib/swift/linux/<M>.swiftmodule/*.swiftinterface`); this
script copies those interfaces and edits them mechanically so that they compile for an Apple
target against the SDK. Availability then comes from the toolchain's standard library.

    apple-check-stdlib.py TOOLCHAIN_LIB SDK TARGET OUTPUT_DIR

writes OUTPUT_DIR/<M>.swiftinterface for each module in MODULES (in build order). Every edit
is one a compiler error asked for; an edit whose anchor is missing is an error, so a toolchain
whose interfaces changed fails loudly instead of being checked wrongly.
"""

import pathlib
import re
import sys

# In build order: each imports only modules before it (and the SDK's clang modules).
MODULES = [
    "Swift",
    "SwiftOnoneSupport",
    "_Concurrency",
    "_RegexParser",
    "_StringProcessing",
    "Observation",
    "Synchronization",
    "Testing",
]

# Darwin-only declarations the SDK's overlays (Foundation, Darwin) call into.
DARWIN_HELPERS = [
    "public func _getErrorEmbeddedNSError<T>(_ x: T) -> Swift.AnyObject? where T : Swift.Error",
    "public func _bridgeErrorToNSError(_ error: __owned any Swift.Error) -> Swift.AnyObject",
    "extension Swift.Error {",
    "public func _stdlib_initializeReturnAutoreleased()",
    "@inlinable public func getVaList(_ args: [any Swift.CVarArg]) -> Swift.CVaListPointer {",
    "public func _getDescription<T>(_ x: T) -> Swift.AnyObject",
    "@_transparent public func _autorelease(_ x: Swift.AnyObject) {",
]


class EditFailed(Exception):
    pass


def replace_once(text, old, new, what):
    if old not in text:
        raise EditFailed(f"{what}: anchor not found: {old[:80]!r}")
    return text.replace(old, new, 1)


def declaration_at(lines, start):
    """The declaration starting at `start` with its attributes and, for a body, up to its
    closing brace (brace counting; interface bodies hold no braces in strings that matter)."""
    first = start
    while first > 0 and lines[first - 1].lstrip().startswith("@"):
        first -= 1
    depth = 0
    end = start
    for index in range(start, len(lines)):
        depth += lines[index].count("{") - lines[index].count("}")
        end = index
        if depth <= 0:
            break
    return lines[first : end + 1]


def darwin_helpers(sdk_swift):
    lines = sdk_swift.splitlines()
    taken = []
    for signature in DARWIN_HELPERS:
        matches = [i for i, line in enumerate(lines) if line.startswith(signature)]
        if signature == "extension Swift.Error {":
            matches = [i for i in matches if "_getEmbeddedNSError" in lines[i + 1]]
        if not matches:
            raise EditFailed(f"Swift: the SDK declares no {signature!r}")
        taken.extend(declaration_at(lines, matches[0]))
    return "\n".join(taken) + "\n"


def flags_line(text, module, target):
    def edit(match):
        flags = match.group(0)
        flags = re.sub(r"-target \S+", f"-target {target}", flags)
        flags = flags.replace("-disable-objc-interop", "-enable-objc-interop")
        if module != "Swift":
            # Printed on Linux, where availability was never checked.
            flags += " -disable-availability-checking"
        return flags

    edited, count = re.subn(r"^// swift-module-flags:.*$", edit, text, count=1, flags=re.M)
    if count != 1:
        raise EditFailed(f"{module}: no swift-module-flags line")
    return edited


def edit_swift(text, sdk_swift):
    start_marker = "public protocol _ObjectiveCBridgeable {"
    end_marker = "@frozen internal struct _BridgeStorage"
    for source, name in ((text, "toolchain"), (sdk_swift, "SDK")):
        if start_marker not in source or end_marker not in source:
            raise EditFailed(f"Swift: the {name} interface has no bridging block")
    sdk_block = sdk_swift[sdk_swift.index(start_marker) : sdk_swift.index(end_marker)]
    text = text[: text.index(start_marker)] + sdk_block + text[text.index(end_marker) :]
    # Float80 exists on x86_64 only; its long-double helpers do not exist on arm64.
    text = replace_once(
        text, "self = _stdlib_remainderl(self, other)",
        "self = Swift.Float80(Swift.Double(self).remainder(dividingBy: Swift.Double(other)))", "Swift")
    text = replace_once(text, "self = _stdlib_squareRootl(self)", "self = Swift.Float80(Swift.Double(self).squareRoot())",
        "Swift")
    text = replace_once(
        text, "public typealias CLongDouble = Swift.Float80", "public typealias CLongDouble = Swift.Double", "Swift")
    return text + darwin_helpers(sdk_swift)


def edit_module(module, text, sdk_swift, target):
    text = flags_line(text, module, target)
    # Printed without their bodies, which @backDeployed needs.
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("@backDeployed(before:")) + "\n"
    text = re.sub(r"^(\s*(?:public |@_exported )*import) Glibc$", r"\1 Darwin", text, flags=re.M)
    if module == "Swift":
        text = edit_swift(text, sdk_swift)
    if module == "Synchronization":
        text = text.replace("_swift_stdlib_gettid()", "pthread_mach_thread_np(pthread_self())")
    return text


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: apple-check-stdlib.py TOOLCHAIN_LIB SDK TARGET OUTPUT_DIR")
    toolchain_lib, sdk, target, output = (pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3],
                                          pathlib.Path(sys.argv[4]))
    sdk_swift_dir = sdk / "usr/lib/swift/Swift.swiftmodule"
    candidates = sorted(sdk_swift_dir.glob("arm64-apple-*.swiftinterface"))
    if not candidates:
        sys.exit(f"error: {sdk_swift_dir} has no arm64 Swift interface")
    sdk_swift = candidates[0].read_text()
    output.mkdir(parents=True, exist_ok=True)
    try:
        for module in MODULES:
            source = toolchain_lib / f"{module}.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface"
            if not source.exists():
                raise EditFailed(f"{module}: the toolchain has no {source}")
            edited = edit_module(module, source.read_text(), sdk_swift, target)
            (output / f"{module}.swiftinterface").write_text(edited)
    except EditFailed as failure:
        sys.exit(f"error: {failure}")
    print(" ".join(MODULES))


if __name__ == "__main__":
    main()
