"""How long one `linebyline check` of lesson 7.5's solution takes from a terminal, against
`python -c pass` with the same interpreter, measured in the same run.

    .venv/bin/python bench/cli_check.py [--runs 20] [--python PYTHON]

Each round runs the check once and `python -c pass` once, one after the other, so that what else
the machine is doing weighs on both alike; the figures are the medians of the rounds, and their
ratio. The check is what a learner's editor runs on save: `PYTHON -m linebyline check 7.5
backward.py`, with the containment LINEBYLINE_SANDBOX picks (auto: bubblewrap when installed).
The CPU time the check's processes used (all of them, from getrusage) is printed too: on a busy
machine it moves far less than the wall time. Two rounds come first, not counted: the first
check of a course version loads it and keeps it in the cache. `--python` measures another
checkout's interpreter (say, one whose venv runs an older commit) against its own `python -c
pass`. Not part of CI; the issue's targets, 250 ms and 20 times `python -c pass`, are printed
beside the figures, never enforced.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLUTION = ROOT / "courses/microgpt/lessons/7.5-backward/solution.py"
TARGET_MS, TARGET_RATIO = 250, 20
WARM_UP = 2


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(command: list[str], cwd: str) -> tuple[float, float]:
    """Seconds from start to end of `command`, which must succeed, and the CPU seconds it and
    every process it started used."""
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return took, _cpu() - cpu


def main() -> None:
    # The checks record progress as a learner's would: in the bench's own folders, never the
    # user's (nor their account, if they are signed in).
    scratch = tempfile.mkdtemp(prefix="linebyline-bench-home-")
    os.environ["LINEBYLINE_DATA_DIR"] = os.path.join(scratch, "data")
    os.environ["LINEBYLINE_CONFIG_DIR"] = os.path.join(scratch, "config")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="rounds measured (default 20)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter that runs linebyline (default: this one)")
    args = parser.parse_args()
    # Absolute, since the runs start in a temporary folder; not resolved, since a venv's python
    # is a link whose own path is what makes it the venv's.
    python = os.path.abspath(args.python)
    with tempfile.TemporaryDirectory(prefix="linebyline-bench-") as folder:
        learner_file = Path(folder) / "backward.py"
        learner_file.write_text(SOLUTION.read_text(encoding="utf-8"), encoding="utf-8")
        check = [python, "-m", "linebyline", "check", "7.5", str(learner_file)]
        bare = [python, "-c", "pass"]
        checks, passes, check_cpu, pass_cpu = [], [], [], []
        for round_number in range(WARM_UP + args.runs):
            (took_check, cpu_check), (took_pass, cpu_pass) = timed(check, folder), timed(bare, folder)
            if round_number >= WARM_UP:
                checks.append(took_check)
                passes.append(took_pass)
                check_cpu.append(cpu_check)
                pass_cpu.append(cpu_pass)
    check_ms = statistics.median(checks) * 1000
    pass_ms = statistics.median(passes) * 1000
    way = os.environ.get("LINEBYLINE_SANDBOX") or "auto"
    print(f"linebyline check 7.5 (its solution), median of {args.runs}: {check_ms:7.1f} ms"
          f"   (LINEBYLINE_SANDBOX={way}; target ≤ {TARGET_MS} ms)")
    print(f"python -c pass, median of {args.runs}:                     {pass_ms:7.1f} ms")
    print(f"ratio: {check_ms / pass_ms:.1f}×   (target ≤ {TARGET_RATIO}×)")
    print(f"check: fastest {min(checks) * 1000:.1f} ms, slowest {max(checks) * 1000:.1f} ms")
    cpu_check, cpu_pass = statistics.median(check_cpu) * 1000, statistics.median(pass_cpu) * 1000
    print(f"CPU time, medians: check {cpu_check:.1f} ms, python -c pass {cpu_pass:.1f} ms "
          f"({cpu_check / max(cpu_pass, 1e-9):.1f}×)")


if __name__ == "__main__":
    main()
