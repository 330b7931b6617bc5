"""runs/microgpt.json, microgpt.py's own 1,000-step run that module 11's lessons sample from, is
what microgpt.py gives: made from today's program and names, its first steps' losses the same to
the last digit when microgpt.py runs again (the whole run takes many minutes: three steps
here), and the very file compute/microgpt_run.py names."""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sys
from pathlib import Path

from linebyline.course import default_course_path
from linebyline.course.dataset import BUNDLED_NAMES
from linebyline.mine.training import Run

COURSE = default_course_path()
RUN_PATH = COURSE / "runs" / "microgpt.json"
KEPT = json.loads(RUN_PATH.read_text(encoding="utf-8"))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_run_is_of_todays_program_and_names_and_whole():
    assert KEPT["script_sha256"] == digest(COURSE / "microgpt.py")
    assert KEPT["names_sha256"] == digest(BUNDLED_NAMES)
    assert KEPT["steps"] == len(KEPT["losses"]) == 1000
    assert len(KEPT["weights"]) == 4192 and len(KEPT["samples"]) == 20


def test_the_computations_load_exactly_this_file():
    sys.path.insert(0, str(COURSE / "compute"))
    try:
        import microgpt_run
    finally:
        sys.path.pop(0)
    assert microgpt_run.RUN_SHA256 == digest(RUN_PATH)


def test_microgpt_py_run_again_gives_the_same_first_losses(tmp_path: Path):
    losses: list[float | None] = []

    def on_step(step: int, total: int, loss: float | None, mark: str) -> str:
        losses.append(loss)
        return "stop" if len(losses) == 3 else ""

    (tmp_path / "input.txt").write_bytes(BUNDLED_NAMES.read_bytes())
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            Run((COURSE / "microgpt.py").read_text(encoding="utf-8"), "microgpt.py", on_step).run()
    finally:
        os.chdir(here)
    assert losses == KEPT["losses"][:3]
