"""`linebyline lint` proves the real course and catches deliberately broken copies."""
from __future__ import annotations

import json
from pathlib import Path

from linebyline.authoring.computed import compute_lesson
from linebyline.authoring.lint import format_ranges

from .conftest import replace, run_cli


def folder(copy: Path, number: str) -> Path:
    return next(copy.glob(f"lessons/{number}-*"))


def test_lint_proves_lessons_and_reports_coverage(course):
    # The whole course is linted once in CI, by `make test` before the tests; here two lessons
    # show the report's form.
    done = run_cli("lint", "--lesson", "7.4", "--lesson", "7.5")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7.4 Building Value: " in done.stdout
    assert "7.5 backward(): let the graph do calculus: ok" in done.stdout
    # The numbers are the lesson's own (its quiz changes; the form of the report does not).
    answers = compute_lesson(course.lesson("7.5")).answers.values()
    assert "predictions computed: " + ", ".join(f"{a:g}" for a in answers) in done.stdout
    taught = len(course.countable_lines()) - len(course.uncovered_lines())
    assert f"microgpt.py: {taught} / {len(course.countable_lines())} non-blank lines" in done.stdout
    uncovered = course.uncovered_lines()
    if uncovered:
        assert f"Not taught yet: lines {format_ranges(uncovered)}" in done.stdout
    else:  # every line is taught: nothing to list
        assert "Not taught yet" not in done.stdout
    assert done.stdout.rstrip().endswith("lint passed.")


def test_full_coverage_can_be_required(copy):
    # The course teaches every line; a copy whose 7.5 unlocks nothing leaves its line untaught.
    replace(folder(copy, "7.5") / "lesson.yaml", "unlocks: [74]", "unlocks: []")
    done = run_cli("lint", str(copy), "--require-full-coverage", "--lesson", "7.4")
    assert done.returncode == 1
    assert "microgpt.py: 1 non-blank line is taught by no lesson: 74" in done.stdout
    assert run_cli("lint", "--require-full-coverage", "--lesson", "7.4").returncode == 0


def test_a_line_unlocked_by_two_lessons(copy):
    # 7.5's backward() holds lines 4.4 teaches first (its own line is 74): claiming them too
    # would count them twice in "N / total lines learned".
    replace(folder(copy, "7.5") / "lesson.yaml", "unlocks: [74]", "unlocks: [74, 76-77]")
    done = run_cli("lint", str(copy), "--lesson", "7.5")
    assert done.returncode == 1
    assert ("microgpt.py: lines 76-77 are unlocked by both lesson 4.4 and 7.5; a line is "
            "unlocked only by the lesson that teaches it first") in done.stdout


def test_a_solution_that_fails_its_checks(copy):
    lesson_dir = folder(copy, "7.5")
    # Break the solution and, so that the course still loads, the code-along that types it.
    replace(lesson_dir / "solution.py", "child.grad += local_grad * node.grad",
            "child.grad += local_grad")
    replace(lesson_dir / "lesson.yaml", 'type: "                child.grad += local_grad * node.grad',
            'type: "                child.grad += local_grad')
    done = run_cli("lint", str(copy), "--lesson", "7.5")
    assert done.returncode == 1, done.stderr
    assert done.stdout.rstrip().endswith("lint FAILED.")
    assert f"{lesson_dir / 'solution.py'}: the solution does not pass check" in done.stdout
    # and the line it writes is no longer the program's line
    assert "it is in neither microgpt.py nor train2.py: child.grad += local_grad" in done.stdout


def test_a_changed_expected_message_is_caught_by_running_the_mistake(copy):
    lesson_dir = folder(copy, "7.4")
    checks = lesson_dir / "checks.py"
    text = checks.read_text()
    # Reword every message the checks give: the declared messages no longer match.
    checks.write_text(text.replace("fail(f\"", "fail(f\"Oops. ").replace("fail(\"", "fail(\"Oops. "))
    done = run_cli("lint", str(copy), "--lesson", "7.4")
    assert done.returncode == 1
    assert "but lesson.yaml expects" in done.stdout and "Oops. " in done.stdout


def test_a_mistake_that_no_check_catches(copy):
    path = folder(copy, "7.5") / "lesson.yaml"
    solution = (folder(copy, "7.5") / "solution.py").read_text()
    assert "self.grad = 1\n" in solution
    replace(path, "mistakes:\n", "mistakes:\n"
            "    - name: harmless\n"
            "      edits: [{find: \"self.grad = 1\\n\", replace: \"self.grad = 1.0\\n\"}]\n"
            "      check: the example's gradients\n"
            "      message: nothing\n")
    done = run_cli("lint", str(copy), "--lesson", "7.5")
    assert done.returncode == 1
    assert "mistake 'harmless': every check passes, so no learner would be told" in done.stdout


def test_a_mistake_that_never_ends_meets_the_learners_time_limit(copy, tmp_path, monkeypatch):
    """Lint runs the course's own files outside the sandbox (authoring/proving.py), under the
    time limit a learner's check has: a mistake that loops forever is stopped and told. A run
    the time limit stopped is never kept (on a busy machine a sound run can meet it too)."""
    monkeypatch.setenv("LINEBYLINE_CACHE_DIR", str(tmp_path / "cache"))
    path = folder(copy, "7.5") / "lesson.yaml"
    replace(path, "mistakes:\n", "mistakes:\n"
            "    - name: endless\n"
            "      edits: [{find: \"        self.grad = 1\\n\", "
            "replace: \"        while True: pass\\n\"}]\n"
            "      check: the example's gradients\n"
            "      message: nothing\n")
    done = run_cli("lint", str(copy), "--lesson", "7.5", timeout=120)
    assert done.returncode == 1
    assert "mistake 'endless': check \"the example's gradients\" says" in done.stdout
    assert "ran past the 10 s time limit" in done.stdout, done.stdout[-2000:]
    kept = json.loads((tmp_path / "cache" / "proofs.json").read_text(encoding="utf-8"))
    assert kept, "the runs that ended are kept"
    assert not [run for run in kept.values() if "time limit" in json.dumps(run)]


def test_a_starter_that_already_passes(copy):
    lesson_dir = folder(copy, "7.5")
    (lesson_dir / "starter.py").write_text((lesson_dir / "solution.py").read_text() + "# TODO\n")
    path = lesson_dir / "lesson.yaml"
    text = path.read_text()
    start, end = text.index("  codealong:"), text.index("\nquiz:")
    text = text[:start] + "  codealong: []" + text[end:]  # nothing left to type
    # One TODO block now: the two on-my-own texts no longer have blocks to replace.
    start, end = text.index("  on_my_own:"), text.index("  hints:")
    path.write_text(text[:start] + text[end:])
    done = run_cli("lint", str(copy), "--lesson", "7.5")
    assert done.returncode == 1, done.stderr
    assert "the starter passes every check even when run as if edited" in done.stdout


def test_a_line_the_learner_writes_must_be_the_programs_or_declared_adapted(course):
    from dataclasses import replace as swap

    from linebyline.authoring.lint import _line_problems

    lesson = course.lesson("12.2")  # its seed line takes the experiment's own seed
    (adapted,) = lesson.exercise.adapted
    assert _line_problems(course, lesson) == []
    undeclared = swap(lesson, exercise=swap(lesson.exercise, adapted=()))
    assert any(f"the learner writes this line, but it is in neither microgpt.py nor microgpt.py: "
               f"{adapted.text}" in problem for problem in _line_problems(course, undeclared))
    chars = next(n for n, line in enumerate(course.program_lines(), 1)
                 if line.startswith("chars = "))  # a line 12.2 writes word for word
    same = swap(adapted, line=chars, text=course.program_lines()[chars - 1].strip())
    unchanged = swap(lesson, exercise=swap(lesson.exercise, adapted=(same,)))
    assert any(f"adapted line {chars}: the learner's line is microgpt.py's own, unchanged"
               in problem for problem in _line_problems(course, unchanged))


def test_the_course_asks_for_no_line_a_learner_could_copy(course):
    # Issue 28: no Build asks for a line that stands, as code, in an earlier lesson's starter or
    # in its own starter's comments (lint --strict fails on any).
    from linebyline.authoring.lesson_standard import answer_leaks

    assert answer_leaks(course) == []


def test_an_answer_in_an_earlier_starter_fails_strict_lint(copy, course):
    from linebyline.authoring.lesson_standard import answer_line, answers_to_write

    later = course.lesson("7.5")
    line = next(answer_line(later, key) for key in answers_to_write(later)
                if not key.endswith(":"))  # a statement: it can stand alone in a function
    # 7.4's starter gains a finished helper that holds the line (its solution too, so that the
    # code-along still ends at the solution): a learner of 7.5 could copy it from there.
    planted = f"\n\ndef _finished_helper():\n    {line}\n"
    for name in ("starter.py", "solution.py"):
        path = folder(copy, "7.4") / name
        path.write_text(path.read_text() + planted)
    done = run_cli("lint", str(copy), "--strict", "--lesson", "7.5")
    assert done.returncode == 1, done.stdout + done.stderr
    assert (f"lesson 7.5 asks for `{line}`, which already stands in the starter of lesson 7.4"
            in done.stdout), done.stdout
    assert done.stdout.rstrip().endswith("lint FAILED.")
