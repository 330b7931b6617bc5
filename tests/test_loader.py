"""Loading a course: the real one loads; broken copies are reported as file:line: problem."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import CourseErrors, load_course
from linebyline.course.widgets import KINDS

from .conftest import replace, the_course


def line_of(path: Path, text: str) -> int:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


def errors_of(course_path: Path) -> list[str]:
    with pytest.raises(CourseErrors) as caught:
        load_course(course_path)
    return [str(error) for error in caught.value.errors]


def test_the_course_loads_with_its_lessons_in_order(course):
    numbers = [lesson.key for lesson in course.lessons()]
    assert numbers == sorted(numbers) and (7, 4) in numbers and (7, 5) in numbers
    lesson = course.lesson("7.5")
    assert lesson.module == 7 and lesson.script == "train2.py" and lesson.minutes == 30
    assert lesson.explore.kind == "graph-backward"
    assert [q.kind for q in lesson.quiz] == ["choice", "predict", "choice", "predict"]
    assert lesson.exercise.hints and lesson.exercise.codealong and lesson.exercise.mistakes
    assert course.lesson("7.4").explore.kind == "local-gradient"


def lesson_yaml(copy: Path, number: str = "7.5") -> Path:
    return next(copy.glob(f"lessons/{number}-*/lesson.yaml"))


def test_an_unknown_key_is_reported_with_its_line(copy):
    path = lesson_yaml(copy)
    replace(path, "minutes: 30", "minuets: 30")
    line = line_of(path, "minuets")
    errors = errors_of(copy)
    assert f"{path}:{line}: unknown key `minuets` (allowed: " in errors[0]
    assert any(error.startswith(f"{path}:") and "missing `minutes`" in error for error in errors)


def test_a_modules_graph_rule_is_one_the_graph_tab_knows(copy):
    path = copy / "course.yaml"
    replace(path, "graph: paths", "graph: sideways")
    line = line_of(path, "graph: sideways")
    assert errors_of(copy) == [
        f"{path}:{line}: module 3: `graph` must be one of chain, paths, not 'sideways'"]


def test_unlocked_lines_must_exist_in_the_program(copy):
    path = lesson_yaml(copy)
    text = path.read_text()
    start = text.index("unlocks:")
    end = text.index("\n", start)
    path.write_text(text[:start] + "unlocks: [63-9999]" + text[end:])
    line = line_of(path, "unlocks:")
    assert errors_of(copy) == [
        f"{path}:{line}: '63-9999' is outside the program's lines 1-"
        f"{len((copy / 'microgpt.py').read_text().split(chr(10)))}"]


def test_a_key_given_twice_and_broken_yaml(copy):
    path = lesson_yaml(copy)
    path.write_text(path.read_text() + "minutes: 31\n")
    last = len(path.read_text().splitlines())
    assert errors_of(copy) == [f"{path}:{last}: the key 'minutes' appears twice"]
    path.write_text(path.read_text() + "quiz: [unclosed\n")
    assert "not valid YAML" in errors_of(copy)[0]


def test_a_missing_file_is_named(copy):
    path = lesson_yaml(copy, "7.4")
    (path.parent / "watch.md").unlink()
    assert errors_of(copy) == [
        f"{path}:{line_of(path, 'watch:')}: the Watch text 'watch.md' does not exist"]


def test_a_mistake_must_apply_to_the_solution_and_name_a_real_check(copy):
    path = lesson_yaml(copy)
    lesson = the_course().lesson("7.5")
    mistake = lesson.exercise.mistakes[0]
    solution = path.parent / "solution.py"
    solution.write_text(solution.read_text().replace(mistake.edits[0].find, "pass  # gone"))
    errors = errors_of(copy)
    assert any("`find` must occur exactly once in the solution, but occurs 0 times" in error
               and error.startswith(f"{path}:") for error in errors)
    # (the code-along no longer ends at the solution either)
    assert any("code-along does not end with the solution" in error for error in errors)


def test_a_mistake_naming_an_unknown_check(copy):
    path = lesson_yaml(copy)
    lesson = the_course().lesson("7.5")
    name = lesson.exercise.mistakes[0].check
    text = path.read_text()
    marker = f"check: {name}"
    if marker not in text:
        marker = f'check: "{name}"'
    replace(path, marker, "check: no such check")
    errors = errors_of(copy)
    assert len(errors) == 1 and "no check is named 'no such check'" in errors[0]
    assert errors[0].startswith(f"{path}:{line_of(path, 'check: no such check')}: ")


def test_a_prediction_must_compute_a_number(copy):
    """Predictions run when lint proves the lesson (and when its page is first shown)."""
    path = lesson_yaml(copy)
    replace(path, "answer = e.grad", "answr = e.grad")
    lesson = load_course(copy).lesson("7.5")
    line = lesson.quiz[1].line
    assert "kind: predict" in path.read_text().splitlines()[line - 1]
    assert compute_lesson(lesson).problems == [
        f"{path}:{line}: question 2's `compute` failed: it must set `answer`"]


def test_a_prediction_that_raises_says_where(copy):
    path = lesson_yaml(copy)
    replace(path, "answer = e.grad", "answer = e.grad / 0")
    problems = compute_lesson(load_course(copy).lesson("7.5")).problems
    assert len(problems) == 1
    assert "question 2's `compute` failed: ZeroDivisionError" in problems[0]
    assert "(compute, line 6)" in problems[0]


def test_the_lesson_needs_a_lead_and_its_unlocked_words(copy):
    path = lesson_yaml(copy)
    text = path.read_text()
    start, end = text.index("lead:"), text.index("minutes:")
    path.write_text(text[:start] + text[end:])
    assert errors_of(copy) == [f"{path}:1: missing `lead`"]


def test_curriculum_titles_split_at_a_comma_are_refused(copy):
    """An unquoted title with a comma, in a flow list, silently becomes two titles."""
    path = copy / "course.yaml"
    text = path.read_text()
    start = text.index("    lessons:", text.index("  - number: 5"))
    end = text.index("  - number: 6")
    path.write_text(text[:start] + "    lessons: [Matrices and random init, Embedding lookup, "
                    "linear, ReLU, Softmax (and why subtract the max), Counting 3,184 parameters]\n"
                    + text[end:])
    errors = errors_of(copy)
    assert errors[0] == (f"{path}:{line_of(path, 'Counting 3,184')}: module 5: lesson titles 6 and 7, "
                         "'Counting 3' and '184 parameters', look like one title split at a comma: "
                         'write it in quotes, "Counting 3,184 parameters"')
    # ... and lesson 5.6 no longer carries the title course.yaml now plans for it.
    assert all("differs from course.yaml's plan for lesson 5.6, 'Counting 3'" in error
               for error in errors[1:]) and len(errors) == 2


def test_a_published_title_must_match_the_plan(copy):
    replace(lesson_yaml(copy), 'title: "backward(): let the graph do calculus"',
            'title: "backward()"')
    assert errors_of(copy) == [f"{lesson_yaml(copy)}:1: the title 'backward()' differs from "
                               "course.yaml's plan for lesson 7.5, 'backward(): let the graph do "
                               "calculus': make them the same"]


def test_an_unknown_widget_kind(copy):
    path = lesson_yaml(copy, "7.4")
    replace(path, "kind: local-gradient", "kind: local-gradiant")
    errors = errors_of(copy)
    assert errors == [f"{path}:{line_of(path, 'local-gradiant')}: explore: unknown widget kind "
                      f"'local-gradiant' (known: {', '.join(KINDS)})"]
    assert "local-gradient" in KINDS and "train-run" in KINDS


def test_a_broken_checks_file_points_into_it(copy):
    checks = lesson_yaml(copy).parent / "checks.py"
    checks.write_text(checks.read_text() + "\nundefined_helper()\n")
    last = len(checks.read_text().splitlines())
    assert errors_of(copy) == [f"{checks}:{last}: NameError: name 'undefined_helper' is not defined"]


def test_a_lesson_of_an_undeclared_module_and_a_missing_script(copy):
    replace(lesson_yaml(copy), 'number: "7.5"', 'number: "13.1"')
    replace(copy / "course.yaml", "script: train4.py", "script: train44.py")
    errors = errors_of(copy)
    assert any("lesson 13.1 belongs to module 13, which course.yaml does not declare" in e
               for e in errors)
    assert any(e.startswith(f"{copy / 'course.yaml'}:") and "'train44.py' does not exist" in e
               for e in errors)


def test_a_widget_that_trains_a_missing_script(copy):
    path = lesson_yaml(copy, "7.4")
    text = path.read_text()
    start, end = text.index("explore:"), text.index("build:")
    path.write_text(text[:start] + "explore:\n  kind: train-run\n  params:\n    script: train9.py\n"
                    "    steps: [10]\n" + text[end:])
    assert errors_of(copy) == [f"{path}:{line_of(path, 'train9.py')}: explore params: the script "
                               f"'train9.py' does not exist in {copy}"]


def test_first_steps_is_yes_or_no(copy):
    path = next((copy / "lessons").glob("12.1-*")) / "lesson.yaml"
    replace(path, "first_steps: true", "first_steps: 20")
    assert errors_of(copy) == [f"{path}:{line_of(path, 'first_steps: 20')}: explore params: "
                               "`first_steps` must be true or false, not a whole number"]


def test_a_review_of_a_module_without_lessons(copy):
    for lesson in (copy / "lessons").glob("12.*"):  # module 12 as it was before its lessons
        shutil.rmtree(lesson)
    (copy / "reviews").mkdir(exist_ok=True)
    review = copy / "reviews" / "module-12.yaml"
    review.write_text("module: 12\nsummary: The end.\nquiz: []\n")
    assert errors_of(copy) == [f"{review}:1: module 12 has no published lesson to review"]


def test_an_experiment_lab_calls_a_function_of_the_solution_with_settings_it_can_take(copy):
    path = next((copy / "lessons").glob("12.2-*")) / "lesson.yaml"
    replace(path, "function: experiment", "function: experimnet")
    replace(path, "{name: n_embd, label: n_embd, choices: [16, 8, 32]}",
            "{name: num_steps, label: Steps, choices: [0]}")
    errors = errors_of(copy)
    kind = line_of(path, "kind: experiment-lab")
    assert f"{path}:{kind}: explore params: the experiment-lab widget calls experimnet(), which " \
           "the solution does not define" in errors
    assert f"{path}:{line_of(path, 'name: num_steps')}: explore params: setting 2: `name` must be " \
           "a parameter of the function other than docs and num_steps, not 'num_steps'" in errors
    assert f"{path}:{line_of(path, 'name: num_steps')}: explore params: setting 2: `choices` must " \
           "be whole numbers from 1 up, the first of them the default" in errors


def test_computations_find_the_course_library_from_a_relative_path(copy, monkeypatch, tmp_path):
    # They run in a folder of their own: `linebyline lint courses/microgpt` once found nothing.
    (copy / "compute" / "tiny_helper.py").write_text("ANSWER = 42\n")
    path = lesson_yaml(copy, "1.6")
    replace(path, "facts: |\n", "facts: |\n  from tiny_helper import ANSWER\n")
    monkeypatch.setenv("LINEBYLINE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(copy.parent)
    lesson = load_course(Path(copy.name)).lesson("1.6")
    computed = compute_lesson(lesson)
    assert not computed.problems, computed.problems


def test_an_adapted_line_must_be_one_the_learner_writes_and_say_why(copy):
    path = next((copy / "lessons").glob("12.2-*")) / "lesson.yaml"
    replace(path, 'as: "random.seed(seed)', 'as: "random.seed(seeds)')
    text = path.read_text()
    start = text.index("      why: >-\n", text.index("  adapted:"))
    end = text.index("  hints:", start)
    path.write_text(text[:start] + "      why: a new seed\n" + text[end:])
    errors = errors_of(copy)
    assert any(error.startswith(f"{path}:") and "`as` must be a line the learner writes (in the "
               "solution, not the starter): random.seed(seeds)" in error for error in errors)
    assert any(error.startswith(f"{path}:") and "`why` must say why the line departs from the "
               "program, in at least 30 characters" in error for error in errors)
