"""The Parsons rung's lines (linebyline.course.parsons): the code-along's code lines in file order,
and a wrong line from the lesson's known mistakes that is never one of them."""
from __future__ import annotations

import pytest

from linebyline.course.parsons import answer_lines, distractor

from .conftest import the_course

LESSONS = list(the_course().lessons())


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.number for lesson in LESSONS])
def test_the_lines_are_the_solutions_and_the_wrong_one_is_a_mistakes(lesson):
    exercise = lesson.exercise
    lines = answer_lines(exercise)
    solution = exercise.solution.splitlines()
    # In file order: each line is found in the solution after the one before it.
    at = -1
    for line in lines:
        assert line in solution[at + 1:], (lesson.number, line)
        at = solution.index(line, at + 1)
    wrong = distractor(exercise)
    if wrong:
        assert wrong not in {line.strip() for line in lines}
        assert any(edit.replace.strip() and edit.replace.strip() in wrong
                   for mistake in exercise.mistakes for edit in mistake.edits), wrong


def test_most_lessons_have_a_wrong_line_to_leave_out():
    with_one = [lesson.number for lesson in LESSONS if distractor(lesson.exercise)]
    assert len(with_one) >= len(LESSONS) - 5, [each.number for each in LESSONS if each.number not in with_one]


def test_7_5s_wrong_line_is_the_assignment_that_forgets_other_users():
    assert distractor(the_course().lesson("7.5").exercise) == "child.grad = local_grad * node.grad"
