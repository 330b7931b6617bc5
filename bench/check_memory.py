"""How much memory `linebyline check` takes on a learner file that writes a lot.

    .venv/bin/python bench/check_memory.py [--megabytes 1024] [--via fd|print]

The file is lesson 7.5's solution followed by a loop that writes MEGABYTES of output, either
straight to file descriptors 1 and 2 (`--via fd`, half to each: the CLI reads it from pipes) or
with print() (`--via print`: the check runtime keeps it in the child). The CLI runs in a child of
this script, which reports the CLI process's own peak resident memory (getrusage of that
process, taken as it ends), the peak of the checking child it started, the time, and what the
learner is shown. Not part of CI (tests/test_cli.py holds the CLI to the same bound).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from linebyline.course import default_course_path, load_course  # noqa: E402

# Runs the CLI in this very process, then says how large the process and its children got.
MEASURED = """
import json, resource, sys
from linebyline.cli.main import main
code = main(sys.argv[1:])
print(json.dumps({"code": code,
                  "cli_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "child_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}),
      file=sys.stderr)
"""


def flood(megabytes: int, via: str) -> str:
    if via == "fd":
        return ("import os\nchunk = b'y' * (1 << 20)\n"
                f"for i in range({megabytes}):\n    os.write(1 + i % 2, chunk)\n")
    return f"for _ in range({megabytes}):\n    print('x' * ((1 << 20) - 1))\n"


def measure(megabytes: int, via: str) -> dict:
    solution = load_course(default_course_path()).lesson("7.5").exercise.solution
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "backward.py"
        path.write_text(solution + "\n" + flood(megabytes, via))
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-c", MEASURED, "check", "7.5", str(path), "--json"],
                              capture_output=True, text=True, timeout=600)
        elapsed = time.monotonic() - started
    figures = json.loads(done.stderr.strip().splitlines()[-1])
    result = json.loads(done.stdout)
    return {**figures, "seconds": elapsed, "status": result["status"],
            "shown": len(result["stdout"]), "note": result["stdout"].strip().splitlines()[-1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--megabytes", type=int, default=1024)
    parser.add_argument("--via", choices=["fd", "print"], default="fd")
    args = parser.parse_args()
    got = measure(args.megabytes, args.via)
    print(f"learner file writes {args.megabytes} MB via {args.via}")
    print(f"  CLI peak resident memory:      {got['cli_kb'] / 1024:7.1f} MB")
    print(f"  checking child's peak:         {got['child_kb'] / 1024:7.1f} MB")
    print(f"  time:                          {got['seconds']:7.1f} s")
    print(f"  verdict: {got['status']}; characters shown: {got['shown']:,}; {got['note']}")


if __name__ == "__main__":
    main()
