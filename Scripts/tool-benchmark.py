#!/usr/bin/env python3
"""The rawcoding tool against Python on a 50 MB JSON document and a number-heavy one, in one run.

    Scripts/tool-benchmark.py [--rawcoding PATH] [--twitter PATH] [--megabytes N] [--runs N]

The documents: twitter.json repeated until it reaches about N MB (50 by default), with nulls
written as empty strings (a property list has no null); and 220,000 numbers written with 17
significant digits (110,000 pairs, about 4.5 MB), made from a fixed seed. twitter.json is
--twitter, else swift-foundation's benchmark input beside the checkout. Prints, for each
document, the median of --runs (3) runs of each (the command's own wall time, from its start
to its exit; Python's includes starting the interpreter), with the child's peak memory:
  lint                  against json.load
  convert --to xml      against json.load + plistlib.dump(FMT_XML)
  convert --to binary   against json.load + plistlib.dump(FMT_BINARY)
  convert --to json     against json.load + json.dump
and the ratios (Python's time / ours) with their targets (5x each; 10x for binary on the
twitter-shaped document), and the peak memory of `convert --to xml` on that document against
its target (2x the input + 64 MB).
It builds the tool first (swift build -c release --product rawcoding; nothing to do when the
build is current) unless --rawcoding names another binary.
"""
import argparse
import json
import os
import pathlib
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def nulls_to_strings(value):
    if value is None:
        return ""
    if isinstance(value, list):
        return [nulls_to_strings(item) for item in value]
    if isinstance(value, dict):
        return {key: nulls_to_strings(item) for key, item in value.items()}
    return value


def make_document(source, megabytes, path):
    with open(source, "rb") as handle:
        base = nulls_to_strings(json.load(handle))
    one = json.dumps(base, ensure_ascii=False)
    copies = max(1, (megabytes << 20) // len(one.encode()))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("[" + ",".join([one] * copies) + "]")
    return os.path.getsize(path)


def make_numbers(path):
    generator = random.Random(44)
    pairs = (
        "[%.17g,%.17g]" % (generator.uniform(-180, 180), generator.uniform(-90, 90)) for _ in range(110_000)
    )
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("[" + ",".join(pairs) + "]")
    return os.path.getsize(path)


def measure(command, runs):
    times, peaks = [], []
    for _ in range(runs):
        probe = [sys.executable, "-c", PEAK_HELPER] + command
        result = subprocess.run(probe, capture_output=True)
        if result.returncode != 0:
            sys.exit(f"{' '.join(command)} failed: {result.stderr.decode(errors='replace')}")
        elapsed, peak = result.stdout.decode().strip().splitlines()[-1].split()
        times.append(float(elapsed))
        peaks.append(int(peak))
    return statistics.median(times), max(peaks)


# Runs the command as its only child and prints the child's wall time in seconds (from just
# before it starts to its exit, so the helper's own interpreter start counts for neither side)
# and its peak resident memory in bytes.
PEAK_HELPER = """
import resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
elapsed = time.perf_counter() - start
if code: sys.exit(code)
print(elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""

PYTHON_LINT = "import json,sys; json.load(open(sys.argv[1],'rb'))"
PYTHON_JSON = "import json,sys; json.dump(json.load(open(sys.argv[1],'rb')), open(sys.argv[2],'w'))"
PYTHON_CONVERT = (
    "import json,plistlib,sys; value=json.load(open(sys.argv[1],'rb'));"
    " plistlib.dump(value, open(sys.argv[2],'wb'), fmt=getattr(plistlib, sys.argv[3]))"
)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rawcoding", default=str(ROOT / ".build/release/rawcoding"))
    parser.add_argument("--twitter")
    parser.add_argument("--megabytes", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    candidates = [options.twitter] if options.twitter else [
        ROOT.parent / "shared/peer-suites/swift-foundation-json-bench/twitter.json",
    ]
    source = next((str(path) for path in candidates if path and os.path.exists(path)), None)
    if source is None:
        sys.exit("no twitter.json: pass --twitter PATH")
    if options.rawcoding == str(ROOT / ".build/release/rawcoding"):
        build = subprocess.run(["swift", "build", "-c", "release", "--product", "rawcoding"], cwd=ROOT)
        if build.returncode != 0:
            sys.exit("swift build -c release --product rawcoding failed")
    if not os.path.exists(options.rawcoding):
        sys.exit(f"no {options.rawcoding}")
    with tempfile.TemporaryDirectory() as folder:
        twitter = os.path.join(folder, "twitter-shaped.json")
        numbers = os.path.join(folder, "numbers.json")
        documents = [
            (twitter, make_document(source, options.megabytes, twitter), f"{source} repeated, nulls as empty strings", 10),
            (numbers, make_numbers(numbers), "220,000 numbers of 17 significant digits", 5),
        ]
        out = os.path.join(folder, "out")
        for document, size, description, binary_target in documents:
            print(f"document: {size / 1e6:.1f} MB ({description})")
            run_rows(options, document, size, out, binary_target, checks_memory=document == twitter)


def run_rows(options, document, size, out, binary_target, checks_memory):
    rows = [
        ("lint", [options.rawcoding, "lint", document], [sys.executable, "-c", PYTHON_LINT, document], 5),
        (
            "convert --to xml",
            [options.rawcoding, "convert", document, "--to", "xml", "-o", out],
            [sys.executable, "-c", PYTHON_CONVERT, document, out, "FMT_XML"],
            5,
        ),
        (
            "convert --to binary",
            [options.rawcoding, "convert", document, "--to", "binary", "-o", out],
            [sys.executable, "-c", PYTHON_CONVERT, document, out, "FMT_BINARY"],
            binary_target,
        ),
        (
            "convert --to json",
            [options.rawcoding, "convert", document, "--to", "json", "-o", out],
            [sys.executable, "-c", PYTHON_JSON, document, out],
            5,
        ),
    ]
    for name, ours, theirs, target in rows:
        our_time, our_peak = measure(ours, options.runs)
        their_time, their_peak = measure(theirs, options.runs)
        ratio = their_time / our_time
        verdict = "meets" if ratio >= target else "BELOW"
        print(
            f"{name:<22} ours {our_time:6.2f} s {our_peak / 2**20:6.0f} MB   Python {their_time:6.2f} s "
            f"{their_peak / 2**20:6.0f} MB   {ratio:5.2f}x  {verdict} >={target}x"
        )
        if name == "convert --to xml" and checks_memory:
            limit = 2 * size + (64 << 20)
            verdict = "meets" if our_peak <= limit else "ABOVE"
            print(
                f"{'':<22} peak memory {our_peak / 2**20:.0f} MB against at most {limit / 2**20:.0f} MB"
                f" (2x the input + 64 MB): {verdict}"
            )

if __name__ == "__main__":
    main()
