"""The two levels of a Build's TODO comments: guided (the starter's own) and on my own (the
lesson's `on_my_own:` texts, course/levels.py). Both starters have the same code; either,
untouched, is not attempted; a spelled-out on-my-own TODO fails the lint."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from linebyline.authoring import lesson_standard
from linebyline.course import CourseErrors, load_course
from linebyline.course.levels import (
    CONTINUATION,
    WIDTH,
    level_of,
    level_pairs,
    own_starter,
    switch_blocks,
    todo_blocks,
    wrap_todo,
)
from linebyline.runtime import run_checks
from linebyline.sandbox import check_source

from .conftest import replace as replace_in
from .conftest import run_cli, the_course

# The lessons that have `on_my_own` texts today: every one of them is held to the rules below.
WITH_OWN = tuple(lesson.number for lesson in the_course().lessons()
                 if lesson.exercise is not None and lesson.exercise.on_my_own)

STARTER = """def f(xs):
    total = 0
    # TODO (one line): add up xs.
    #       Use a loop.
    # not part of the block: it starts no TODO, but it is a comment at the same indentation
    for x in xs:
        pass
        # TODO: the second block
      # another indentation: not its continuation
    return total
"""


def test_a_todo_block_is_its_line_and_the_comments_after_it_at_its_indentation():
    blocks = todo_blocks(STARTER)
    assert [(b.start, b.end, b.indent) for b in blocks] == [(2, 5, "    "), (7, 8, "        ")]
    # A TODO directly after a TODO starts a block of its own.
    two = todo_blocks("    # TODO: first\n    #   more of it\n    # TODO (one line): second\n")
    assert [(b.start, b.end) for b in two] == [(0, 2), (2, 3)]
    assert todo_blocks("x = 1  # TODO: not a comment line\n") == []


def test_the_own_starter_changes_the_todo_comments_only():
    texts = ("TODO (one line): the total of every number of xs. Check \"sums\" proves it.",
             "TODO: " + "a long text that has to be wrapped " * 5)
    own = own_starter(STARTER, texts)
    assert own.split("\n")[2] == ('    # TODO (one line): the total of every number of xs. '
                                  'Check "sums" proves it.')
    wrapped = wrap_todo(texts[1], "        ")
    assert len(wrapped) > 1 and all(len(line) <= WIDTH for line in wrapped)
    assert all(line.startswith("        " + CONTINUATION) for line in wrapped[1:])
    assert "\n".join(wrapped) in own
    assert [line for line in own.split("\n") if not line.lstrip().startswith("#")] == \
        [line for line in STARTER.split("\n") if not line.lstrip().startswith("#")]
    assert own_starter(STARTER, texts[:1]) == ""  # one text per block, or none
    # Switching the whole file there and back gives each starter.
    pairs = level_pairs(STARTER, texts)
    assert switch_blocks(STARTER, pairs, "own") == own
    assert switch_blocks(own, pairs, "guided") == STARTER
    assert level_of(own, pairs) == "own" and level_of(STARTER, pairs) == "guided"


def test_switching_keeps_the_learners_code_and_the_comments_they_changed():
    texts = ("TODO: the total.", "TODO: the second, on my own.")
    pairs = level_pairs(STARTER, texts)
    draft = STARTER.replace("        pass\n", "        total += x\n")
    draft = draft.replace("    #       Use a loop.\n", "    #       (I used a loop.)\n")
    switched = switch_blocks(draft, pairs, "own")
    assert "total += x" in switched and "(I used a loop.)" in switched  # code, changed comment
    assert "    # TODO (one line): add up xs." in switched  # the changed block: as it was
    assert "        # TODO: the second, on my own." in switched  # the block still a starter's
    assert switch_blocks(switched, pairs, "guided") == draft


def lesson_yaml(copy: Path, number: str) -> Path:
    return next(copy.glob(f"lessons/{number}-*/lesson.yaml"))


def errors_of(course_path: Path) -> list[str]:
    with pytest.raises(CourseErrors) as caught:
        load_course(course_path)
    return [str(error) for error in caught.value.errors]


def test_on_my_own_needs_one_text_per_todo_block(copy):
    path = lesson_yaml(copy, "7.5")
    text = path.read_text()
    start = text.index("    - >-\n      TODO (one line): the chain rule.")
    end = text.index("adds up\" proves it.\n", start) + len("adds up\" proves it.\n")
    path.write_text(text[:start] + text[end:])
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1)
                if row.startswith("  on_my_own:"))
    assert errors_of(copy) == [
        f"{path}:{line}: build: on_my_own has 1 entries, but the starter has 2 TODO blocks "
        "(line 49, line 56): give one text per block, in order"]


def test_an_on_my_own_text_starts_with_todo(copy):
    path = lesson_yaml(copy, "3.3")
    replace_in(path, "TODO (one line): then node itself", "Then node itself")
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1)
                if "Then node itself" in row) - 1
    assert errors_of(copy) == [f"{path}:{line}: build: on_my_own entry 2 must start with TODO, as "
                               "the starter's block it replaces does"]


@pytest.mark.parametrize("number", WITH_OWN)
def test_the_lessons_own_starter_has_the_same_code(course, number):
    exercise = course.lesson(number).exercise
    assert exercise.starters == {"guided": exercise.starter, "own": exercise.own_starter}
    assert len(exercise.on_my_own) == len(todo_blocks(exercise.starter)) >= 1
    code = [line for line in exercise.starter.split("\n") if not line.lstrip().startswith("#")]
    assert [line for line in exercise.own_starter.split("\n")
            if not line.lstrip().startswith("#")] == code
    assert all(len(line) <= WIDTH for block in todo_blocks(exercise.own_starter)
               for line in block.lines)
    # Each block says its entry's text, word for word.
    assert [" ".join(line.strip()[1:].strip() for line in block.lines)
            for block in todo_blocks(exercise.own_starter)] == list(exercise.on_my_own)


def without_own_texts(copy: Path, number: str) -> Path:
    """The copy of the course with lesson `number`'s `on_my_own:` texts taken out: a lesson
    without them, whichever lessons of the real course still lack them."""
    path = lesson_yaml(copy, number)
    lines = path.read_text().split("\n")
    start = lines.index("  on_my_own:")
    end = next(n for n in range(start + 1, len(lines))
               if lines[n] and not lines[n].startswith(("    ", "  #")))
    path.write_text("\n".join(lines[:start] + lines[end:]))
    return copy


def test_a_lesson_without_on_my_own_has_one_starter(copy):
    exercise = load_course(without_own_texts(copy, "7.4")).lesson("7.4").exercise
    assert exercise.on_my_own == () and exercise.own_starter == ""
    assert exercise.starters == {"guided": exercise.starter} and exercise.level_pairs() == []


@pytest.mark.parametrize("level", ["guided", "own"])
def test_either_untouched_starter_is_not_attempted_by_the_runtime(course, level):
    exercise = course.lesson("7.5").exercise
    source = exercise.starters[level].replace("\n", "  \r\n")  # trailing spaces, Windows ends
    starters = [exercise.starter, exercise.own_starter]
    result = run_checks(source, exercise.checks_source, lesson="7.5", starter=starters,
                        filename=exercise.filename, reference=exercise.solution)
    assert result.status == "not-attempted"
    # Touched, it is checked (and fails: nothing is written yet).
    touched = run_checks(source + "\nx = 1\n", exercise.checks_source, lesson="7.5",
                         starter=starters, filename=exercise.filename, reference=exercise.solution)
    assert touched.status == "fail"
    # Given only the guided starter (an older caller), the on-my-own one is checked as code.
    alone = run_checks(exercise.own_starter, exercise.checks_source, starter=exercise.starter,
                       filename=exercise.filename, reference=exercise.solution)
    assert alone.status == "fail"


def test_the_terminals_check_calls_the_untouched_own_starter_not_attempted(course):
    lesson = course.lesson("7.5")
    assert check_source(lesson, lesson.exercise.own_starter).status == "not-attempted"
    assert check_source(lesson, lesson.exercise.starter).status == "not-attempted"
    run = check_source(lesson, lesson.exercise.own_starter, untouched_is_not_attempted=False)
    assert run.status == "fail"


def test_start_writes_the_level_asked_for_and_remembers_a_default(tmp_path, course, copy):
    exercise = course.lesson("7.5").exercise
    target = tmp_path / "work" / exercise.filename
    done = run_cli("start", "7.5", str(tmp_path / "work"), "--level", "own")
    assert done.returncode == 0, done.stderr
    assert "(the starter, TODOs on my own)" in done.stdout
    assert target.read_text() == exercise.own_starter
    checked = run_cli("check", "7.5", str(target), "--json")
    assert checked.returncode == 1 and json.loads(checked.stdout)["status"] == "not-attempted"

    assert run_cli("config", "level").stdout.strip() == "guided"
    assert run_cli("config", "level", "own").returncode == 0
    assert run_cli("config", "level").stdout.strip() == "own"
    again = run_cli("start", "7.5", str(tmp_path / "again"))
    assert (tmp_path / "again" / exercise.filename).read_text() == exercise.own_starter
    assert "TODOs on my own" in again.stdout
    # A lesson without on-my-own TODOs writes the guided ones, and says why.
    other = run_cli("--course", str(without_own_texts(copy, "7.4")), "start", "7.4",
                    str(tmp_path / "other"))
    lesson = course.lesson("7.4")
    assert (tmp_path / "other" / lesson.exercise.filename).read_text() == lesson.exercise.starter
    assert "has no on-my-own TODOs yet" in other.stderr
    guided = run_cli("start", "7.5", str(tmp_path / "guided"), "--level", "guided")
    assert (tmp_path / "guided" / exercise.filename).read_text() == exercise.starter
    assert "TODOs guided" in guided.stdout

    bad = run_cli("config", "level", "alone")
    assert bad.returncode == 2 and "level is one of guided, own, not 'alone'" in bad.stderr
    assert run_cli("start", "7.5", str(tmp_path / "x"), "--level", "alone").returncode == 2
    assert "--level {guided,own}" in run_cli("start", "--help").stdout


def planted(course, number: str, index: int, text: str):
    lesson = course.lesson(number)
    texts = list(lesson.exercise.on_my_own)
    texts[index] = text
    return replace(lesson, exercise=replace(lesson.exercise, on_my_own=tuple(texts)))


def test_an_own_todo_that_spells_out_its_answer_falls_short(course):
    assert lesson_standard.own_level_problems(course.lesson("7.5")) == []
    spelled = planted(course, "7.5", 1, "TODO (one line): make child's grad grow by local_grad "
                      "times node's grad. Check \"a value used twice adds up\" proves it.")
    problems = lesson_standard.own_level_problems(spelled)
    assert problems == [
        f"{spelled.path / 'lesson.yaml'}:{spelled.exercise.on_my_own_lines[1]}: on_my_own entry "
        "2 spells out its answer `child.grad += local_grad * node.grad` (child, grad, "
        "local_grad, node, in that order): say what the lines must achieve and which check "
        "proves it, not the names that write them"]
    # The same names in another order, or only some of them, are not the answer spelled out.
    assert not lesson_standard.own_level_problems(planted(
        course, "7.5", 1, "TODO: node's grad, scaled by local_grad, goes into each child's grad."))
    assert not lesson_standard.own_level_problems(planted(
        course, "7.5", 0, "TODO: `node` joins the list after its children."))
    # The answer lines of a block come from the code-along (3.3 has two blocks in one hunk).
    assert lesson_standard.block_answers(course.lesson("3.3")) == [
        ["for child in node._children:", "visit(child)"], ["order.append(node)"]]
    assert lesson_standard.line_names("for i in range(len(xs)): total += xs[i]") == \
        ["i", "xs", "total"]


def test_lint_strict_fails_on_a_planted_spelled_out_own_todo(copy):
    path = lesson_yaml(copy, "3.3")
    replace_in(path, "TODO (one line): then node itself joins the list, after all of them.",
               "TODO (one line): then order.append(node), after all of them.")
    done = run_cli("lint", str(copy), "--strict", "--lesson", "3.3", timeout=600)
    assert done.returncode == 1, done.stdout
    assert "on_my_own entry 2 spells out its answer `order.append(node)`" in done.stdout
    assert "lint FAILED." in done.stdout


def test_a_build_without_on_my_own_falls_short_of_the_standard(copy):
    """Every lesson offers both levels: one whose texts are taken out fails strict lint."""
    course = load_course(copy)
    assert all(lesson.exercise.on_my_own for lesson in course.lessons())
    without_own_texts(copy, "7.4")
    lesson = load_course(copy).lesson("7.4")
    assert lesson_standard.own_level_problems(lesson) == [
        f"{lesson.path / 'lesson.yaml'}: the Build has no `on_my_own` TODO texts (the on-my-own "
        "level)"]
