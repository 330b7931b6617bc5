"""`linebyline check` from a terminal gives every lesson the same verdicts as the runtime the
browser runs: for one wrong learner file per lesson, the sandboxed CLI check and the in-process
check (what Pyodide runs) return the same statuses and the same messages, word for word."""
from __future__ import annotations

import shutil
from functools import cache

import pytest

from linebyline.course.dataset import names_file
from linebyline.runtime import run_checks
from linebyline.sandbox import check_source

from .conftest import the_course
from .learner_files import learner_files


@cache
def course():
    return the_course()


def first_wrong_file_per_lesson():
    chosen = {}
    for learner in learner_files():
        if learner.status != "pass" and learner.lesson not in chosen:
            chosen[learner.lesson] = learner
    return list(chosen.values())


FILES = first_wrong_file_per_lesson()


@pytest.mark.parametrize("learner", FILES, ids=[f.id for f in FILES])
def test_the_terminal_and_the_browser_runtime_agree(learner, tmp_path, monkeypatch):
    lesson = course().lesson(learner.lesson)
    exercise = lesson.exercise
    source = learner.path.read_text(encoding="utf-8")
    terminal = check_source(lesson, source)
    shutil.copyfile(names_file(), tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)
    browser = run_checks(source, exercise.checks_source, lesson=lesson.number,
                         starter=exercise.starter, filename=exercise.filename,
                         checks_filename=str(exercise.checks_path),
                         reference=exercise.solution, library=exercise.library)
    assert terminal.status == browser.status == learner.status
    assert [(c.name, c.status, c.message) for c in terminal.checks] == \
        [(c.name, c.status, c.message) for c in browser.checks]


def test_every_lesson_is_compared():
    assert {f.lesson for f in FILES} == {lesson.number for lesson in course().lessons()}
