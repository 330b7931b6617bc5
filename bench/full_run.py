"""The whole 1000-step run of microgpt.py, compared with every published figure (SPEC section 1).

    .venv/bin/python bench/full_run.py [--dataset ../shared/data/names.txt] [--script microgpt]

Takes about 5 minutes on a 2-core machine; not part of CI (the tests pin the first 20 steps).
Exits 1 if any figure differs.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tqdm import tqdm

from linebyline.course import default_course_path
from linebyline.mine.scripts import find_script, parse_step, run_script

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED_LOSSES = {1: "3.3660", 2: "3.4243", 3: "3.1778", 4: "3.0664", 5: "3.2209",
                    10: "3.2229", 100: "3.3669", 500: "2.0645", 1000: "2.6497"}
PUBLISHED_SAMPLES = ["kamon", "ann", "karai", "jaire", "vialan", "karia"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=ROOT.parent / "shared/data/names.txt")
    parser.add_argument("--script", default="microgpt", help="microgpt or train5")
    args = parser.parse_args()

    script = find_script(default_course_path(), args.script)
    losses: dict[int, str] = {}
    header, samples = [], []
    started = time.perf_counter()
    with tqdm(total=1000, unit="step", file=sys.stderr) as bar:
        for line in run_script(script, args.dataset):
            step = parse_step(line)
            if step:
                losses[step.number] = step.loss
                bar.update(1)
                bar.set_postfix(loss=step.loss)
            elif line.startswith("sample "):
                samples.append(line.split(": ", 1)[1])
            elif line != "--- samples ---":
                header.append(line)
    seconds = time.perf_counter() - started

    print("\n".join(header))
    print(f"\n{'step':>5}  {'loss':>7}  {'published':>9}")
    ok = True
    for step, want in PUBLISHED_LOSSES.items():
        got = losses.get(step, "-")
        ok &= got == want
        print(f"{step:>5}  {got:>7}  {want:>9}  {'ok' if got == want else 'DIFFERENT'}")
    print("\nsamples:", ", ".join(samples))
    same = samples[:len(PUBLISHED_SAMPLES)] == PUBLISHED_SAMPLES
    ok &= same
    print(f"first six vs published ({', '.join(PUBLISHED_SAMPLES)}): {'ok' if same else 'DIFFERENT'}")
    print(f"\n{script.name}: 1000 steps in {seconds:.0f} s ({seconds / 1000:.3f} s per step)")
    print("all published figures reproduced" if ok else "SOME FIGURES DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
