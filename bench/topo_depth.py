"""How deep the recursive topological sort of backward() goes in each course script.

For every script that has one, one training step runs in CPython on a document longer than the
block size (16), so the step uses every position: the deepest graph a step makes. Meanwhile a
profiler counts the nested calls of `visit`, the recursive walk lesson 7.5 writes; the deepest
nesting is what a learner's recursive sort needs from Python's recursion limit (plus the few
frames around it). The training worker's limit (frontend/src/train-worker.ts) rests on these.

    .venv/bin/python bench/topo_depth.py [--steps N]
"""
from __future__ import annotations

import argparse
import builtins
import contextlib
import io
import os
import sys
import tempfile
import threading
from pathlib import Path

from linebyline.course import default_course_path
from linebyline.mine.training import configure

SCRIPTS = ["train2.py", "train3.py", "train4.py", "train5.py", "microgpt.py"]


def deepest_visit(source: str, name: str, steps: int) -> tuple[int, int]:
    """(deepest nesting of visit() calls, deepest Python stack seen then) over `steps` steps."""
    depth = deepest = stack_at_deepest = 0

    def profile(frame, event, _arg):
        nonlocal depth, deepest, stack_at_deepest
        if frame.f_code.co_name != "visit":
            return
        if event == "call":
            depth += 1
            if depth > deepest:
                deepest = depth
                stack, f = 0, frame
                while f is not None:
                    stack, f = stack + 1, f.f_back
                stack_at_deepest = stack
        elif event == "return":
            depth -= 1

    code = compile(configure(source, steps=steps), name, "exec")
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    sys.setrecursionlimit(100_000)
    threading.stack_size(512 * 1024 * 1024)  # CPython itself must not overflow while we measure
    result: list[BaseException] = []

    def run() -> None:
        sys.setprofile(profile)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)
        except BaseException as error:  # noqa: BLE001 -- reported below
            result.append(error)
        finally:
            sys.setprofile(None)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if result:
        raise result[0]
    return deepest, stack_at_deepest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1, help="training steps per script (1)")
    args = parser.parse_args()
    scripts = default_course_path()
    with tempfile.TemporaryDirectory() as folder:
        # one long document: every step fills the whole block, the worst case for depth
        (Path(folder) / "input.txt").write_text("abcdefghijklmnopqrstuvwxyz\n")
        os.chdir(folder)
        print(f"{'script':<12} {'visit depth':>11} {'stack frames':>12}")
        for name in SCRIPTS:
            source = (scripts / name).read_text(encoding="utf-8")
            if "def visit" not in source:
                print(f"{name:<12} {'(no visit)':>11}")
                continue
            depth, stack = deepest_visit(source, name, args.steps)
            print(f"{name:<12} {depth:>11} {stack:>12}", flush=True)


if __name__ == "__main__":
    main()
