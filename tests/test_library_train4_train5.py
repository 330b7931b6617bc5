"""The course library's given.train4 and given.train5, which the starters of modules 9 to 11
import instead of showing lines that later lessons ask for: importing them does nothing, and
what the lessons run with them is microgpt's own run, number for number."""
from __future__ import annotations

import contextlib
import io
import random
import shutil

import pytest

from linebyline.course import default_course_path
from linebyline.course.library import library_sources
from linebyline.runtime.library import CourseModules

from .conftest import the_course

COURSE = default_course_path()
# The original microgpt's first published losses (tests/test_assemble.py has its first 20).
FIRST_LOSSES = [3.3660, 3.4243, 3.1778]


@pytest.fixture
def in_folder(tmp_path, monkeypatch, names_file):
    """A folder whose input.txt is the makemore names file, which microgpt's published losses
    come from."""
    shutil.copyfile(names_file, tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_importing_them_prints_reads_and_draws_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no input.txt here: a read at import would fail
    random.seed(7)
    before = random.getstate()
    out = io.StringIO()
    with CourseModules(library_sources(COURSE)), contextlib.redirect_stdout(out):
        import given.train4
        import given.train5
        assert given.train5.transformer is given.train4.transformer
    assert random.getstate() == before
    assert out.getvalue() == ""


def test_the_1000_step_runs_first_steps_are_microgpts(in_folder):
    """10.6's solution, its model and half its training from the library, loses what microgpt.py
    loses at its first steps: the same draws, in the same order, the same arithmetic."""
    ns = {"__name__": "not_main"}
    solution = the_course().lesson("10.6").exercise.solution
    with CourseModules(library_sources(COURSE)), contextlib.redirect_stdout(io.StringIO()):
        exec(compile(solution, "solution.py", "exec"), ns)
        losses = [round(ns["train_step"](step).data, 4) for step in range(len(FIRST_LOSSES))]
    assert losses == FIRST_LOSSES
