"""The progress merge's laws, and the browser merge's agreement with Python's, on many examples.

    .venv/bin/python bench/merge_laws.py [--examples 10000] [-k commutative]

Runs tests/test_progress_merge.py and tests/test_merge_agrees.py under pytest with
LINEBYLINE_MERGE_EXAMPLES set (CI runs 300 per test), and prints, per test, how many examples
Hypothesis ran and passed (from its statistics), beside the time taken. Not part of CI.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/test_progress_merge.py", "tests/test_merge_agrees.py"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000, help="examples per test (10000)")
    parser.add_argument("-k", dest="select", default="", help="only tests matching (pytest -k)")
    args = parser.parse_args()
    env = {**os.environ, "LINEBYLINE_MERGE_EXAMPLES": str(args.examples)}
    command = [sys.executable, "-m", "pytest", *TESTS, "-q", "-p", "no:cacheprovider",
               "--hypothesis-show-statistics", "-o", "addopts="]
    if args.select:
        command += ["-k", args.select]
    started = time.monotonic()
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    # Hypothesis statistics: a test's name line, "- during generate phase (…):", "- N passing, …".
    total, current, phase = 0, None, None
    print(f"{'test':<62} {'passing examples':>16}")
    for line in run.stdout.splitlines():
        named = re.match(r"(tests/\S+::\S+):", line.strip())
        if named:
            current = named.group(1).split("::")[-1]
            continue
        during = re.search(r"during (\w+) phase", line)
        if during:
            phase = during.group(1)
        counted = re.search(r"- (\d+) passing", line)
        if counted and current:
            total += int(counted.group(1))
            print(f"{current + ' (' + str(phase) + ')':<62} {int(counted.group(1)):>16,}")
    print(f"\n{total:,} passing examples in {seconds:.0f} s; pytest: "
          f"{run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr[-500:]}")
    if run.returncode:
        print(run.stdout[-4000:], run.stderr[-2000:], sep="\n")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
