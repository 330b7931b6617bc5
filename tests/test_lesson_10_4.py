"""What lessons 10.4 and 10.5 print when the learner presses Run: how far a weight of BOS's
embedding moved at each step. The figure must be the real move, with its sign: the update
subtracts lr × m_hat / (√v_hat + eps), so a weight with a positive gradient moves down, and the
Run must say so (it once printed +1.000 × lr while the weight fell).

Each demo runs as the learner's Run does (`__main__`, on the names); its `print` is watched, and
at every step line the weight's real value is read from the running file and held to what the
line says.
"""
from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

import pytest

from linebyline.course.dataset import names_file
from linebyline.runtime.library import CourseModules

from .conftest import the_course


@cache
def course():
    return the_course()


def run_demo(number: str, tmp_path: Path) -> list[tuple[str, dict]]:
    """Every line the demo prints, with the demo's names as they were when it printed it."""
    (tmp_path / "input.txt").write_bytes(names_file().read_bytes())
    seen: list[tuple[str, dict]] = []
    space: dict = {"__name__": "__main__"}

    def spy(*args, **kwargs):
        text = kwargs.get("sep", " ").join(str(arg) for arg in args)
        seen.append((text, {"moved_to": space["w"].data if "w" in space else None,
                            **{name: space.get(name) for name in ("before", "lr", "rate", "i")}}))

    space["print"] = spy
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        exercise = course().lesson(number).exercise
        with CourseModules(exercise.library):  # the finished parts the file imports (given)
            exec(compile(exercise.solution, "train5.py", "exec"), space)
    finally:
        os.chdir(here)
    return seen


def test_10_4s_run_prints_each_move_with_its_sign(tmp_path: Path):
    lines = [(text, state) for text, state in run_demo("10.4", tmp_path) if "moved" in text]
    assert len(lines) == 10
    pattern = re.compile(r"moved ([+-][0-9.]+) × lr \(uncorrected it would be ([+-][0-9.]+) × lr\)")
    for text, state in lines:
        moved, uncorrected = map(float, pattern.search(text).groups())
        real = (state["moved_to"] - state["before"]) / state["lr"]
        assert moved == pytest.approx(real, abs=6e-4), text
        assert (moved < 0) == (real < 0), text
        # Without the correction the move has the same direction (m and m_hat share a sign).
        assert (uncorrected < 0) == (real < 0), text
    first = lines[0][0]
    assert "moved -1.000 × lr (uncorrected it would be -1.500 × lr)" in first, first


def test_10_5s_run_prints_each_move_with_its_sign(tmp_path: Path):
    lines = [(text, state) for text, state in run_demo("10.5", tmp_path) if "moved" in text]
    assert len(lines) == 20
    for text, state in lines:
        moved = float(re.search(r"moved ([+-][0-9.]+)", text)[1])
        real = state["moved_to"] - state["before"]
        assert moved == pytest.approx(real, abs=6e-7), text
        assert (moved < 0) == (real < 0), text
