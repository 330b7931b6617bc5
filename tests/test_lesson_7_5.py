"""Lesson 7.5, backward(): the exercise proven both ways, every known mistake, the quiz answers.

Learner files for these tests live in tests/lessons/7.5/. loop.py and memory.py there are for the
CLI's sandbox tests only: they never finish, so they are never run in-process here.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import apply_edits, default_course_path
from linebyline.runtime import run_checks

from .conftest import the_course

FILES = Path(__file__).parent / "lessons" / "7.5"
CHECKS = [
    "the example's gradients",
    "a value used twice adds up",
    "each node waits for all its users",
    "every gradient matches nudging",
    "backward() on new graphs, twice each",
]
MISTAKES = [
    "= instead of +=",
    "node appended before its children (pre-order)",
    "node appended inside the children loop",
    "walking the order forwards",
]


@cache
def lesson():
    found = the_course().lesson("7.5")
    assert found is not None, "lesson 7.5 is not in the course"
    return found


def run(source: str, starter: str | None = None):
    exercise = lesson().exercise
    return run_checks(source, exercise.checks_source, lesson="7.5", starter=starter,
                      filename=exercise.filename, checks_filename=str(exercise.checks_path),
                      reference=exercise.solution)


def statuses(result) -> dict[str, str]:
    return {check.name: check.status for check in result.checks}


def first_not_passing(result):
    return next(check for check in result.checks if check.status != "pass")


def test_lesson_header():
    this = lesson()
    assert this.title == "backward(): let the graph do calculus"
    assert (this.slug, this.minutes, this.module, this.script) == ("backward", 30, 7, "train2.py")
    assert this.unlocks == ((74, 74),)  # the rest of backward() is taught first in 3.3-3.5, 4.4
    assert this.exercise.filename == "backward.py"
    assert "https://karpathy.github.io/2026/02/12/microgpt/" in this.watch


def test_explore_is_the_example_with_the_assign_toggle():
    widget = lesson().explore
    assert widget.kind == "graph-backward"
    assert widget.params["inputs"] == {"a": 2, "b": -3, "c": 10}
    assert widget.params["nodes"] == [
        {"name": "e", "op": "mul", "args": ["a", "b"]},
        {"name": "d", "op": "add", "args": ["e", "c"]},
        {"name": "L", "op": "mul", "args": ["d", "e"]},
    ]
    assert widget.params["mistake"] == "Try = instead of +="


def test_checks_are_named_in_order():
    assert list(lesson().exercise.check_names) == CHECKS


def test_solution_is_the_program_lines():
    this = lesson()
    program = default_course_path() / "microgpt.py"
    lines = program.read_text(encoding="utf-8").split("\n")
    program_part, demo = this.exercise.solution.split("\n\n\nif __name__ == \"__main__\":")
    assert program_part == "import math\n\n\n" + "\n".join(lines[25:77])
    assert "backward()" in demo  # Run shows it working; checks skip it
    # every line of backward() appears in the solution, in order
    solution_lines = this.exercise.solution.split("\n")
    at = 0
    for number in range(63, 78):
        at = solution_lines.index(lines[number - 1], at) + 1


def test_starter_leaves_out_exactly_the_two_lines():
    exercise = lesson().exercise
    assert "order.append(node)" not in exercise.starter
    assert "child.grad +=" not in exercise.starter
    assert exercise.starter.count("# TODO") == 2
    removed = [line for line in exercise.solution.split("\n")
               if line.strip() and line not in exercise.starter.split("\n")]
    assert [line.strip() for line in removed] == [
        "order.append(node)", "child.grad += local_grad * node.grad"]


def test_solution_passes_every_check():
    result = run(lesson().exercise.solution)
    assert result.status == "pass", result.checks
    assert statuses(result) == {name: "pass" for name in CHECKS}


def test_untouched_starter_is_not_attempted():
    starter = lesson().exercise.starter
    result = run(starter, starter=starter)
    assert result.status == "not-attempted"
    assert {check.status for check in result.checks} == {"not-attempted"}


def test_starter_runs_but_does_not_pass():
    result = run(lesson().exercise.starter)
    assert result.status == "fail"  # not "error": the starter itself runs
    assert statuses(result) == {name: "fail" for name in CHECKS}
    assert "Is `order` still empty?" in result.checks[0].message


def test_every_mistake_is_declared():
    mistakes = lesson().exercise.mistakes
    assert [mistake.name for mistake in mistakes] == MISTAKES
    messages = [mistake.message for mistake in mistakes]
    assert len(set(messages)) == len(messages)


@pytest.mark.parametrize("index", range(len(MISTAKES)), ids=MISTAKES)
def test_mistake_gets_its_message(index):
    mistake = lesson().exercise.mistakes[index]
    source = apply_edits(lesson().exercise.solution, mistake.edits)
    assert source != lesson().exercise.solution
    result = run(source)
    assert result.status == "fail"
    first = first_not_passing(result)
    assert first.name == mistake.check
    assert first.status == "fail"
    assert first.message == mistake.message
    assert not re.search(r"0x[0-9a-f]+", first.message)  # no object ids: the same every run


def test_assign_message_reasons_about_e_and_holds_the_line_back():
    mistake = lesson().exercise.mistakes[0]
    assert "e.grad is -6 but should be -2" in mistake.message
    assert "+=" not in mistake.message  # the diagnosis first; the line comes later
    result = run(apply_edits(lesson().exercise.solution, mistake.edits))
    assert result.checks[0].fix == mistake.fix
    assert "`child.grad += local_grad * node.grad`" in mistake.fix


@pytest.mark.parametrize("index", [1, 2, 3], ids=MISTAKES[1:])
def test_order_mistakes_also_fail_the_order_check_with_the_same_diagnosis(index):
    mistake = lesson().exercise.mistakes[index]
    result = run(apply_edits(lesson().exercise.solution, mistake.edits))
    order = result.checks[CHECKS.index("each node waits for all its users")]
    assert order.status == "fail"
    diagnosis = mistake.message.split("should be -4. ", 1)[1]
    assert order.message.endswith(diagnosis)


def test_order_check_tells_forwards_from_pre_order():
    """Both give identical gradients in the example; the recorded order tells them apart."""
    solution, mistakes = lesson().exercise.solution, lesson().exercise.mistakes
    pre = run(apply_edits(solution, mistakes[1].edits)).checks[2].message
    forwards = run(apply_edits(solution, mistakes[3].edits)).checks[2].message
    assert "in the order q, r, p, s, out" in pre
    assert "in the order p, q, r, s, out" in forwards
    inside = run(apply_edits(solution, mistakes[2].edits)).checks[2].message
    assert "out, out, s, r, r, q, q, s, p, p" in inside


@pytest.mark.parametrize("name", ["alt_iterative.py", "alt_index.py", "alt_users.py"])
def test_other_correct_versions_pass(name):
    result = run((FILES / name).read_text(encoding="utf-8"))
    assert result.status == "pass", result.checks


def test_half_done_fails_with_some_passes():
    result = run((FILES / "half_done.py").read_text(encoding="utf-8"))
    assert result.status == "fail"
    found = statuses(result)
    assert "pass" in found.values() and "fail" in found.values()
    assert found["each node waits for all its users"] == "pass"  # the order is already right
    assert "nothing reached the children" in result.checks[0].message


def test_breadth_first_order_is_caught_by_the_order_check():
    """Right for the example and for a value used twice, wrong in general."""
    result = run((FILES / "wrong_bfs.py").read_text(encoding="utf-8"))
    first = first_not_passing(result)
    assert first.name == "each node waits for all its users"
    assert "q passed its grad on before r, which uses q" in first.message
    assert statuses(result)["every gradient matches nudging"] == "fail"


def test_dropping_a_repeated_child_is_caught_by_the_used_twice_check():
    source = lesson().exercise.solution.replace(
        "zip(node._children, node._local_grads)",
        "dict(zip(node._children, node._local_grads)).items()")
    first = first_not_passing(run(source))
    assert first.name == "a value used twice adds up"
    assert "without dropping repeated children" in first.message


def test_crash_is_an_error_naming_the_exception_and_the_line():
    source = (FILES / "crash.py").read_text(encoding="utf-8")
    line = next(n for n, text in enumerate(source.split("\n"), 1) if "nod.grad" in text)
    result = run(source)
    assert result.status == "error"
    for check in result.checks:
        assert check.status == "error", check
        assert "NameError" in check.message
        assert f"(line {line} of your code)" in check.message
        assert check.message.startswith("Calling `")


def test_codealong_turns_the_starter_into_the_solution():
    exercise = lesson().exercise
    text = exercise.starter
    for chapter in exercise.codealong:
        assert text.count(chapter.find) == 1
        text = text.replace(chapter.find, chapter.type, 1)
    assert text == exercise.solution


def test_quiz_answers_are_computed():
    quiz = lesson().quiz
    assert [question.kind for question in quiz] == ["choice", "predict", "choice", "predict"]
    assert list(compute_lesson(lesson()).answers.values()) == [-7, 14]
    for question in quiz:
        if question.kind == "choice":
            assert sum(choice.correct for choice in question.choices) == 1
            assert all(choice.explain for choice in question.choices)


def test_hints_are_graduated():
    hints = lesson().exercise.hints
    assert 3 <= len(hints) <= 4
    assert "child.grad += local_grad * node.grad" in hints[-1]
    assert all("child.grad +=" not in hint for hint in hints[:-1])
