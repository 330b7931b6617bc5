"""Train microgpt.py for its full 1000 steps on the bundled names and keep the run.

    .venv/bin/python scripts/train_reference.py [--out courses/microgpt/runs/microgpt.json]
    .venv/bin/python scripts/train_reference.py --first [--out courses/microgpt/runs/first-steps.json]

--first keeps only its first steps as the blank-page recall compares them (linebyline.mine.blank:
the lines printed before training, each step's loss and a digest of the weights after it), in
seconds; tests/test_blank_page.py holds that file against microgpt.py.

The lessons of modules 11 and 12 sample from the trained model and draw its training curve; a
run takes minutes (about 6 on one core of a 2-core machine), far more than a lesson's
computations may, so it is made once here and kept in the course folder: every step's exact loss,
the 4,192 trained weights in params order, the 20 names the program prints, and the digests of
the script and the names it was trained on (lessons refuse a run that does not match them).
tests/test_reference_run.py holds the kept run against microgpt.py; after a new run, set
compute/microgpt_run.py's RUN_SHA256 to the printed digest.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from linebyline.course import default_course_path
from linebyline.course.dataset import BUNDLED_NAMES
from linebyline.mine.blank import FIRST, watch
from linebyline.mine.training import Run

ROOT = Path(__file__).resolve().parents[1]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def train(script: Path, names: Path) -> dict:
    """microgpt.py's whole run, in a folder of its own with the names as input.txt."""
    losses: list[float] = []

    def on_step(step: int, total: int, loss: float | None, mark: str) -> str:
        losses.append(loss)
        if step % 50 == 0:
            print(f"step {step} / {total}: loss {loss:.4f}", file=sys.stderr)
        return ""

    run = Run(script.read_text(encoding="utf-8"), script.name, on_step)
    printed = io.StringIO()
    started = time.perf_counter()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "input.txt").write_bytes(names.read_bytes())
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(printed):
                run.run()
        finally:
            os.chdir(here)
    seconds = time.perf_counter() - started
    samples = [line.split(": ", 1)[1] if ": " in line else ""
               for line in printed.getvalue().splitlines() if line.startswith("sample ")]
    return {"script": script.name, "script_sha256": digest(script),
            "names_sha256": digest(names), "steps": len(losses), "losses": losses,
            "weights": run.weights(), "samples": samples,
            "python": platform.python_version(), "seconds": round(seconds, 1)}


def first_steps(script: Path, names: Path) -> str:
    """The first steps the blank-page recall compares, as JSON."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "input.txt").write_bytes(names.read_bytes())
        os.chdir(folder)
        try:
            return watch(script.read_text(encoding="utf-8"), script.name, FIRST).to_json()
        finally:
            os.chdir(here)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--names", type=Path, default=BUNDLED_NAMES)
    parser.add_argument("--first", action="store_true",
                        help=f"keep only the first {FIRST} steps, for the blank-page recall")
    args = parser.parse_args()
    runs = default_course_path() / "runs"
    if args.first:
        out = args.out or runs / "first-steps.json"
        out.write_text(first_steps(default_course_path() / "microgpt.py", args.names) + "\n",
                       encoding="utf-8")
        print(f"{out}: the first {FIRST} steps")
        return 0
    args.out = args.out or runs / "microgpt.json"
    record = train(default_course_path() / "microgpt.py", args.names)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{args.out}: {record['steps']} steps in {record['seconds']} s; "
          f"samples {', '.join(record['samples'][:6])}; sha256 {digest(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
