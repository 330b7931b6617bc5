"""Module 7, Autograd: the five lessons around 7.4 and 7.5, and the module as a whole.

The lint proves each exercise both ways, every known mistake and every computed answer. These
tests pin what it does not see: the lines module 7 teaches (exactly the ones it owns), that the
numbers the texts quote are the ones the lessons' code computes, that the computed widget data
says what the widgets claim, the new widget kinds' validation, and the diagnoses that rest on
clever logic (a correct variant the checks must not refuse, a mistake only a second call shows).
"""
from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest

from linebyline.authoring.computed import compute_lesson, compute_review
from linebyline.course import default_course_path
from linebyline.course.dataset import names_file
from linebyline.course.widgets import KINDS, script_diff, step_race, value_graph
from linebyline.runtime import run_checks
from linebyline.runtime.library import CourseModules

from .conftest import the_course

COURSE = default_course_path()
FILES = Path(__file__).parent / "lessons"
LESSONS = {  # slug, title, unlocks, widget kind, the file the learner works in
    "7.1": ("what-gets-deleted", "What gets deleted", ((165, 165), (167, 167), (177, 177)),
            "script-diff", "train2.py"),
    "7.2": ("nodes-that-remember", "Nodes that remember", ((27, 27), (31, 31), (33, 33)),
            "program-runs", "nodes.py"),
    "7.3": ("children-and-local-grads", "Children and local grads", ((109, 110),),
            "value-graph", "softmax_graph.py"),
    "7.6": ("parameters-as-values", "Parameters as Values, zeroing grads",
            ((89, 89), (99, 100), (176, 176)), "line-chart", "parameters.py"),
    "7.7": ("same-numbers-many-times-slower", "Same numbers, many times slower", (),
            "step-race", "train2.py"),
}
# The lines of microgpt.py module 7 owns beyond 7.4's and 7.5's (the split).
NEW_LINES = {27, 31, 33, 89, 99, 100, 109, 110, 165, 167, 176, 177}


@cache
def course():
    return the_course()


@cache
def lesson(number):
    found = course().lesson(number)
    assert found is not None, f"lesson {number} is not in the course"
    return found


@cache
def computed(number):
    result = compute_lesson(lesson(number))
    assert not result.problems, result.problems
    return result


@pytest.fixture
def in_folder(tmp_path, monkeypatch):
    shutil.copyfile(names_file(), tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(number, source):
    exercise = lesson(number).exercise
    return run_checks(source, exercise.checks_source, lesson=number, filename=exercise.filename,
                      checks_filename=str(exercise.checks_path), reference=exercise.solution,
                      library=exercise.library)


def statuses(result):
    return {check.name: check.status for check in result.checks}


# --- the module as the course plans it ---------------------------------------------------------

@pytest.mark.parametrize("number", LESSONS)
def test_header(number):
    slug, title, unlocks, kind, filename = LESSONS[number]
    this = lesson(number)
    assert (this.slug, this.title, this.unlocks, this.explore.kind, this.exercise.filename) == (
        slug, title, unlocks, kind, filename)
    assert this.module == 7 and this.script == "train2.py"


def test_module_7_is_published_in_the_planned_order():
    module = next(m for m in course().modules if m.number == 7)
    assert [lesson.title for lesson in module.lessons] == list(module.planned)
    assert [lesson.number for lesson in module.lessons] == [f"7.{i}" for i in range(1, 8)]


def test_module_7_teaches_exactly_its_lines():
    """The five new lessons unlock the twelve lines module 7 owns, none twice, none of another
    module's; with modules 3 and 4 (graphs and the chain rule) it teaches every line of the
    Value class."""
    new = [line for number in LESSONS for line in lesson(number).unlocked_lines()]
    assert sorted(new) == sorted(NEW_LINES)
    others = set().union(*(other.unlocked_lines() for other in course().lessons()
                           if not other.number.startswith("7.")))
    assert not NEW_LINES & others
    module = set().union(*(lesson(f"7.{i}").unlocked_lines() for i in range(1, 8)))
    value_class = {n for n in range(25, 78) if course().program_lines()[n - 1].strip()}
    taught_before = set().union(*(other.unlocked_lines() for other in course().lessons()
                                  if other.module in (3, 4)))
    assert value_class <= module | taught_before


@pytest.mark.parametrize("number", LESSONS)
def test_untouched_starter_is_not_attempted_and_the_solution_passes(number, in_folder):
    exercise = lesson(number).exercise
    untouched = run_checks(exercise.starter, exercise.checks_source, lesson=number,
                           starter=exercise.starter, filename=exercise.filename,
                           reference=exercise.solution, library=exercise.library)
    assert untouched.status == "not-attempted"
    solved = run(number, exercise.solution)
    assert solved.status == "pass", [(c.name, c.message) for c in solved.checks]


@pytest.mark.parametrize("number", LESSONS)
def test_every_build_ends_with_a_differential_check(number):
    assert "twice each" in lesson(number).exercise.check_names[-1]


@pytest.mark.parametrize("number", LESSONS)
def test_widget_data_is_valid(number):
    kind = KINDS[lesson(number).explore.kind]
    if kind.check_data is not None and lesson(number).explore.compute:
        assert kind.check_data(computed(number).data) is None


# --- 7.1: what gets deleted -------------------------------------------------------------------

def test_7_1_train1_and_train2_print_the_same_losses_and_the_mistake_parts_at_step_2():
    data = computed("7.1").data
    assert len(data["steps"]) == 10
    for _step, one, two in data["steps"]:
        assert f"{one:.4f}" == f"{two:.4f}"
        assert abs(one - two) < 1e-12
    without = data["mistake"]
    assert without[0] == data["steps"][0][2]  # step 1 is before any update
    assert all(f"{a:.4f}" != f"{row[2]:.4f}" for a, row in zip(without[1:], data["steps"][1:]))


def test_7_1_counts_train1s_calculus_and_the_first_graph():
    facts = computed("7.1").facts
    train1 = (COURSE / "train1.py").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(train1) if line.startswith("def position_loss"))
    assert 35 <= facts["hand_lines"] <= 45  # the "~40 lines"; counted, not typed
    assert train1[start + 17].strip() == "return -math.log(probs[target])"
    assert facts["step1_nodes"] > 10_000 and facts["params"] == 3184
    # the quiz: the longest name (14 letters) fits block_size with its closing BOS
    assert facts["longest"] == 14 and facts["longest_positions"] <= facts["block_size"]


def test_7_1_a_correct_spelling_with_rounding_of_its_own_passes(in_folder):
    """log(1 / p) is -log(p) with other rounding: the checks compare to 1e-9, not bit for bit."""
    result = run("7.1", (FILES / "7.1" / "alt_log_of_inverse.py").read_text(encoding="utf-8"))
    assert result.status == "pass", [(c.name, c.message) for c in result.checks]


def test_7_1_backward_per_position_is_told_by_the_measured_move(in_folder):
    result = run("7.1", (FILES / "7.1" / "wrong_backward_per_position.py").read_text())
    first = next(c for c in result.checks if c.status != "pass")
    assert first.name == "backward() fills in every gradient train1 wrote by hand"
    assert "moved by" in first.message and "train1's hand-written chain rule says" in first.message


# --- 7.2: nodes that remember -----------------------------------------------------------------

def test_7_2_slots_make_a_value_smaller_and_the_widget_shows_it():
    facts = computed("7.2").facts
    assert facts["slots_bytes"] < facts["loose_bytes"]
    assert facts["slots_mb"] < facts["loose_mb"]
    variants = {v["label"]: v for v in computed("7.2").data["variants"]}
    assert "AttributeError" in variants["__slots__, grad 0 (microgpt)"]["runs"][0]["error"]
    assert variants["no __slots__"]["runs"][0]["error"] is None  # the typo passes silently
    assert "TypeError" in variants["grad = None"]["runs"][0]["error"]


def test_7_2_inf_is_tried_because_the_names_never_make_it(in_folder):
    result = run("7.2", (FILES / "7.2" / "wrong_grad_times_zero.py").read_text())
    assert [name for name, status in statuses(result).items() if status != "pass"] == [
        "every kind of node on new numbers, twice each"]


# --- 7.3: children and local grads -------------------------------------------------------------

@pytest.mark.parametrize("text, problem", [
    ("(a - 3.0).exp()", None),
    ("(a - b.data).exp() / ((a - b.data).exp() + (b - b.data).exp())", None),
    ("1 + 2", "plain-number arithmetic"),
    ("(a - 5).log()", "log of -4.0"),
    ("a ** b", "plain number as the power"),
    ("q * 2", "q is not one of the given Values"),
    ("a.grad", "use the given names"),
    ("a * b * c * a * b * c * a * b * c * a * b * c * a * b * c * a * b", "the widget draws at most"),
])
def test_value_graph_validation_builds_each_expression(text, problem):
    found = value_graph.expression_problem(text, {"a": 1.0, "b": 2.0, "c": 3.0})
    assert (found is None) if problem is None else (problem in found), found


def test_7_3_softmax_counts_quoted_are_computed():
    facts = computed("7.3").facts
    assert facts == {"softmax_nodes": 19, "softmax_27": 163}
    assert "{{softmax_27}}" in lesson("7.3").where


def test_7_3_a_list_kept_between_calls_is_told_on_the_second_call(in_folder):
    result = run("7.3", (FILES / "7.3" / "wrong_exps_kept.py").read_text())
    first = next(c for c in result.checks if c.status != "pass")
    assert "returned 6 Values for 3 logits" in first.message


def test_7_3_the_max_as_a_value_is_a_correct_spelling(in_folder):
    """max by key keeps biggest a Value: one more path, the same slopes (they add up to 0)."""
    result = run("7.3", (FILES / "7.3" / "alt_max_by_key.py").read_text())
    assert result.status == "pass", [(c.name, c.message) for c in result.checks]


# --- 7.6: parameters as Values, zeroing grads ---------------------------------------------------

def test_7_6_without_zeroing_the_grads_pile_up_and_the_loss_blows_up(in_folder):
    views, wrong = computed("7.6").data["views"], computed("7.6").data["mistake_views"]
    right_sizes = [y for _x, y in views[1]["series"][0]["points"]]
    piled_sizes = [y for _x, y in wrong[1]["series"][1]["points"]]
    assert piled_sizes[0] == right_sizes[0] and piled_sizes[-1] > 10 * right_sizes[-1]
    right = [y for _x, y in views[0]["series"][0]["points"]]
    piled = [y for _x, y in wrong[0]["series"][1]["points"]]
    assert max(piled) > 1.5 * max(right)
    assert computed("7.6").facts["left_nonzero"] == first_name_grads_left()


def first_name_grads_left():
    """How many of a fresh train2's grads the first name's backward() leaves non-zero."""
    namespace = {"__name__": "not_main"}  # the solution as the checks run it, its demo skipped
    exercise = lesson("7.6").exercise
    with CourseModules(exercise.library):  # the course's modules its starter imports
        exec(compile(exercise.solution, "solution.py", "exec"), namespace)
    docs, chars, bos = namespace["docs"], namespace["chars"], namespace["BOS"]
    tokens = [bos] + [chars.index(ch) for ch in docs[0]] + [bos]
    n = min(namespace["block_size"], len(tokens) - 1)
    softmax, mlp = namespace["softmax"], namespace["mlp"]
    loss = (1 / n) * sum(-softmax(mlp(tokens[pos]))[tokens[pos + 1]].log() for pos in range(n))
    loss.backward()
    return sum(1 for p in namespace["params"] if p.grad != 0)


def test_7_6_zeroing_before_backward_is_a_correct_order(in_folder):
    result = run("7.6", (FILES / "7.6" / "alt_zero_first.py").read_text())
    assert result.status == "pass", [(c.name, c.message) for c in result.checks]


def test_7_6_no_zeroing_is_also_what_a_second_call_shows(in_folder):
    result = run("7.6", (FILES / "7.6" / "wrong_no_zeroing.py").read_text())
    last = result.checks[-1]
    assert last.status == "fail" and "Called a second time on the same input" in last.message


# --- 7.7: same numbers, many times slower ------------------------------------------------------

def test_7_7_counts_come_from_the_lessons_code():
    facts = computed("7.7").facts
    assert (facts["mlp"], facts["softmax"], facts["loss"]) == (5659, 163, 3)
    assert facts["per_position"] == 5825
    assert facts["step1"] == computed("7.1").facts["step1_nodes"]
    rows = computed("7.7").data["steps"]
    assert rows[0]["values"] == facts["step1"]
    assert all(row["values"] > 10_000 for row in rows)


def test_7_7_a_size_written_in_fails_only_on_other_sizes(in_folder):
    result = run("7.7", (FILES / "7.7" / "wrong_sixty_four.py").read_text())
    assert [name for name, status in statuses(result).items() if status != "pass"] == [
        "mlp on small models, twice each"]


@pytest.mark.parametrize("data, problem", [
    ({"steps": [[1, 3.3, 3.3]]}, None),
    ({"steps": [[2, 3.3, 3.3]]}, "step 1 must be"),
    ({"steps": [[1, 3.3, 3.3]], "mistake": [3.3]}, "needs its `mistake_note`"),
    ({"steps": [[1, 3.3, 3.3]], "mistake": [3.3, 3.1], "mistake_note": "x"}, "one loss"),
])
def test_script_diff_data(data, problem):
    found = script_diff.check_data(data)
    assert (found is None) if problem is None else (problem in found), found


@pytest.mark.parametrize("row, problem", [
    ({"step": 1, "doc": "emma", "positions": 5, "values": 30000, "leaves": 3000, "tuples": 9},
     None),
    ({"step": 1, "doc": "emma", "positions": 5, "values": 30, "leaves": 30, "tuples": 9},
     "leaves must be fewer"),
    ({"step": 1, "doc": "", "positions": 5, "values": 30, "leaves": 3, "tuples": 9},
     "must say its number"),
])
def test_step_race_data(row, problem):
    found = step_race.check_data({"steps": [row]})
    assert (found is None) if problem is None else (problem in found), found


# --- the review --------------------------------------------------------------------------------

def test_the_review_answers_are_computed():
    module = next(m for m in course().modules if m.number == 7)
    assert module.review is not None
    answers = list(compute_review(module).answers.values())
    assert answers == [0.6, 11.3891]
