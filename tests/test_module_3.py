"""Module 3, computation graphs (lessons 3.1-3.5): the exercises both ways, every known mistake,
the computed quiz answers, the widget parameters, and the figures the lessons quote about
microgpt's graph, recomputed from microgpt.py on both names files.

Learner files for these lessons live in tests/lessons/3.1 ... 3.5 (tests/test_learner_files.py).
"""
from __future__ import annotations

import collections
import re
from functools import cache

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import apply_edits, default_course_path
from linebyline.course.dataset import BUNDLED_NAMES
from linebyline.runtime import collect_checks, run_checks
from linebyline.runtime.library import CourseModules
from linebyline.runtime.runner import LearnerCode

from .conftest import PUBLISHED_NAMES, replace, the_course
from .test_loader import errors_of, lesson_yaml, line_of

LESSONS = {  # number: (title, unlocks, original, file, checks, quiz kinds, computed answers)
    "3.1": ("Expressions as graphs", ((25, 26), (29, 30), (32, 32)), ((29, 30), (33, 34), (36, 36)),
            "value.py", 5, ["choice", "predict", "predict", "choice"], [-3.0, 6.0]),
    "3.2": ("Operator overloading", ((36, 36), (40, 40), (55, 61)), ((40, 40), (44, 44), (51, 57)),
            "operators.py", 7, ["choice", "predict", "predict", "choice"], [4.0, -4.0]),
    "3.3": ("Topological sort (socks before shoes)", ((66, 66), (69, 71)), ((62, 62), (65, 67)),
            "topological_sort.py", 5, ["choice", "predict", "predict", "choice"], [4.0, 5.0]),
    "3.4": ("Recursion and visited", ((64, 64), (67, 68)), ((60, 61), (63, 64)),
            "visited.py", 6, ["predict", "predict", "choice", "choice"], [63.0, 6.0]),
    "3.5": ("Walking it in reverse", ((63, 63), (73, 73), (75, 75)), ((59, 59), (68, 68), (70, 70)),
            "backward_paths.py", 4, ["choice", "predict", "predict", "choice"], [2.0, 3.0]),
}
KINDS = {"3.1": "expression-graph", "3.2": "expression-graph", "3.3": "sort-game",
         "3.4": "graph-walk", "3.5": "graph-walk"}


@cache
def course():
    return the_course()


def lesson(number):
    found = course().lesson(number)
    assert found is not None, f"lesson {number} is not in the course"
    return found


def run(number, source, starter=None):
    exercise = lesson(number).exercise
    return run_checks(source, exercise.checks_source, lesson=number, starter=starter,
                      filename=exercise.filename, checks_filename=str(exercise.checks_path),
                      reference=exercise.solution, library=exercise.library)


@pytest.mark.parametrize("number", LESSONS)
def test_header_matches_the_plan(number):
    this = lesson(number)
    title, unlocks, original, filename, checks, kinds, _ = LESSONS[number]
    assert this.title == title
    assert this.module == 3 and this.script == "train2.py"
    assert this.unlocks == unlocks and this.original == original
    assert this.exercise.filename == filename
    assert len(this.exercise.check_names) == checks
    assert this.explore.kind == KINDS[number]
    assert "https://karpathy.github.io/2026/02/12/microgpt/" in this.watch
    assert 300 <= len(this.watch.split()) <= 700


@pytest.mark.parametrize("number", LESSONS)
def test_the_solution_passes_and_the_starter_is_not_attempted(number, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exercise = lesson(number).exercise
    assert run(number, exercise.solution).status == "pass"
    assert run(number, exercise.starter, starter=exercise.starter).status == "not-attempted"
    edited = run(number, exercise.starter)
    assert edited.status == "fail", edited.checks  # the starter runs: it fails, it does not crash


@pytest.mark.parametrize("number, index", [(n, i) for n in LESSONS
                                           for i in range(len(lesson(n).exercise.mistakes))])
def test_each_known_mistake_gets_its_own_message(number, index):
    mistakes = lesson(number).exercise.mistakes
    mistake = mistakes[index]
    result = run(number, apply_edits(lesson(number).exercise.solution, mistake.edits))
    first = next(check for check in result.checks if check.status != "pass")
    assert (first.name, first.message) == (mistake.check, mistake.message)
    assert not re.search(r"0x[0-9a-f]+", first.message)  # no object ids
    assert [m.message for m in mistakes].count(mistake.message) == 1


@pytest.mark.parametrize("number", LESSONS)
def test_at_least_three_known_mistakes_and_graduated_hints(number):
    exercise = lesson(number).exercise
    assert len(exercise.mistakes) >= 3
    assert 3 <= len(exercise.hints) <= 4
    removed = [line.strip() for line in exercise.solution.split("\n")
               if line.strip() and line not in exercise.starter.split("\n")
               and not line.strip().startswith("#")]
    code_only = [line.split("  #")[0].strip() for line in removed]
    # the last hint nearly gives it away; the first does not give any removed line whole
    assert any(line in exercise.hints[-1] for line in code_only)
    assert not any(line in exercise.hints[0] for line in code_only if len(line) > 12)


@pytest.mark.parametrize("number", LESSONS)
def test_the_codealong_turns_the_starter_into_the_solution(number):
    exercise = lesson(number).exercise
    text = exercise.starter
    for chapter in exercise.codealong:
        assert text.count(chapter.find) == 1
        text = text.replace(chapter.find, chapter.type, 1)
    assert text == exercise.solution


@pytest.mark.parametrize("number", LESSONS)
def test_quiz_answers_are_computed(number):
    this = lesson(number)
    assert [question.kind for question in this.quiz] == LESSONS[number][5]
    assert list(compute_lesson(this).answers.values()) == LESSONS[number][6]
    for question in this.quiz:
        if question.kind == "choice":
            assert sum(choice.correct for choice in question.choices) == 1
            assert all(choice.explain for choice in question.choices)


# --- diagnoses that rest on clever logic -----------------------------------------------------

def test_3_4_tells_a_set_never_asked_from_one_never_filled():
    solution = lesson("3.4").exercise.solution
    never_asked = solution.replace("        if node not in seen:\n            seen.add(node)\n",
                                   "        seen.add(node)\n        if True:\n")
    never_filled = solution.replace("            seen.add(node)\n", "            pass\n")
    asked = run("3.4", never_asked).checks[0].message
    filled = run("3.4", never_filled).checks[0].message
    assert "never asks whether it is there already" in asked
    assert "never puts anything into seen" in filled


def test_3_4_tells_a_forgotten_append_from_a_test_the_wrong_way_round():
    """3.4 has the learner write visit's body again: an empty list can come from an `if` that
    skips every Value or from a visit that never appends; the two get different messages."""
    solution = lesson("3.4").exercise.solution
    no_append = solution.replace("            order.append(node)\n", "")
    inverted = solution.replace("if node not in seen:", "if node in seen:")
    forgot = run("3.4", no_append).checks[0].message
    turned = run("3.4", inverted).checks[0].message
    assert "nothing puts a Value into order" in forgot and "wrong way round" not in forgot
    assert "wrong way round" in turned and "nothing puts a Value" not in turned


def test_3_4_accepts_a_dict_but_not_a_list():
    solution = lesson("3.4").exercise.solution
    as_dict = solution.replace("order, seen = [], set()", "order, seen = [], {}").replace(
        "seen.add(node)", "seen[node] = True")
    assert run("3.4", as_dict).status == "pass"
    as_list = solution.replace("order, seen = [], set()", "order, seen = [], []").replace(
        "seen.add(node)", "seen.append(node)")
    first = next(c for c in run("3.4", as_list).checks if c.status != "pass")
    assert first.name == "seen is a set" and "one by one" in first.message


def test_3_4_leaves_value_as_it_found_it():
    """The checks swap Value's __hash__ and __eq__ for counting ones; they must put them back."""
    exercise = lesson("3.4").exercise
    namespace = {"__name__": "learner"}
    with CourseModules(exercise.library):  # the starter imports its Value from the course library
        exec(compile(exercise.solution, "visited.py", "exec"), namespace)
        checks = collect_checks(exercise.checks_source)
        for name, function in checks:
            if "new graphs" not in name:  # the differential check needs a reference; it swaps nothing
                function(LearnerCode(namespace))
    assert "__hash__" not in namespace["Value"].__dict__ and "__eq__" not in namespace["Value"].__dict__


def test_3_3_tells_the_classic_orders_apart():
    solution = lesson("3.3").exercise.solution
    reverse = solution.replace("        order.append(node)\n", "        order.insert(0, node)\n")
    message = run("3.3", reverse).checks[1].message
    assert "back to front" in message and "[e, b, a]" in message


def test_3_5_tells_a_placeholder_walk_from_a_late_sort():
    solution = lesson("3.5").exercise.solution
    placeholder = solution.replace("for node in reversed(order):", "for node in []:")
    assert "the loop walks nothing yet" in run("3.5", placeholder).checks[0].message


# --- widget parameters -------------------------------------------------------------------------

def test_expression_graph_refuses_an_unknown_mistake(copy):
    path = lesson_yaml(copy, "3.2")
    replace(path, "mistakes: [rsub-flipped, no-radd, no-wrap]", "mistakes: [rsub-flipped, no-rmul]")
    assert errors_of(copy) == [f"{path}:{line_of(path, 'no-rmul')}: explore params: unknown mistake "
                               "'no-rmul' (known: rsub-flipped, no-radd, no-wrap)"]


def test_expression_graph_refuses_mistakes_when_drawing_as_written(copy):
    path = lesson_yaml(copy, "3.2")
    replace(path, "build: value", "build: written")
    assert errors_of(copy) == [f"{path}:{line_of(path, 'mistakes:')}: explore params: `mistakes` only "
                               "apply with `build: value`"]


def test_sort_game_refuses_rules_in_a_circle(copy):
    path = lesson_yaml(copy, "3.3")
    replace(path, "- {name: underwear}", "- {name: underwear, needs: [shoes]}")
    errors = errors_of(copy)
    assert len(errors) == 1 and "the rules go round in a circle" in errors[0]


def test_sort_game_refuses_an_item_the_goal_does_not_need(copy):
    path = lesson_yaml(copy, "3.3")
    replace(path, "- {name: out the door, needs: [shoes, coat]}",
            "- {name: out the door, needs: [shoes, coat]}\n          - {name: hat}")
    errors = errors_of(copy)
    assert len(errors) == 1 and "does not need 'hat'" in errors[0]


def test_sort_game_refuses_a_need_that_is_no_item(copy):
    path = lesson_yaml(copy, "3.3")
    replace(path, "needs: [socks, trousers]", "needs: [sock, trousers]")
    errors = errors_of(copy)
    assert any("'shoes' needs 'sock', which is not an item" in error for error in errors)


def test_graph_walk_ladder_only_in_visit_mode(copy):
    path = lesson_yaml(copy, "3.4")
    replace(path, "mode: visit", "mode: paths")
    assert errors_of(copy) == [f"{path}:{line_of(path, 'ladder:')}: explore params: `ladder` only goes "
                               "with `mode: visit`"]


def test_graph_walk_refuses_an_unknown_mode(copy):
    path = lesson_yaml(copy, "3.5")
    replace(path, "mode: paths", "mode: count")
    assert errors_of(copy) == [f"{path}:{line_of(path, 'mode: count')}: explore params: `mode` must be one "
                               "of visit, paths, not 'count'"]


# --- the figures the lessons quote, recomputed from microgpt.py ----------------------------------

def first_step_graph(names_path, monkeypatch, tmp_path, pick=lambda docs: docs[0]):
    """microgpt.py's loss for one training step (the first, unless `pick` chooses another of
    the shuffled names), and the calls made building it."""
    (tmp_path / "input.txt").write_bytes(names_path.read_bytes())
    monkeypatch.chdir(tmp_path)
    source = (default_course_path() / "microgpt.py").read_text(encoding="utf-8")
    head = source.split("for step in range(num_steps):")[0]
    namespace = {"__name__": "microgpt"}
    exec(compile(head, "microgpt.py", "exec"), namespace)
    Value = namespace["Value"]
    calls = collections.Counter()
    for name in ("__radd__", "__rmul__", "__neg__", "__sub__", "__truediv__"):
        method = getattr(Value, name)

        def counted(*args, _method=method, _name=name):
            calls[_name] += 1
            return _method(*args)

        setattr(Value, name, counted)
    docs, BOS, chars = namespace["docs"], namespace["BOS"], namespace["chars"]
    name = pick(docs)
    tokens = [BOS] + [chars.index(ch) for ch in name] + [BOS]
    n = min(namespace["block_size"], len(tokens) - 1)
    keys, values = [[] for _ in range(namespace["n_layer"])], [[] for _ in range(namespace["n_layer"])]
    losses = []
    for pos in range(n):
        probs = namespace["softmax"](namespace["gpt"](tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    loss = (1 / n) * sum(losses)
    return loss, namespace["params"], name, calls


@pytest.mark.parametrize("names_path", [BUNDLED_NAMES, PUBLISHED_NAMES], ids=["bundled", "published"])
def test_the_figures_quoted_about_microgpts_graph(names_path, monkeypatch, tmp_path):
    loss, params, name, calls = first_step_graph(names_path, monkeypatch, tmp_path)
    order, seen = [], set()
    depth = {}

    def visit(node):
        if node not in seen:
            seen.add(node)
            for child in node._children:
                visit(child)
            order.append(node)
            depth[node] = 1 + max((depth[c] for c in node._children), default=0)

    visit(loss)
    paths = {loss: 1}  # 3.5's walk: paths from each node up to the loss
    for node in reversed(order):
        for child in node._children:
            paths[child] = paths.get(child, 0) + paths[node]
    arrows = sum(len(node._children) for node in order)
    without_seen = sum(paths.values())  # visit without seen is called once per path to a node

    assert 59_000 <= len(order) <= 95_000  # "60,000 to 95,000 Values" for one name
    assert 255 <= depth[loss] <= 270  # "about 260 to 270 Values long"
    assert max(paths[p] for p in params if p in paths) > 60e12  # "more than 60 trillion paths"
    assert calls["__radd__"] > 1000 and calls["__rmul__"] == 1  # 3.2's where
    assert calls["__neg__"] == len(name) + 1 and 100 < calls["__sub__"] and 100 < calls["__truediv__"]
    if len(name) == 6:  # 3.4 quotes a six-letter name
        assert arrows + 1 == 107_061
        assert round(len(order), -2) == 59_600
        assert round(without_seen / 1e15) == 24
    else:
        assert 2e16 <= without_seen <= 9e16  # "tens of quadrillions"


def _sorted(loss):
    order, seen = [], set()

    def visit(node):
        if node not in seen:
            seen.add(node)
            for child in node._children:
                visit(child)
            order.append(node)

    visit(loss)
    return order


def test_the_figures_the_lessons_quote_are_computed_from_microgpts_own_graph(monkeypatch, tmp_path):
    """3.1, 3.3, 3.4 and 3.5 quote microgpt's graph through their `facts`, which run the
    program itself: recomputed here, independently, on the shortest and the longest of the
    first ten names it trains on, they must agree, and the texts must quote them."""
    shortest, *_ = first_step_graph(BUNDLED_NAMES, monkeypatch, tmp_path,
                                    lambda docs: min(docs[:10], key=len))
    longest, *_ = first_step_graph(BUNDLED_NAMES, monkeypatch, tmp_path,
                                   lambda docs: max(docs[:10], key=len))
    small, big = _sorted(shortest), _sorted(longest)
    sizes = {"fewest": round(len(small), -3), "most": round(len(big), -3)}
    for number in ("3.1", "3.3", "3.5"):
        facts = compute_lesson(lesson(number)).facts
        assert {key: facts[key] for key in sizes} == sizes, number
        assert "{{fewest}}" in lesson(number).lead + lesson(number).where
    arrows = 1 + sum(len(node._children) for node in small)
    facts = compute_lesson(lesson("3.4")).facts
    assert (facts["values"], facts["calls"]) == (len(small), arrows)
    assert "{{calls}}" in lesson("3.4").watch and "{{calls}}" in lesson("3.4").where
    assert facts["depth"] == compute_lesson(lesson("3.3")).facts["shallowest"]


def test_the_calls_3_2_quotes_are_those_of_the_first_step(monkeypatch, tmp_path):
    _, _, name, calls = first_step_graph(BUNDLED_NAMES, monkeypatch, tmp_path)
    facts = compute_lesson(lesson("3.2")).facts
    assert facts == {"name": name, "radd": calls["__radd__"], "sub": calls["__sub__"],
                     "truediv": calls["__truediv__"], "neg": calls["__neg__"],
                     "rmul": calls["__rmul__"]}
