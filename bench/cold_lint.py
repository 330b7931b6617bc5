"""A cold `linebyline lint --strict --require-full-coverage` now, against the same at an earlier
revision, on this machine, taking turns so that both see the same load.

    .venv/bin/python bench/cold_lint.py [--before 00cbc7a] [--runs 3]

"Cold": each run gets an empty cache folder (LINEBYLINE_CACHE_DIR), so every proof and figure not
shipped with the course is worked out again. The earlier revision is checked out with `git
worktree` beside this clone (not under /tmp: an old sandbox could not run from there) and run
with this clone's virtualenv. 00cbc7a is the code as it was when issue 33 asked for a cold lint
in at most a third of its time. Prints each run and the ratio of the means.
Not part of CI: it prints a table and never fails on a time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cold_lint(root: Path) -> float:
    with tempfile.TemporaryDirectory(prefix="linebyline-cold-") as cache:
        env = {**os.environ, "LINEBYLINE_CACHE_DIR": cache, "PYTHONPATH": str(root / "src")}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "linebyline", "lint", "--strict",
                               "--require-full-coverage"], cwd=root, env=env, capture_output=True,
                              text=True)
        took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"lint failed in {root}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="00cbc7a", help="the earlier revision (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    earlier = ROOT.parent / f"{ROOT.name}-lint-{args.before}"
    if not earlier.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(earlier), args.before], cwd=ROOT,
                       check=True, capture_output=True)
    try:
        times: dict[str, list[float]] = {args.before: [], "now": []}
        for run in range(args.runs):
            for label, root in ((args.before, earlier), ("now", ROOT)):
                times[label].append(cold_lint(root))
                print(f"run {run + 1}: {label:>10} {times[label][-1]:7.1f} s", flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(earlier)], cwd=ROOT,
                       capture_output=True)
    before, now = statistics.mean(times[args.before]), statistics.mean(times["now"])
    print(f"mean: {args.before} {before:.1f} s, now {now:.1f} s; now / {args.before} = {now / before:.2f}")


if __name__ == "__main__":
    main()
