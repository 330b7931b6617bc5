"""The lesson standard that `lint --strict` enforces: each rule catches what it is for."""
from __future__ import annotations

from linebyline.authoring import lesson_standard
from linebyline.authoring.computed import compute_lesson
from linebyline.course import load_course
from linebyline.course.model import Choice, Question, WrongAnswer
from linebyline.course.prose import fill_facts, lesson_references

from .conftest import replace, run_cli


def _choice(right: str, *wrong: str, explain: str = "Because.") -> Question:
    choices = (Choice(right, True, explain),) + tuple(Choice(w, False, "No.") for w in wrong)
    return Question("choice", "Why?", "", choices)


def test_a_right_choice_much_longer_than_every_other_is_a_tell():
    long = _choice("Because every node must wait until all of its users have passed on.",
                   "It is faster.", "It is shorter.")
    problems = list(lesson_standard.choice_problems(long, "q"))
    assert len(problems) == 1 and "its length gives it away" in problems[0]
    even = _choice("Because every node waits for its users.",
                   "Because walking backwards is faster in Python.", "Because leaves come first.")
    assert list(lesson_standard.choice_problems(even, "q")) == []


def test_an_explanation_that_says_right_again():
    question = _choice("A", "B", explain="Right. It adds up.")
    assert any("already says \"Right.\"" in p for p in lesson_standard.choice_problems(question, "q"))


def test_a_predict_question_needs_expected_wrong_numbers():
    bare = Question("predict", "How many?", "Count them.", compute="answer = 3")
    assert any("expected wrong answers" in p for p in lesson_standard.predict_problems(bare, "q"))
    with_wrong = Question("predict", "How many?", "Count them.", compute="answer = 3",
                          wrong=(WrongAnswer("answer = 4", "One too many."),))
    assert list(lesson_standard.predict_problems(with_wrong, "q")) == []


def test_expected_wrong_numbers_are_computed_and_must_differ_from_the_answer(copy):
    path = next(copy.glob("lessons/7.5-*/lesson.yaml"))
    # 7.5 asks for e.grad (-7) and expects -6, -1 and 6 from the likely slips.
    replace(path, "answer = 6  # L's value, not a gradient", "answer = -7  # as the answer")
    lesson = load_course(copy).lesson("7.5")
    computed = compute_lesson(lesson)
    index = next(i for i, q in enumerate(lesson.quiz) if q.wrong)
    assert computed.answers[index] == -7.0
    assert computed.wrong[index] == [-6.0, -1.0, -7.0]
    assert len(computed.problems) == 1
    assert "wrong answer 3 computes -7, the right answer itself" in computed.problems[0]


def test_a_message_that_hands_over_the_line_to_write(course):
    lesson = course.lesson("7.5")
    given = lesson_standard.giveaway(
        "e ends at -6. Write `child.grad += local_grad * node.grad` so the shares add up.", lesson)
    assert given == "child.grad += local_grad * node.grad"
    # A line the starter gives is no giveaway, nor is a diagnosis with values.
    assert lesson_standard.giveaway("Walk it with `for node in reversed(order):`.", lesson) == ""
    assert lesson_standard.giveaway("e.grad is -6 but should be -2.", lesson) == ""


def test_a_lead_must_count_lines_the_lesson_has(copy):
    path = next(copy.glob("lessons/7.4-*/lesson.yaml"))
    replace(path, "Five lines here", "Nine lines here")
    course = load_course(copy)
    problems = lesson_standard.lead_problems(course, course.lesson("7.4"))
    assert len(problems) == 1 and "the lead says 'Nine lines'" in problems[0]
    replace(path, "Nine lines here", "Five lines here")  # the lines the learner writes
    course = load_course(copy)
    assert lesson_standard.lead_problems(course, course.lesson("7.4")) == []


def test_references_to_unplanned_lessons_and_unknown_facts(copy):
    path = next(copy.glob("lessons/7.5-*/watch.md"))
    text = path.read_text()
    path.write_text(text + "\nAs lesson 13.2 shows, {{no_such_fact}} nodes.\n")
    course = load_course(copy)
    lesson = course.lesson("7.5")
    problems = lesson_standard.reference_problems(course, lesson, compute_lesson(lesson))
    assert any("refers to lesson 13.2, which the course does not plan" in p for p in problems)
    assert any("quotes {{no_such_fact}}, which `facts` does not compute" in p for p in problems)


def test_facts_fill_the_prose_and_references_are_found():
    assert fill_facts("a {{n}} times, {{p:.3f}}, {{x}}", {"n": 1489, "p": 0.12345}) == \
        "a 1,489 times, 0.123, {{x}}"
    assert lesson_references("see lessons 3.3 and 3.4, then lesson 8.1 (Position)") == \
        ["3.3", "3.4", "8.1"]


def test_lint_strict_fails_on_a_shortfall_plain_lint_only_reports_it(copy):
    path = next(copy.glob("lessons/7.4-*/lesson.yaml"))
    replace(path, "Five lines here", "Nine lines here")
    plain = run_cli("lint", str(copy), "--lesson", "7.4")
    assert "the lead says 'Nine lines'" in plain.stdout
    strict = run_cli("lint", str(copy), "--lesson", "7.4", "--strict")
    assert strict.returncode == 1
    assert "✗ " in strict.stdout and "the lead says 'Nine lines'" in strict.stdout


def test_a_python_name_outside_backticks_is_refused(copy):
    path = next((copy / "lessons").glob("7.2-*")) / "lesson.yaml"
    replace(path, "`__slots__` is a tuple of names", "__slots__ is a tuple of names")
    lesson = load_course(copy).lesson("7.2")
    problems = lesson_standard.reference_problems(load_course(copy), lesson, compute_lesson(lesson))
    assert problems == [f"{path}: the text writes __slots__ outside backticks, and Markdown shows "
                        "it as 'slots' in bold or italics: write `__slots__`"]
