"""Module 5, a neural next-letter model: what its lessons promise, pinned down.

The lessons load as the brief lays them out; every learner's file is train1.py (or microgpt.py)
line for line; the widgets' computed data are the real numbers of train1.py, worked out again
here independently; the widget kinds refuse bad parameters and bad data; and the diagnoses that
need clever logic (which order the matrices were drawn in, which shape a count assumed) say the
right thing for cases the lesson files do not spell out.
"""
from __future__ import annotations

import math
import random
import re
import shutil
from pathlib import Path

import pytest
import yaml

from linebyline.authoring.computed import compute_lesson
from linebyline.course import apply_edits, default_course_path
from linebyline.course.dataset import names_file
from linebyline.course.errors import CourseError
from linebyline.course.fields import Fields
from linebyline.course.widgets import KINDS
from linebyline.course.yamlfile import load
from linebyline.runtime import run_checks

COURSE = default_course_path()
PLAN = {  # number: (folder, title, unlocks, original, widget kind, learner's file)
    "5.1": ("5.1-matrices-and-random-init", "Matrices and random init", ((80, 80), (82, 83), (88, 88)),
            ((74, 80),), "matrix-heatmap", "params.py"),
    "5.2": ("5.2-embedding-lookup", "Embedding lookup", (), (), "matrix-heatmap", "embedding.py"),
    "5.3": ("5.3-linear", "linear", ((103, 105),), ((94, 95),), "linear-steps", "linear.py"),
    "5.4": ("5.4-relu", "ReLU", (), (), "linear-steps", "relu.py"),
    "5.5": ("5.5-softmax", "Softmax (and why subtract the max)", ((108, 108), (111, 112)),
            ((97, 101),), "softmax-playground", "softmax.py"),
    "5.6": ("5.6-counting-3184-parameters", "Counting 3,184 parameters", (), (), "param-counter",
            "count.py"),
}


# --- train1.py's start, worked out here on its own ---

def _train1_weights():
    docs = [line.strip() for line in open(names_file(), encoding="utf-8") if line.strip()]
    random.seed(42)
    random.shuffle(docs)
    chars = sorted(set("".join(docs)))
    vocab_size = len(chars) + 1

    def draw(rows, cols):
        return [[random.gauss(0, 0.08) for _ in range(cols)] for _ in range(rows)]

    wte = draw(vocab_size, 16)
    fc1 = draw(64, 16)
    fc2 = draw(vocab_size, 64)
    return chars, {"wte": wte, "mlp_fc1": fc1, "mlp_fc2": fc2}


REAL = _train1_weights()


def _logits(token):
    _, w = REAL
    x = w["wte"][token]
    h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in w["mlp_fc1"]]
    return [sum(a * b for a, b in zip(row, h)) for row in w["mlp_fc2"]]


@pytest.fixture(scope="module")
def lessons(course):
    return {number: course.lesson(number) for number in PLAN}


@pytest.fixture
def in_learner_folder(tmp_path, monkeypatch):
    shutil.copyfile(names_file(), tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)


def _first_not_passing(lesson, source):
    exercise = lesson.exercise
    result = run_checks(source, exercise.checks_source, lesson=lesson.number,
                        starter=exercise.starter, filename=exercise.filename, reference=exercise.solution,
                        library=exercise.library)
    return next((check for check in result.checks if check.status != "pass"), None)


# --- the lessons, as planned ---

@pytest.mark.parametrize("number", PLAN)
def test_lesson_is_as_planned(lessons, course, number):
    folder, title, unlocks, original, kind, filename = PLAN[number]
    lesson = lessons[number]
    assert lesson is not None and lesson.path.name == folder
    module = next(m for m in course.modules if m.number == 5)
    assert lesson.title == title == module.planned[int(number.split(".")[1]) - 1]
    assert lesson.script == "train1.py"
    assert lesson.unlocks == unlocks
    assert lesson.original == original
    assert lesson.explore.kind == kind
    assert lesson.exercise.filename == filename
    assert 3 <= len(lesson.exercise.hints) <= 4
    assert len(lesson.exercise.mistakes) >= 3
    assert 3 <= len(lesson.quiz) <= 5
    assert 300 <= len(lesson.watch.split()) <= 700
    if not unlocks:  # a lesson with no line of its own says which lines it prepares
        assert "prepares line" in lesson.where


def _program_lines(name):
    return {line.strip() for line in (COURSE / name).read_text("utf-8").splitlines()}


@pytest.mark.parametrize("number", PLAN)
def test_every_line_of_the_file_is_a_real_line(lessons, number):
    """Not only the lines the learner writes: the whole file, up to the demo, is train1.py,
    except where it calls train1.py's finished lines from the course library (given.train1)
    instead of showing them, because a later lesson asks for them."""
    real = _program_lines("train1.py") | _program_lines("microgpt.py")
    solution = lessons[number].exercise.solution
    body = solution.split('if __name__ == "__main__":')[0]
    given = [line for line in body.splitlines() if line.startswith("from given.train1 import ")]
    assert len(given) == 1
    names = given[0].removeprefix("from given.train1 import ").split(", ")
    calls = re.compile(r"\b(" + "|".join(names) + r")\(")
    made_up = [line for line in body.splitlines() if line.strip() and line.strip() not in real
               and not line.lstrip().startswith("#") and line not in given
               and not calls.search(line) and line.strip() != "return x, h, logits"]
    assert made_up == []


@pytest.mark.parametrize("number", PLAN)
def test_starter_and_solution_share_the_demo(lessons, number):
    exercise = lessons[number].exercise
    demo = exercise.solution[exercise.solution.index('if __name__ == "__main__":'):]
    assert exercise.starter.endswith(demo)


# --- the widgets' computed data are train1.py's real numbers ---

def test_the_heatmap_of_5_1_shows_the_real_wte(lessons):
    data = compute_lesson(lessons["5.1"]).data
    chars, weights = REAL
    assert data["rows"] == chars + ["BOS"]
    real = data["options"][0]
    assert "train1.py" in real["label"]
    # std × draw, as the widget shows it at std 0.08, is exactly the real wte
    assert [[0 + z * 0.08 for z in row] for row in real["z"]] == weights["wte"]
    # the other options start the stream elsewhere, so every number differs
    for other in data["options"][1:]:
        assert all(a != b for ra, rb in zip(other["z"], real["z"]) for a, b in zip(ra, rb))
    random.seed(42)
    assert data["options"][1]["z"][0][0] == random.gauss(0, 1.0)


def test_the_lookup_of_5_2_shows_the_real_wte(lessons):
    data = compute_lesson(lessons["5.2"]).data
    assert data["matrix"] == REAL[1]["wte"]
    assert data["rows"][-1] == "BOS" and len(data["rows"]) == len(data["matrix"])


@pytest.mark.parametrize("number", ["5.3", "5.4"])
def test_the_real_layer_of_5_3_and_5_4_is_mlp_fc1(lessons, number):
    data = compute_lesson(lessons[number]).data
    assert data["x"] == REAL[1]["wte"]
    assert data["w"] == REAL[1]["mlp_fc1"]
    assert data["name"] == "weights['mlp_fc1']"


def test_the_softmax_preset_is_the_models_logits_after_bos(lessons):
    data = compute_lesson(lessons["5.5"]).data
    chars, _ = REAL
    bos = len(chars)
    assert data["labels"] == chars + ["BOS"]
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(data["logits"], _logits(bos)))


def test_the_counter_of_5_6_counts_3184_and_729(lessons):
    data = compute_lesson(lessons["5.6"]).data
    assert data["total"] == 3184
    assert data["compare"] == 729
    assert [(m["name"], m["rows"], m["cols"], m["count"]) for m in data["matrices"]] == [
        ("wte", 27, 16, 432), ("mlp_fc1", 64, 16, 1024), ("mlp_fc2", 27, 64, 1728)]
    params = lessons["5.6"].explore.params
    sizes = {"vocab_size": 27, "n_embd": 16, "hidden": 64}
    assert [sizes[m["rows"]] * sizes[m["cols"]] for m in params["matrices"]] == [432, 1024, 1728]


def test_computed_quiz_answers(lessons):
    answers = {number: list(compute_lesson(lesson).answers.values())
               for number, lesson in lessons.items()}
    assert answers["5.1"] == [17, 1728]
    assert answers["5.2"] == [4, 4]
    assert answers["5.3"] == [5, 432]
    assert answers["5.4"][0] == 5.5 and 20 <= answers["5.4"][1] <= 44
    assert answers["5.5"][0] == pytest.approx(0.75)
    assert answers["5.5"][1] == pytest.approx(math.log(27), abs=0.02)
    assert answers["5.6"][0] == 1336 and answers["5.6"][1] == pytest.approx(100 * 1728 / 3184)


# --- the widget kinds refuse what they cannot show ---

def _validate(kind, text, folder):
    path = folder / "params.yaml"
    path.write_text(text, encoding="utf-8")
    errors: list[CourseError] = []
    KINDS[kind].validate(Fields(str(path), load(path), errors))
    return [str(error) for error in errors]


@pytest.mark.parametrize("kind, text, says", [
    ("matrix-heatmap", "mode: sideways\nname: w\nscale: 0.2", "`mode` must be one of"),
    ("matrix-heatmap", "mode: lookup\nname: w\nscale: 0.2\nstd: {min: 0, max: 1, step: 0.1, start: 0.5}",
     "only for mode init"),
    ("matrix-heatmap", "mode: init\nname: w\nscale: 0\nstd: {min: 0, max: 1, step: 0.1, start: 0.5}",
     "must be above 0"),
    ("matrix-heatmap", "mode: init\nname: w\nscale: 1\nstd: {min: 0, max: 1, step: 0.1, start: 2}",
     "`start` must lie between"),
    ("linear-steps", "x: [1, 2]\nw: [[1, 2, 3]]", "as long as `x`"),
    ("linear-steps", "x: [1, 2]\nw: [[1, 2]]\ncolour: red", "unknown key `colour`"),
    ("softmax-playground", "logits: []", "1 to 30 numbers"),
    ("softmax-playground", "logits: [1, 2]\npresets:\n  - {label: x, logits: [1, true]}", "only numbers"),
    ("param-counter", "knobs: [{name: n, label: n, min: 1, max: 9, start: 4}]\n"
                      "matrices: [{name: a, rows: m, cols: n}]", "must name a knob or vocab_size"),
    ("param-counter", "knobs: [{name: n, label: n, min: 1, max: 9, start: 4, follows: h, times: 2}]\n"
                      "matrices: [{name: a, rows: n, cols: n}]", "must name an earlier knob"),
    ("param-counter", "knobs: [{name: n, label: n, min: 1, max: 9, start: 4}]\n"
                      "matrices: [{name: a, rows: n, cols: n}]\n"
                      "mistake: {label: x, matrix: b, rows: n, cols: n}", "must name one of the matrices"),
])
def test_widget_kinds_refuse_bad_params(kind, text, says, tmp_path):
    messages = _validate(kind, text, tmp_path)
    assert any(says in message for message in messages), messages


@pytest.mark.parametrize("number", PLAN)
def test_the_lessons_params_are_accepted(lessons, number, tmp_path):
    lesson = lessons[number]
    assert _validate(lesson.explore.kind, yaml.safe_dump(lesson.explore.params), tmp_path) == []


@pytest.mark.parametrize("kind, data, says", [
    ("matrix-heatmap", {"rows": ["a"], "matrix": [[1.0], [2.0]]}, "one per label"),
    ("matrix-heatmap", {"rows": ["a"], "options": [{"label": "x", "z": [[float("nan")]]}]}, "finite"),
    ("matrix-heatmap", {"rows": ["a"]}, "needs `options`"),
    ("linear-steps", {"rows": ["a"], "x": [[1.0, 2.0]], "w": [[1.0]], "name": "w"}, "as long as"),
    ("softmax-playground", {"label": "x", "labels": ["a"], "logits": [1.0, 2.0]}, "name each"),
    ("param-counter", {"vocab_size": 27, "matrices": [{"name": "a", "rows": 2, "cols": 3, "count": 5}],
                       "total": 5}, "rows × cols is not its count"),
    ("param-counter", {"vocab_size": 27, "matrices": [{"name": "a", "rows": 2, "cols": 3, "count": 6}],
                       "total": 7}, "sum of the counts"),
])
def test_widget_kinds_refuse_bad_data(kind, data, says):
    problem = KINDS[kind].check_data(data)
    assert problem is not None and says in problem, problem


# --- diagnoses that need clever logic ---

def test_matrices_drawn_in_any_other_order_are_named_in_that_order(lessons, in_learner_folder):
    lesson = lessons["5.1"]
    source = apply_edits(lesson.exercise.solution, ())
    source = source.replace(
        "weights = {'wte': matrix(vocab_size, n_embd), 'mlp_fc1': matrix(4 * n_embd, n_embd),\n"
        "           'mlp_fc2': matrix(vocab_size, 4 * n_embd)}",
        "weights = {'mlp_fc2': matrix(vocab_size, 4 * n_embd), 'wte': matrix(vocab_size, n_embd),\n"
        "           'mlp_fc1': matrix(4 * n_embd, n_embd)}")
    first = _first_not_passing(lesson, source)
    assert first.name == "all the numbers follow from random.seed(42)"
    assert "drawn in the order mlp_fc2, wte, mlp_fc1" in first.message
    assert "draws 1729 to 2160" in first.message  # wte came after mlp_fc2's 1,728 draws


def test_a_matrix_that_ignores_its_std_argument(lessons, in_learner_folder):
    lesson = lessons["5.1"]
    source = lesson.exercise.solution.replace("random.gauss(0, std)", "random.gauss(0, 0.08)")
    first = _first_not_passing(lesson, source)
    assert first.name == "the numbers are random.gauss(0, std), drawn row by row"
    assert "ignores its `std` argument" in first.message


def test_a_lookup_that_only_works_for_small_ids(lessons, in_learner_folder):
    lesson = lessons["5.2"]
    source = lesson.exercise.solution.replace("x = weights['wte'][token]", "x = weights['wte'][token % 16]")
    first = _first_not_passing(lesson, source)
    assert first.name == "every token gets its own row"
    assert "starting with id 16 (q)" in first.message


def test_a_count_from_a_wrong_shape_of_mlp_fc1(lessons, in_learner_folder):
    lesson = lessons["5.6"]
    source = lesson.exercise.solution.replace(
        "sum(len(row) for mat in weights.values() for row in mat)",
        "vocab_size * n_embd + n_embd * n_embd + vocab_size * 4 * n_embd")
    first = _first_not_passing(lesson, source)
    assert first.name == "the count matches the matrices"
    assert 'printed "parameters: 2416"' in first.message
    assert "wte 27 × 16, mlp_fc1 64 × 16, mlp_fc2 27 × 64" in first.message


def test_softmax_that_overflows_only_on_very_negative_logits(lessons, in_learner_folder):
    """Subtracting the max only when it is positive still fails on [-1000, -1001, -1002]."""
    lesson = lessons["5.5"]
    source = lesson.exercise.solution.replace(
        "biggest = max(logits)  # subtracting the max keeps exp() from overflowing",
        "biggest = max(max(logits), 0)")
    first = _first_not_passing(lesson, source)
    assert first.name == "large logits do not overflow"
    assert "ZeroDivisionError" in first.message and "softmax([-1000.0, -1001.0, -1002.0])" in first.message


def test_the_checks_follow_input_txt(lessons, tmp_path, monkeypatch):
    """A different names file (fewer letters) changes the expected shapes, and the checks agree."""
    (tmp_path / "input.txt").write_text("abba\ncab\nbac\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for number in PLAN:
        lesson = lessons[number]
        result = run_checks(lesson.exercise.solution, lesson.exercise.checks_source,
                            lesson=number, filename=lesson.exercise.filename,
                            reference=lesson.exercise.solution, library=lesson.exercise.library)
        assert result.status == "pass", (number, [(c.name, c.message) for c in result.checks])
    lesson = lessons["5.6"]
    result = run_checks(lesson.exercise.solution, lesson.exercise.checks_source, lesson="5.6",
                        reference=lesson.exercise.solution, library=lesson.exercise.library)
    assert "4 * 16 + 64 * 16 + 4 * 64" not in result.checks[-1].message
    assert result.checks[-1].message.startswith("1344 = 64 (wte) + 1024 (mlp_fc1) + 256 (mlp_fc2)")


def test_learner_files_exist_for_every_lesson():
    folder = Path(__file__).parent / "lessons"
    for number in PLAN:
        files = list((folder / number).glob("*.py"))
        assert len([f for f in files if f.name.startswith("alt_")]) >= 3, number
        assert len([f for f in files if not f.name.startswith("alt_")]) >= 4, number
