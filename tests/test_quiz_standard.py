"""Quizzes a learner can pass without the lesson: lint's figures for guessing by the wording, and
answers the page prints above the quiz (issue 29)."""
from __future__ import annotations

from dataclasses import replace

from linebyline.authoring.computed import compute_lesson
from linebyline.authoring.lesson_standard import (
    TOP_TWO_SHARE,
    answer_shown_problems,
    quiz_figure_problems,
    quiz_figures,
)


def test_the_figures_count_what_the_yardstick_counts(course):
    figures = quiz_figures(course)
    assert figures["questions"] == sum(
        1 for lesson in course.lessons() for q in lesson.quiz
        if q.kind == "choice" and len(q.choices) > 1) + sum(
        1 for m in course.modules if m.review for q in m.review.quiz
        if q.kind == "choice" and len(q.choices) > 1)
    assert 0 < figures["chance"] < 1
    assert set(figures["stock"]) == {"error", "nothing"}


def test_too_many_right_choices_among_the_two_longest_fail():
    over = {"questions": 100, "top_two": int(TOP_TWO_SHARE * 100) + 1, "chance": 0.25,
            "stock": {"error": [0, 0], "nothing": [0, 0]}}
    assert "two longest in 56 of 100" in quiz_figure_problems(over)[0]
    within = dict(over, top_two=int(TOP_TWO_SHARE * 100))
    assert quiz_figure_problems(within) == []


def test_a_stock_wording_that_is_almost_never_right_fails():
    figures = {"questions": 100, "top_two": 40, "chance": 0.25,
               "stock": {"error": [30, 7], "nothing": [30, 1]}}
    problems = quiz_figure_problems(figures)
    assert len(problems) == 1 and "'nothing' are right 1 times in 30" in problems[0]


def _predict(course):
    for lesson in course.lessons():
        for index, question in enumerate(lesson.quiz):
            if question.kind == "predict":
                return lesson, index


def test_a_predicted_number_printed_in_the_watch_text_is_flagged(course):
    lesson, index = _predict(course)
    computed = compute_lesson(lesson)
    answer = computed.answers[index]
    before = answer_shown_problems(lesson, computed)
    shown = replace(lesson, watch=lesson.watch + f"\n\nAfter the run the value is {answer:.4f}.\n")
    found = set(answer_shown_problems(shown, computed)) - set(before)
    assert any(f"question {index + 1}: its answer" in problem for problem in found), found


def test_a_number_that_only_starts_like_the_answer_is_not_flagged(course):
    lesson, index = _predict(course)
    computed = compute_lesson(lesson)
    answer = computed.answers[index]
    before = answer_shown_problems(lesson, computed)
    other = replace(lesson, watch=lesson.watch + f"\n\nA value: {answer:.4f}9137.\n")
    assert set(answer_shown_problems(other, computed)) == set(before)


def test_the_right_choices_words_in_the_watch_text_are_flagged(course):
    lesson = course.lesson("7.5")
    computed = compute_lesson(lesson)
    index, question = next((i, q) for i, q in enumerate(lesson.quiz) if q.kind == "choice")
    right = next(c for c in question.choices if c.correct)
    before = answer_shown_problems(lesson, computed)
    shown = replace(lesson, watch=lesson.watch + "\n\n" + right.text + "\n")
    found = set(answer_shown_problems(shown, computed)) - set(before)
    assert any(f"question {index + 1}: the right choice's words" in p for p in found), found


def test_an_author_can_say_why_a_match_on_the_page_is_not_the_answer(course):
    lesson, index = _predict(course)
    computed = compute_lesson(lesson)
    shown = replace(lesson, watch=lesson.watch + f"\n\nThe value is {computed.answers[index]:.4f}.\n")
    flagged = answer_shown_problems(shown, computed)
    assert any(f"question {index + 1}: its answer" in problem for problem in flagged)
    quiz = list(shown.quiz)
    quiz[index] = replace(quiz[index], not_given_away="The page's number is another run's, not this one.")
    excused = answer_shown_problems(replace(shown, quiz=tuple(quiz)), computed)
    assert not any(f"question {index + 1}: its answer" in problem for problem in excused)


def test_a_reason_must_be_a_sentence(copy):
    from linebyline.course import CourseErrors, load_course

    lesson = copy / "lessons" / "7.5-backward" / "lesson.yaml"
    text = lesson.read_text()
    lesson.write_text(text.replace("  - kind: predict\n", "  - kind: predict\n    not_given_away: ok\n", 1))
    try:
        load_course(copy)
    except CourseErrors as errors:
        assert "`not_given_away` must say why" in str(errors)
    else:
        raise AssertionError("a one-word reason was accepted")
