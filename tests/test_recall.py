"""A module's recall exercise: its code written again from memory, judged by the checks of its
lessons together (gathered, each named after its lesson), proved by lint both ways, and worked
from the terminal as a lesson is (`start`, `check`, `hint`, `show review-7`)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from linebyline.authoring.lint import lint_course
from linebyline.course import apply_edits, load_course
from linebyline.progress.merge import ProgressError, read_document
from linebyline.runtime import collect_checks, gather
from linebyline.sandbox import check_source

from .conftest import replace, run_cli, the_course

RECALL = the_course().item("review-7")
REVIEW = "reviews/module-7.yaml"


def test_every_module_with_lessons_has_a_recall_of_its_own_lessons(course):
    for module in course.modules:
        if not module.lessons:
            continue
        recall = module.review.recall
        assert recall is not None, f"module {module.number} has no recall exercise"
        assert recall.number == f"review-{module.number}" and course.item(recall.number) is recall
        own = {lesson.number for lesson in module.lessons}
        assert set(recall.lessons) <= own and recall.lessons, recall.lessons
        assert all(name.split(": ")[0] in own for name in recall.exercise.check_names)
        assert recall.exercise.hints and recall.exercise.mistakes
        assert recall.exercise.starter != recall.exercise.solution


def test_gather_names_each_check_after_its_lesson_and_can_take_a_few():
    source = the_course().lesson("7.5").exercise.checks_source
    names = [name for name, _ in collect_checks(
        f"from linebyline.runtime import gather\ngather('7.5', {source!r}, "
        "(\"the example's gradients\", 'a value used twice adds up'))\n")]
    assert names == ["7.5: the example's gradients", "7.5: a value used twice adds up"]
    with pytest.raises(ValueError, match="lesson 7.5 has no check named 'no such check'"):
        collect_checks(f"from linebyline.runtime import gather\n"
                       f"gather('7.5', {source!r}, ('no such check',))\n")
    assert callable(gather)


def test_the_recall_is_judged_by_its_lessons_checks_with_their_messages():
    exercise = RECALL.exercise
    assert check_source(RECALL, exercise.solution).status == "pass"
    assert check_source(RECALL, exercise.starter).status == "not-attempted"
    mistake = exercise.mistakes[0]
    result = check_source(RECALL, apply_edits(exercise.solution, mistake.edits))
    first = next(check for check in result.checks if check.status != "pass")
    lesson = the_course().lesson("7.5").exercise.mistakes[0]
    assert first.name == "7.5: " + lesson.check and first.message == lesson.message


def test_recall_checks_must_name_lessons_of_the_module_in_quotes(copy):
    replace(copy / REVIEW, 'checks: ["7.2", "7.4", "7.5"]', 'checks: ["7.2", 7.4, "8.1"]')
    with pytest.raises(Exception) as caught:
        load_course(copy)
    errors = [str(error) for error in caught.value.errors]
    assert any("checks entry 2 must be a lesson number in quotes" in e for e in errors), errors
    assert any("checks entry 3: module 7 has no lesson 8.1" in e for e in errors), errors


def test_lint_refuses_a_recall_that_gives_its_answer_or_cannot_tell_a_mistake(copy):
    starter = copy / "reviews/recall-7/starter.py"
    docstring = '"""Fill in the grad of every Value this one was computed from: d(self)/d(that)."""'
    replace(starter, f"        {docstring}\n",
            f"        {docstring}\n"
            "        for node in []:\n"
            "            child.grad += local_grad * node.grad\n")
    replace(copy / REVIEW, "      Start with what a Value holds: lesson 7.2 (Nodes that remember) names",
            "      Start with what a Value holds: the lesson on nodes names")
    replace(copy / REVIEW, '        - {find: "child.grad += ", replace: "child.grad = "}',
            '        - {find: "order, seen = [], set()\\n\\n", replace: "order, seen = [], set()\\n\\n\\n"}')
    report = lint_course(load_course(copy), only=["review-7"])
    assert not report.ok
    problems = "\n".join(p for r in report.lessons for p in r.problems)
    assert "the recall starter already holds `child.grad += local_grad * node.grad`, which " \
        "lesson 7.5 asks for" in problems
    assert "recall hint 1 names no lesson to reread" in problems
    assert "mistake '= instead of +=': every check passes, so no learner would be told" in problems


def test_from_the_terminal_start_check_hint_and_show(tmp_path: Path):
    started = run_cli("start", "review-7", cwd=tmp_path)
    assert started.returncode == 0, started.stderr
    assert "recall review-7, Module 7 from memory" in started.stdout
    path = tmp_path / "microgpt/review-7-from-memory/from_memory_7.py"
    assert path.read_text() == RECALL.exercise.starter

    untouched = run_cli("check", "review-7", "--json", cwd=tmp_path)
    assert untouched.returncode == 1 and json.loads(untouched.stdout)["status"] == "not-attempted"
    hint = run_cli("hint", "review-7", cwd=tmp_path)
    assert "Hint 1 of 3 (recall review-7)" in hint.stdout and "7.2" in hint.stdout
    shown = run_cli("show", "review-7", cwd=tmp_path)
    assert "Module 7 from memory (review-7)" in shown.stdout
    assert "the checks of lessons 7.2, 7.4, 7.5 judge it" in shown.stdout

    path.write_text(RECALL.exercise.solution)
    passed = run_cli("check", "review-7", cwd=tmp_path)
    assert passed.returncode == 0, passed.stdout
    assert f"✓ {len(RECALL.exercise.check_names)} / {len(RECALL.exercise.check_names)} checks " \
        "pass: recall review-7 is done" in passed.stdout
    assert "Next: linebyline start 8.1" in passed.stdout
    progress = run_cli("progress", cwd=tmp_path)
    assert "· review-7✓" in progress.stdout
    assert "0 of 66 published lessons done" in progress.stdout  # a recall is not a lesson

    quiz = run_cli("quiz", "review-7", cwd=tmp_path)
    assert quiz.returncode == 2 and "review-7 is module 7's recall exercise" in quiz.stderr
    typo = run_cli("check", "review-77", cwd=tmp_path)
    assert typo.returncode == 2 and "did you mean review-7?" in typo.stderr


def test_progress_documents_hold_recall_exercises_and_nothing_like_them():
    document = {"format": "linebyline-progress", "version": 2, "course": "microgpt",
                "lessons": {"review-7": {"status": "done"}}}
    assert set(read_document(document)[1]) == {"review-7"}
    for wrong in ("review-", "review-x", "Review-7", "review-7.1"):
        with pytest.raises(ProgressError, match="is not a lesson number"):
            read_document({**document, "lessons": {wrong: {"status": "done"}}})
