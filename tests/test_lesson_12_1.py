"""Lesson 12.1 says its short runs (Explore's 20 and 100 steps, the Build's Run) are the first
steps of microgpt.py's whole run: num_steps stays 1,000, so the learning rate decays as it does
over the whole run, and only the loop stops early. Here microgpt.py itself runs cut that way,
and its losses are held, digit for digit, to those the whole file printed (runs/microgpt.json,
its kept 1,000-step run), as are the Build's Run and the figures the page quotes.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from functools import cache
from pathlib import Path

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import default_course_path
from linebyline.course.dataset import names_file
from linebyline.mine.scripts import parse_step, run_source
from linebyline.mine.training import SetupError, configure
from linebyline.runtime.library import CourseModules

from .conftest import the_course

COURSE = default_course_path()
KEPT = json.loads((COURSE / "runs" / "microgpt.json").read_text(encoding="utf-8"))
STEPS = 20


@cache
def lesson():
    return the_course().lesson("12.1")


def test_the_kept_run_is_the_files():
    """(tests/test_reference_run.py holds the kept run to today's file in full.)"""
    assert KEPT["script"] == "microgpt.py" and KEPT["steps"] == 1000


def test_explores_short_runs_are_the_first_steps_of_the_whole_file():
    assert lesson().explore.kind == "train-run"
    assert lesson().explore.params["first_steps"] is True
    assert STEPS in lesson().explore.params["steps"]
    source = configure((COURSE / "microgpt.py").read_text(encoding="utf-8"), first=STEPS)
    assert "num_steps = 1000\n" in source  # the decay is the whole run's
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "record.jsonl"
        steps = [step for line in run_source(source, "microgpt.py", names_file(), record=record,
                                             samples=0) if (step := parse_step(line))]
        exact = [entry["loss"] for entry in map(json.loads, record.read_text().splitlines())
                 if "loss" in entry]
    assert [(step.number, step.total) for step in steps] == [(k, 1000) for k in range(1, STEPS + 1)]
    assert [step.loss for step in steps] == [f"{loss:.4f}" for loss in KEPT["losses"][:STEPS]]
    assert exact == KEPT["losses"][:STEPS]


def test_a_run_of_its_own_is_not_the_first_steps():
    """Setting num_steps to 20 instead makes another run: its learning rate decays over 20
    steps, and from step 3 its losses are not the file's (what Explore showed before)."""
    source = configure((COURSE / "microgpt.py").read_text(encoding="utf-8"), steps=STEPS)
    losses = [step.loss for line in run_source(source, "microgpt.py", names_file(), samples=0)
              if (step := parse_step(line))]
    whole = [f"{loss:.4f}" for loss in KEPT["losses"][:STEPS]]
    assert losses[:2] == whole[:2] and losses[2] != whole[2] and losses[-1] != whole[-1]


def test_first_needs_the_training_loop():
    with pytest.raises(SetupError, match="loop"):
        configure("num_steps = 10\nfor step in range(10):\n    pass\n", first=2)


def test_the_builds_run_prints_the_files_first_losses(tmp_path: Path):
    (tmp_path / "input.txt").write_bytes(names_file().read_bytes())
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out), CourseModules(lesson().exercise.library):
            exec(compile(lesson().exercise.solution, "microgpt.py", "exec"), {"__name__": "__main__"})
    finally:
        os.chdir(here)
    steps = [step for line in out.getvalue().splitlines() if (step := parse_step(line))]
    assert [step.loss for step in steps] == [f"{loss:.4f}" for loss in KEPT["losses"][:STEPS]]
    assert {step.total for step in steps} == {1000}


def test_the_pages_figures_are_the_files():
    computed = compute_lesson(lesson())
    assert not computed.problems, computed.problems
    facts = computed.facts
    assert facts["first_loss"] == KEPT["losses"][0]
    assert facts["file_step_20"] == KEPT["losses"][STEPS - 1]
    assert facts["num_steps"] == KEPT["steps"]
    assert "{{file_step_20:.4f}} at step 20" in lesson().watch
