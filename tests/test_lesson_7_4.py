"""Lesson 7.4, Building Value: proven both ways.

The solution passes every check and the starter does not; every declared mistake is caught by
the check it names, with exactly its message; other correct ways of writing the lines pass; a
half-finished file fails with some checks passing; the lines the learner writes are real lines
of microgpt.py; and the lesson loads without errors.
"""
from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest
import yaml

from linebyline.authoring.computed import compute_lesson
from linebyline.course import CourseErrors, apply_edits, default_course_path, load_course
from linebyline.runtime import run_checks

from .conftest import the_course

NUMBER = "7.4"
COURSE = default_course_path()
LESSON_DIR = COURSE / "lessons" / "7.4-building-value"
EXTRA = Path(__file__).parent / "lessons" / "7.4"
CHECKS = [
    "mul records (other, self)",
    "pow records n·xⁿ⁻¹",
    "log records 1/x",
    "exp records eˣ",
    "relu records 1 or 0",
    "subtraction, division and negation build on these",
    "every local grad matches nudging",
    "every operation on new numbers, twice each",
]
# Read at collection time so that each mistake and each extra file is its own test.
MISTAKES = [m["name"] for m in
            yaml.safe_load((LESSON_DIR / "lesson.yaml").read_text("utf-8"))["build"]["mistakes"]]
ALTERNATIVES = sorted(EXTRA.glob("alt_*.py"))


def _in_this_lesson(error) -> bool:
    return Path(error.file).resolve().is_relative_to(LESSON_DIR.resolve())


def _load_alone(scratch: Path):
    """This lesson in a copy of the course with no other lessons and no missing scripts."""
    for item in COURSE.iterdir():
        if item.is_file():
            shutil.copy(item, scratch / item.name)
    for module in yaml.safe_load((COURSE / "course.yaml").read_text("utf-8"))["modules"]:
        (scratch / module["script"]).touch(exist_ok=True)
    shutil.copytree(LESSON_DIR, scratch / "lessons" / LESSON_DIR.name)
    return load_course(scratch).lesson(NUMBER)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """(the lesson, problems found elsewhere in the course while loading it)."""
    try:
        return the_course().lesson(NUMBER), []
    except CourseErrors as errors:
        ours = [str(error) for error in errors.errors if _in_this_lesson(error)]
        if ours:
            pytest.fail("lesson 7.4 does not load:\n" + "\n".join(ours))
        others = [str(error) for error in errors.errors]
    # Something else in the course is unfinished (another lesson, a script not written yet):
    # judge this lesson on its own.
    return _load_alone(tmp_path_factory.mktemp("course")), others


@pytest.fixture(scope="module")
def lesson(loaded):
    return loaded[0]


def _run(lesson, source, starter=None):
    exercise = lesson.exercise
    return run_checks(source, exercise.checks_source, lesson=NUMBER, starter=starter,
                      filename=exercise.filename, reference=exercise.solution)


def _first_not_passing(result):
    return next((check for check in result.checks if check.status != "pass"), None)


def _by_status(result, status):
    return [check.name for check in result.checks if check.status == status]


# --- the lesson loads, and says what the brief says ---

def test_lesson_loads_without_errors(loaded):
    lesson, elsewhere = loaded
    assert lesson is not None, "lesson 7.4 is not in the loaded course"
    if elsewhere:
        warnings.warn("the course does not load because of problems outside lesson 7.4 "
                      "(7.4 was loaded on its own):\n" + "\n".join(elsewhere), stacklevel=1)
    assert (lesson.slug, lesson.title, lesson.minutes) == ("building-value", "Building Value", 25)
    assert lesson.module == 7
    # the heads of add, mul and pow: the lines around them are taught first in 3.2, 4.5 and 4.6
    assert lesson.unlocks == ((35, 35), (37, 37), (39, 39), (41, 41), (43, 43))
    assert lesson.exercise.filename == "building_value.py"
    assert lesson.explore.kind == "local-gradient"
    assert lesson.exercise.check_names == tuple(CHECKS)
    assert 3 <= len(lesson.exercise.hints) <= 4
    assert "https://karpathy.github.io/2026/02/12/microgpt/" in lesson.watch


def test_quiz_answers_are_computed(lesson):
    computed = compute_lesson(lesson)
    assert list(computed.answers.values()) == [75.0, -0.5, -0.0625]
    # the slips each predict question expects: no factor n, the output, the exponent kept...
    assert list(computed.wrong.values()) == [[25.0, 125.0, 375.0], [3.0, -1.5, 1], [0.25, -0.25, -0.375]]
    assert 3 <= len(lesson.quiz) <= 5
    for question in lesson.quiz:
        if question.kind == "choice":
            assert sum(choice.correct for choice in question.choices) == 1
            assert all(choice.explain for choice in question.choices)


# --- the exercise, both ways ---

def test_solution_passes_every_check(lesson):
    result = _run(lesson, lesson.exercise.solution, starter=lesson.exercise.starter)
    assert result.status == "pass", result.checks
    assert [check.name for check in result.checks] == CHECKS
    assert _by_status(result, "pass") == CHECKS


def test_untouched_starter_is_not_attempted(lesson):
    result = _run(lesson, lesson.exercise.starter, starter=lesson.exercise.starter)
    assert result.status == "not-attempted"


def test_starter_runs_but_does_not_pass(lesson):
    result = _run(lesson, lesson.exercise.starter)  # as if the learner had edited it
    assert result.status == "fail", result.checks  # it runs (no "error") but does not pass
    assert _first_not_passing(result).name == CHECKS[0]
    assert not _by_status(result, "pass")


def test_mistakes_cover_the_classic_pitfalls(lesson):
    mistakes = lesson.exercise.mistakes
    assert len(mistakes) >= 5
    messages = [mistake.message for mistake in mistakes]
    assert len(set(messages)) == len(messages), "two mistakes share a message"
    named = {mistake.check for mistake in mistakes}
    assert {CHECKS[0], CHECKS[1], CHECKS[2]} <= named


@pytest.mark.parametrize("name", MISTAKES)
def test_mistake_is_caught_with_its_message(lesson, name):
    mistake = next(m for m in lesson.exercise.mistakes if m.name == name)
    source = apply_edits(lesson.exercise.solution, mistake.edits)
    assert source != lesson.exercise.solution
    result = _run(lesson, source, starter=lesson.exercise.starter)
    assert result.status == "fail"
    first = _first_not_passing(result)
    assert first.name == mistake.check
    # an operation that raises on a new number (x = 0) fails beside what ours gives there
    assert first.status == "fail"
    assert first.message == mistake.message
    assert "0x" not in first.message  # never an object's address


def test_there_are_alternatives_to_try():
    names = {path.name for path in ALTERNATIVES}
    assert {"alt_relu_conditional.py", "alt_lists.py", "alt_pow_parenthesised.py"} <= names


@pytest.mark.parametrize("path", ALTERNATIVES, ids=lambda path: path.stem)
def test_other_correct_spellings_pass(lesson, path):
    source = path.read_text("utf-8")
    assert source.strip() != lesson.exercise.solution.strip()
    result = _run(lesson, source, starter=lesson.exercise.starter)
    assert result.status == "pass", [(c.name, c.message) for c in result.checks]


def test_half_done_file_fails_with_some_checks_passing(lesson):
    result = _run(lesson, (EXTRA / "half_done.py").read_text("utf-8"),
                  starter=lesson.exercise.starter)
    assert result.status == "fail"
    # mul and pow are done, and subtraction, division and negation only need +, * and **
    assert _by_status(result, "pass") == CHECKS[:2] + [CHECKS[5]]
    assert _by_status(result, "fail") == CHECKS[2:5] + CHECKS[6:]
    assert _first_not_passing(result).name == "log records 1/x"


# --- the lines themselves ---

def _program_lines(name):
    return (COURSE / name).read_text("utf-8").split("\n")


def test_solution_holds_the_unlocked_lines_in_order(lesson):
    unlocked = _program_lines("microgpt.py")[34:61]  # lines 35-61
    solution = lesson.exercise.solution.split("\n")
    start = solution.index(unlocked[0])
    assert solution[start:start + len(unlocked)] == unlocked


def test_learner_writes_only_real_lines(lesson):
    real = set(_program_lines("microgpt.py")) | set(_program_lines("train2.py"))
    given = set(lesson.exercise.starter.split("\n"))
    written = [line for line in lesson.exercise.solution.split("\n") if line not in given]
    assert len(written) == 5  # one `return Value(...)` line for each operation
    assert all(line in real for line in written)


def test_starter_keeps_the_given_lines(lesson):
    program = _program_lines("microgpt.py")
    starter = lesson.exercise.starter
    assert "\n".join(program[25:37]) in starter  # class, __init__ and __add__ (26-37)
    assert "\n".join(program[54:61]) in starter  # the one-line helpers (55-61)
    assert starter.count("# TODO:") == 5
    for text in (starter, lesson.exercise.solution):
        assert "def backward" not in text  # that is lesson 7.5


def test_codealong_types_the_starter_into_the_solution(lesson):
    text = lesson.exercise.starter
    for chapter in lesson.exercise.codealong:
        assert text.count(chapter.find) == 1
        text = text.replace(chapter.find, chapter.type, 1)
    assert text == lesson.exercise.solution


# --- the standard: diagnosis first, the line held back --------------------------------------

@pytest.mark.parametrize("name", MISTAKES)
def test_a_mistake_is_diagnosed_without_its_line_which_comes_as_the_fix(lesson, name):
    mistake = next(m for m in lesson.exercise.mistakes if m.name == name)
    first = _first_not_passing(_run(lesson, apply_edits(lesson.exercise.solution, mistake.edits)))
    assert first.fix == mistake.fix
    for line in ("self.data ** (n - 1)", "(other.data, self.data)", "float(self.data > 0)",
                 "math.exp(self.data),"):
        assert line not in first.message


def test_new_numbers_catch_what_the_examples_cannot(lesson):
    """pow's rate as n·xⁿ/x is right at every example and every nudge: only 0 shows it."""
    source = lesson.exercise.solution.replace("(n * self.data ** (n - 1),)",
                                              "(n * self.data ** n / self.data,)")
    result = _run(lesson, source)
    assert _by_status(result, "pass") == CHECKS[:-1]
    last = result.checks[-1]
    # Ours computes 0 ** 2 fine, so the message says what ours gives beside the learner's error.
    assert last.status == "fail" and "`Value(0) ** 2` (0 squared" in last.message
    assert "raised ZeroDivisionError" in last.message and "where ours returns" in last.message


def test_an_operation_that_changes_its_input_is_caught(lesson):
    source = (EXTRA / "wrong_relu_clamps.py").read_text("utf-8")
    result = _run(lesson, source)
    assert _by_status(result, "pass") == CHECKS[:-1]
    assert "it changed its input" in result.checks[-1].message
    assert "('relu', -1.685) before the call and ('relu', 0) after it" in result.checks[-1].message
