"""Module 4, Calculus by nudging: what its six lessons promise, pinned.

Each lesson loads with its planned title and says which lines it prepares or teaches: 4.1-4.3
write lines of train1.py's gradient check and loss and unlock none of microgpt.py; 4.4-4.6 write
the chain rule and the local rates into the Value of module 3, and unlock exactly those lines of
microgpt.py. Their predictions are the numbers the lessons' rules give (4.4-4.6 ask them at
other points than the Watch texts work through, so no answer is printed on the page); the lines
the learner writes are real lines; the untouched starter is not attempted and the solution
passes.
The three widget kinds refuse bad parameters, and the data they claim agree really does: the
rule and the nudge at every stop of every slope-plot slider, the paths' shares and the nudge in
every paths-graph, the rule and the nudge on every rule card.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import yaml

from linebyline.authoring.computed import compute_lesson
from linebyline.course import CourseErrors, apply_edits, default_course_path, load_course
from linebyline.course.dataset import names_file
from linebyline.course.widgets import paths_graph, slope_plot
from linebyline.runtime import run_checks

from .conftest import replace, the_course

COURSE = default_course_path()
PLAN = yaml.safe_load((COURSE / "course.yaml").read_text("utf-8"))["modules"][3]
LESSONS = {
    "4.1": ("slopes", "slope-plot", [6, 28]),
    "4.2": ("derivatives-by-nudging", "slope-plot", [6.1, 3.25, -26 / 27 / 4]),
    "4.3": ("meet-log-and-exp", "slope-plot", [4, 5 * math.log(27), 27 ** 5]),
    "4.4": ("the-chain-rule", "slope-plot", [15, 42, 0.6]),
    "4.5": ("many-paths-add-up", "paths-graph", [44, 13.5]),
    "4.6": ("the-table-of-local-gradients", "rule-cards", [12, 2, -1 / 2 + 1 / 28]),
}
# What each lesson writes: lines of train1.py (unlocking nothing), or of microgpt.py's Value
# (unlocking exactly those lines).
UNLOCKS = {"4.1": (), "4.2": (), "4.3": (), "4.4": ((76, 77),), "4.5": ((44, 44),),
           "4.6": ((46, 53),)}


@pytest.fixture(scope="module")
def course():
    return the_course()


@pytest.fixture
def in_learner_folder(tmp_path, monkeypatch):
    """A working folder with the names as input.txt, as the learner's code has it."""
    (tmp_path / "input.txt").write_bytes(names_file().read_bytes())
    monkeypatch.chdir(tmp_path)


def _lines(name: str) -> set[str]:
    return {line.strip() for line in (COURSE / name).read_text("utf-8").splitlines()}


@pytest.mark.parametrize("number", LESSONS)
def test_the_lesson_says_what_the_plan_says(course, number):
    lesson = course.lesson(number)
    slug, kind, _ = LESSONS[number]
    assert lesson.slug == slug and lesson.explore.kind == kind
    assert lesson.title == PLAN["lessons"][int(number.split(".")[1]) - 1]
    assert lesson.script == "train1.py" and lesson.unlocks == UNLOCKS[number]
    assert re.search(r"lines? \d+", lesson.where) and re.search(r"lesson \d\.\d", lesson.where)
    assert 3 <= len(lesson.exercise.hints) <= 4 and len(lesson.exercise.mistakes) >= 3
    assert 3 <= len(lesson.quiz) <= 5
    for question in lesson.quiz:
        if question.kind == "choice":
            assert sum(choice.correct for choice in question.choices) == 1
            assert all(choice.explain for choice in question.choices)
    words = len(lesson.watch.split())
    assert 300 <= words <= 700, f"{number}'s Watch has {words} words"


@pytest.mark.parametrize("number", LESSONS)
def test_the_predictions_are_the_numbers_the_rules_give(course, number):
    answers = list(compute_lesson(course.lesson(number)).answers.values())
    assert answers == pytest.approx(LESSONS[number][2], rel=1e-5)


@pytest.mark.parametrize("number", LESSONS)
def test_the_learner_writes_real_lines_and_the_starter_is_not_the_answer(course, number):
    lesson = course.lesson(number)
    real = _lines("train1.py") | _lines("microgpt.py")
    given = {line.strip() for line in lesson.exercise.starter.splitlines()}
    written = [line.strip() for line in lesson.exercise.solution.splitlines()
               if line.strip() and line.strip() not in given]
    assert written and all(line in real for line in written), written
    if not UNLOCKS[number]:  # lines of train1.py, which unlock no line of microgpt.py
        assert all(line in _lines("train1.py") for line in written)
    else:  # lines of microgpt.py's Value, each one a line the lesson unlocks
        program = (COURSE / "microgpt.py").read_text("utf-8").splitlines()
        unlocked = {program[n - 1].strip() for n in lesson.unlocked_lines()}
        assert all(line in unlocked for line in written), written
    text = lesson.exercise.starter
    for chapter in lesson.exercise.codealong:
        text = text.replace(chapter.find, chapter.type, 1)
    assert text == lesson.exercise.solution


@pytest.mark.parametrize("number", LESSONS)
def test_solution_passes_and_starter_does_not(course, number, in_learner_folder):
    exercise = course.lesson(number).exercise
    solved = run_checks(exercise.solution, exercise.checks_source, starter=exercise.starter,
                        reference=exercise.solution, library=exercise.library)
    assert solved.status == "pass", [(c.name, c.message) for c in solved.checks]
    untouched = run_checks(exercise.starter, exercise.checks_source, reference=exercise.solution,
                           library=exercise.library)
    assert untouched.status != "pass"
    assert all(c.status != "pass" for c in untouched.checks[:1])


def test_putting_a_weight_back_by_adding_is_not_exact(course, in_learner_folder):
    """The 4.2 mistake only works because -0.05 - 0.1 + 0.1 is not -0.05: keep it that way."""
    assert -0.05 - 0.1 + 0.1 != -0.05
    lesson = course.lesson("4.2")
    mistake = next(m for m in lesson.exercise.mistakes if m.name == "put back by adding the nudge")
    result = run_checks(apply_edits(lesson.exercise.solution, mistake.edits),
                        lesson.exercise.checks_source, reference=lesson.exercise.solution,
                        library=lesson.exercise.library)
    first = next(c for c in result.checks if c.status != "pass")
    assert "row[1] is -0.05000000000000002" in first.message


# --- the widgets' promises, proved in Python with the same formulas --------------------------

def _stops(x: dict) -> list[float]:
    count = int(math.floor((x["max"] - x["min"]) / x["step"] + 1e-9))
    return [round(x["min"] + i * x["step"], 10) for i in range(count + 1)]


@pytest.mark.parametrize("number", ["4.1", "4.2", "4.3", "4.4"])
def test_every_slope_plot_agrees_at_every_stop_with_a_sensible_nudge(course, number):
    """At every stop of the slider, a nudge of 0.00001 or more on offer makes them agree."""
    params = course.lesson(number).explore.params
    sensible = [h for h in params["h"]["choices"] if h >= 1e-5]
    checked = 0
    for function in params["functions"]:
        steps = [(s["op"], s.get("c", s.get("n", 0))) for s in function["steps"]]
        value, rule = slope_plot._chain(steps)
        for x in _stops(function.get("x", params.get("x"))):
            assert any(slope_plot.agrees(rule(x), (value(x + h) - value(x - h)) / (2 * h))
                       for h in sensible), (function["label"], x)
            checked += 1
    assert checked > 80


def test_the_log_curve_agrees_near_its_left_end(course):
    """The 7.4 widget said log and the nudge disagree at x = 0.05; 4.3's plot must not."""
    params = course.lesson("4.3").explore.params
    log = next(f for f in params["functions"] if f["label"] == "log x")
    h = params["h"]["start"]
    x = log["x"]["min"]
    assert x <= 0.05
    assert slope_plot.agrees(1 / x, (math.log(x + h) - math.log(x - h)) / (2 * h))


def test_the_paths_of_each_graph_add_up_to_the_nudge(course):
    params = course.lesson("4.5").explore.params
    first = params["graphs"][0]
    assert paths_graph.path_shares(first["values"], first["nodes"], first["input"]) == [28, 8]
    cube = params["graphs"][1]  # x · x · x: three paths of x², as pow's rule says
    assert paths_graph.path_shares(cube["values"], cube["nodes"], "x") == [4, 4, 4]
    surprise = params["graphs"][2]
    shares = paths_graph.path_shares(surprise["values"], surprise["nodes"], "w")
    assert shares == pytest.approx([-1, 1 / 27])
    for graph in params["graphs"]:
        values, nodes, source = graph["values"], graph["nodes"], graph["input"]
        h = params["h"]
        out = nodes[-1]["name"]
        up = paths_graph.forward({**values, source: values[source] + h}, nodes)[out]
        down = paths_graph.forward({**values, source: values[source] - h}, nodes)[out]
        assert sum(paths_graph.path_shares(values, nodes, source)) == pytest.approx(
            (up - down) / (2 * h), rel=1e-6)


def _lesson_yaml(copy: Path, number: str) -> Path:
    return next(copy.glob(f"lessons/{number}-*/lesson.yaml"))


def _errors(copy: Path) -> list[str]:
    with pytest.raises(CourseErrors) as caught:
        load_course(copy)
    return [str(error) for error in caught.value.errors]


@pytest.mark.parametrize("old, new, says", [
    ("steps: [{op: log}]", "steps: [{op: ln}]", "unknown op 'ln'"),
    ("x: {min: 0.05, max: 4, step: 0.05, start: 2}", "x: {min: 0.005, max: 4, step: 0.005, start: 2}",
     "the curve is undefined at x = 0.005"),
    ("h: {choices: [0.01, 0.001, 0.0001], start: 0.0001}", "h: {choices: [0.01], start: 0.01}",
     "no offered nudge makes the rule"),
    ("mistakes: [wrong-rule]", "mistakes: [wrong-rules]", "unknown mistake 'wrong-rules'"),
])
def test_slope_plot_refuses_bad_parameters(copy, old, new, says):
    replace(_lesson_yaml(copy, "4.3"), old, new)
    assert any(says in error for error in _errors(copy)), _errors(copy)


@pytest.mark.parametrize("old, new, says", [
    ("{name: q, op: add, args: [x, 5]}", "{name: q, op: add, args: [z, 5]}",
     "argument 'z' is not an input or an earlier node"),
    ("{name: lp, op: log, args: [p]}", "{name: lp, op: log, args: [p, 2]}", "log takes 1 argument"),
    ("slider: {min: 0.5, max: 10, step: 0.5}", "slider: {min: -1, max: 10, step: 0.5}",
     "the graph is undefined at w = -1"),
    ("mistakes: [add-along, multiply-across, last-only]", "mistakes: [add-across]",
     "unknown mistake 'add-across'"),
])
def test_paths_graph_refuses_bad_parameters(copy, old, new, says):
    replace(_lesson_yaml(copy, "4.5"), old, new)
    assert any(says in error for error in _errors(copy)), _errors(copy)


def test_paths_graph_refuses_a_slider_across_relus_corner(copy):
    path = _lesson_yaml(copy, "4.5")
    replace(path, "{name: p, op: mul, args: [x, 4]}", "{name: p, op: relu, args: [x]}")
    errors = _errors(copy)
    assert any("at x = 0 the paths add up to 0" in error for error in errors), errors


@pytest.mark.parametrize("old, new, says", [
    ("{op: log, x: 2}", "{op: log, x: 0}", "log needs x above 0"),
    ("{op: exp, x: 1}", "{op: expo, x: 1}", "unknown op 'expo'"),
    ("{op: pow, x: 3, n: 2}", "{op: pow, x: 3}", "missing `n`"),
])
def test_rule_cards_refuse_bad_parameters(copy, old, new, says):
    replace(_lesson_yaml(copy, "4.6"), old, new)
    assert any(says in error for error in _errors(copy)), _errors(copy)


def test_rule_cards_may_start_on_relus_corner(copy):
    replace(_lesson_yaml(copy, "4.6"), "{op: relu, x: 1.5}", "{op: relu, x: 0}")
    load_course(copy)  # the card explains the corner instead of claiming agreement
