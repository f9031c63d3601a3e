#!/usr/bin/env python3
"""Runs `rawcoding convert` (release build) over other projects' conformance files and reports,
per group, how many were accepted and rejected, crashes, and the slowest and largest runs.

Local only: the files live outside this repository (default: ../shared/peer-suites beside the
checkout); CI never runs this. It builds the tool first (swift build -c release --product
rawcoding), which does nothing when the build is current.

    Scripts/peer-suites.py [PEER_SUITES_DIRECTORY]
"""
import glob
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, '.build', 'release', 'rawcoding')
SUITES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, '..', 'shared', 'peer-suites')


def run(path):
    """Exit status, seconds and peak resident kilobytes of one conversion."""
    started = time.time()
    process = subprocess.run(['/usr/bin/time', '-f', '%M', TOOL, 'convert', path, '--to', 'json'],
                             capture_output=True, timeout=60)
    elapsed = time.time() - started
    lines = process.stderr.decode('utf-8', 'replace').strip().splitlines()
    peak = int(lines[-1]) if lines and lines[-1].isdigit() else -1
    return process.returncode, elapsed, peak


def files(pattern):
    return sorted(f for f in glob.glob(os.path.join(SUITES, pattern), recursive=True)
                  if os.path.isfile(f) and not f.endswith(('SOURCE.txt', 'INDEX.txt', 'COPYING.LESSER', 'LICENCE')))


def main():
    build = subprocess.run(['swift', 'build', '-c', 'release', '--product', 'rawcoding'], cwd=ROOT)
    if build.returncode != 0 or not os.access(TOOL, os.X_OK):
        sys.exit(f'{TOOL} could not be built: swift build -c release --product rawcoding failed')
    failed = False
    # JSONTestSuite: y_ must be accepted, n_ rejected, i_ may go either way; nothing may crash.
    counts = {'y': [0, 0], 'n': [0, 0], 'i': [0, 0]}
    wrong = []
    crashes = []
    for path in files('JSONTestSuite/test_parsing/*.json'):
        status, _, _ = run(path)
        category = os.path.basename(path)[0]
        counts[category][0 if status == 0 else 1] += 1
        if status not in (0, 1):
            crashes.append(path)
        if (category == 'y' and status != 0) or (category == 'n' and status == 0):
            wrong.append(os.path.basename(path))
    print(f"JSONTestSuite: y_ accepted {counts['y'][0]}/{sum(counts['y'])}, "
          f"n_ rejected {counts['n'][1]}/{sum(counts['n'])}, "
          f"i_ accepted {counts['i'][0]} rejected {counts['i'][1]}, crashes {len(crashes)}")
    if wrong or crashes:
        print('  wrong:', wrong, 'crashes:', crashes)
        failed = True
    groups = [
        ('cpython-plistlib invalid_binary', 'cpython-plistlib/invalid_binary/*.bplist'),
        ('cpython-plistlib XML entity', 'cpython-plistlib/invalid_xml_entity_decl.plist'),
        ('cpython-plistlib valid', 'cpython-plistlib/valid/*'),
        ('libplist fuzz crashes and leaks', 'libplist/fuzz/*/*'),
        ('libplist test data', 'libplist/test/data/*'),
        ('rust-plist expect_err', 'rust-plist/fuzzer_inline/*expect_err*'),
        ('rust-plist expect_ok', 'rust-plist/fuzzer_inline/*expect_ok*'),
        ('rust-plist data', 'rust-plist/data/*'),
        ('corelibs-foundation resources', 'corelibs-foundation-test-resources/**/*'),
        ('swift-foundation resources', 'swift-foundation-test-resources/**/*'),
    ]
    for name, pattern in groups:
        accepted, rejected, crashed, slowest, largest = [], 0, [], 0.0, 0
        for path in files(pattern):
            status, elapsed, peak = run(path)
            slowest, largest = max(slowest, elapsed), max(largest, peak)
            if status == 0:
                accepted.append(os.path.basename(path))
            elif status == 1:
                rejected += 1
            else:
                crashed.append(os.path.basename(path))
        print(f'{name}: accepted {len(accepted)}, rejected {rejected}, crashes {len(crashed)}, '
              f'slowest {slowest:.2f} s, largest {largest // 1024} MB')
        if any(word in name for word in ('invalid', 'entity', 'fuzz', 'expect_err')) and accepted:
            print('  accepted:', ', '.join(accepted))
        if crashed or slowest > 1 or largest > 100 * 1024:
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
