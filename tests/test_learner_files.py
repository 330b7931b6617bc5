"""Every lesson against learner files nobody wrote as its solution: other correct spellings must
pass, and each wrong one must be caught first by the right check, saying the right thing.

The files and what they expect are in tests/lessons/<number>/ (see tests/learner_files.py). They
run in this process with the check runtime, as the browser runs them, from a working folder that
holds the names as input.txt, as the browser's and the CLI's do.
"""
from __future__ import annotations

import shutil
from functools import cache

import pytest

from linebyline.course.dataset import names_file
from linebyline.runtime import run_checks

from .conftest import the_course
from .learner_files import LearnerFile, learner_files

FILES = learner_files()


@cache
def course():
    return the_course()


@pytest.fixture
def in_learner_folder(tmp_path, monkeypatch):
    shutil.copyfile(names_file(), tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)


def test_every_lesson_has_learner_files():
    """A lesson is judged against files it was not written for: some right, some wrong."""
    for lesson in course().lessons():
        mine = [f for f in FILES if f.lesson == lesson.number]
        passing = [f for f in mine if f.status == "pass"]
        assert len(passing) >= 2, f"lesson {lesson.number} needs at least 2 other correct files"
        assert len(mine) - len(passing) >= 2, f"lesson {lesson.number} needs at least 2 wrong files"


@pytest.mark.parametrize("learner", FILES, ids=[f.id for f in FILES])
def test_learner_file_gets_its_verdict(learner: LearnerFile, in_learner_folder):
    lesson = course().lesson(learner.lesson)
    assert lesson is not None, f"{learner.path}: there is no published lesson {learner.lesson}"
    exercise = lesson.exercise

    def judge(until_first_failure: bool):
        return run_checks(learner.path.read_text(encoding="utf-8"), exercise.checks_source,
                          lesson=lesson.number, starter=exercise.starter,
                          filename=exercise.filename, checks_filename=str(exercise.checks_path),
                          reference=exercise.solution, library=exercise.library,
                          until_first_failure=until_first_failure)

    # A wrong file's checks after its first failure tell nothing this test asserts, except in
    # one case: a first check that raised makes the whole verdict "error" only if every later
    # check raises too, so that file runs all of them.
    result = judge(until_first_failure=learner.status != "pass")
    if result.status == "error":
        result = judge(until_first_failure=False)
    report = "\n".join(f"{c.status}: {c.name}: {c.message}" for c in result.checks)
    assert result.status == learner.status, report
    if learner.status == "pass":
        return
    first = next(c for c in result.checks if c.status != "pass")
    assert first.name == learner.check, report
    assert learner.says in first.message, report
