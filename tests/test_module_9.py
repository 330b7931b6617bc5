"""Module 9, The full transformer: what the lessons claim, pinned to what their code computes.

The lint proves each exercise both ways and every known mistake, and tests/lessons/9.x holds
the learner files. These tests pin what those cannot see: that module 9 teaches exactly the
lines it owns, that each lesson's file is train4.py's own model, that the numbers the texts
quote are the ones the code computes, and that the checks leave Python as they found it.
"""
from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
from functools import cache

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import default_course_path
from linebyline.course.dataset import names_file
from linebyline.course.library import library_folder, library_sources
from linebyline.runtime import run_checks
from linebyline.runtime.library import CourseModules

from .conftest import the_course

COURSE = default_course_path()
LESSONS = {
    "9.1": ("heads-and-slices", "Heads and slices", "head-slices"),
    "9.2": ("per-head-attention", "Per-head attention", "head-attention"),
    "9.3": ("the-mlp-block", "The MLP block", "vector-bars"),
    "9.4": ("the-layer-loop", "The layer loop", "train-run"),
    "9.5": ("counting-4192", "Counting 4,192", "model-size"),
}
# The lines of microgpt.py that module 9 teaches, and no other lesson does.
MODULE_9_LINES = {81, 84, 85, 94, 96, 97, 98, 124, 125, 129, 130, 131, 132, 133, 134, 135, 136,
                  138, 139, 140, 142, 143, 144, 145, 146, 147, 161}


@cache
def course():
    return the_course()


@cache
def computed(number):
    result = compute_lesson(course().lesson(number))
    assert not result.problems, result.problems
    return result


@pytest.fixture
def in_folder(tmp_path, monkeypatch):
    shutil.copyfile(names_file(), tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("number", LESSONS)
def test_header(number):
    lesson = course().lesson(number)
    slug, title, kind = LESSONS[number]
    assert (lesson.slug, lesson.title, lesson.explore.kind) == (slug, title, kind)
    assert (lesson.module, lesson.script) == (9, "train4.py")
    assert "karpathy.github.io/2026/02/12/microgpt/" in lesson.watch


def test_module_9_teaches_exactly_its_lines_once():
    taught = [course().lesson(number).unlocked_lines() for number in LESSONS]
    assert set().union(*taught) == MODULE_9_LINES
    assert sum(len(lines) for lines in taught) == len(MODULE_9_LINES)  # no line twice
    others = {n for lesson in course().lessons() if not lesson.number.startswith("9.")
              for n in lesson.unlocked_lines()}
    assert not others & MODULE_9_LINES


def _function(source, name):
    """The text of a top-level def, from its line to the next top-level line."""
    lines = source.splitlines()
    start = lines.index(next(line for line in lines if line.startswith(f"def {name}(")))
    end = next((i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace()),
               len(lines))
    return "\n".join(lines[start:end]).rstrip()


def _solution_namespace(number):
    """The solution of lesson `number` run as a module (not as __main__), with the course's
    library to import from; call it in a folder that holds input.txt."""
    ns = {"__name__": "not_main"}
    with CourseModules(library_sources(COURSE)):
        exec(compile(course().lesson(number).exercise.solution, "solution.py", "exec"), ns)
    return ns


def test_the_librarys_building_blocks_are_train4s():
    """given/train4.py, which the starters import instead of showing lines later lessons ask
    for, holds train4.py's own building blocks, line for line."""
    train4 = (COURSE / "train4.py").read_text(encoding="utf-8")
    given = (library_folder(COURSE) / "given" / "train4.py").read_text(encoding="utf-8")
    for name in ("linear", "softmax", "rmsnorm", "matrix"):
        assert _function(given, name) == _function(train4, name), name


@pytest.mark.parametrize("number", LESSONS)
def test_each_solution_runs_train4s_own_model(number, in_folder):
    """Each solution's building blocks are train4.py's, line for line (those it does not define
    come from the course's library, tested above), and its gpt(), the lesson's own lines with
    the library's, gives exactly the logits train4.py's gpt() gives on the same weights."""
    train4 = (COURSE / "train4.py").read_text(encoding="utf-8")
    solution = course().lesson(number).exercise.solution
    for name in ("linear", "softmax", "rmsnorm", "matrix"):
        if f"def {name}(" in solution:
            assert _function(solution, name) == _function(train4, name), (number, name)
    ns = _solution_namespace(number)
    ours = {name: ns[name] for name in ("Value", "weights", "n_layer", "n_head", "head_dim")}
    for name in ("linear", "softmax", "rmsnorm", "gpt"):
        exec(compile(_function(train4, name), "train4.py", "exec"), ours)
    tokens = [ns["BOS"]] + [ns["chars"].index(ch) for ch in "emma"]
    caches = [([[]], [[]]), ([[]], [[]])]
    for pos, token in enumerate(tokens):
        mine = [v.data for v in ns["gpt"](token, pos, *caches[0])]
        want = [v.data for v in ours["gpt"](token, pos, *caches[1])]
        assert mine == want, (number, pos)


def _run_as_main(source, folder):
    """`python file.py`, with the course's library on the path as `linebyline run` gives it."""
    (folder / "file.py").write_text(source, encoding="utf-8")
    done = subprocess.run([sys.executable, "file.py"], cwd=folder, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(library_folder(COURSE))})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_9_1_watch_score_is_its_dot_product_over_two():
    facts = computed("9.1").facts
    assert float(facts["score"]) == pytest.approx(float(facts["dot"]) / 2, abs=1e-4)
    assert float(facts["whole"]) == pytest.approx(float(facts["dot"]) / 4, abs=1e-4)


def test_9_1_quoted_slices_are_a_fresh_models(in_folder):
    """The facts quote Explore's q and keys; a fresh solution run on 'emma' gives the same."""
    ns = _solution_namespace("9.1")
    noted, plain = {}, ns["linear"]

    def linear(x, w):
        out = plain(x, w)
        if w is ns["weights"]["layer0.attn_wq"]:
            noted["q"] = [v.data for v in out]
        return out

    ns["linear"] = linear  # gpt() finds linear among the solution's globals
    tokens = [ns["BOS"]] + [ns["chars"].index(ch) for ch in "emma"]
    keys, values = [[] for _ in range(ns["n_layer"])], [[] for _ in range(ns["n_layer"])]
    for pos, token in enumerate(tokens):
        ns["gpt"](token, pos, keys, values)
    lo, hi = ns["head_dim"], 2 * ns["head_dim"]
    q, k = noted["q"][lo:hi], [v.data for v in keys[0][1]][lo:hi]
    facts = computed("9.1").facts
    assert facts["q_slice"] == ", ".join(f"{v:.3f}" for v in q)
    assert facts["k_slice"] == ", ".join(f"{v:.3f}" for v in k)
    assert float(facts["dot"]) == pytest.approx(sum(a * b for a, b in zip(q, k)), abs=1e-4)


def test_9_3_watch_counts_are_the_widgets(in_folder):
    facts = computed("9.3").facts
    relu = next(view for view in computed("9.3").data["views"] if view["label"] == "3. ReLU")
    after = relu["rows"][1]["values"]
    assert facts["zeros"] == sum(v == 0 for v in after) == 64 - facts["passing"]
    assert f"{facts['zeros']} of the 64" in relu["caption"]


def test_9_3_quiz_counts_the_weights_relu_lets_learn():
    """Question 3 asks for what follows from Explore's ReLU count, not the count itself: only the
    rows ReLU passes get a gradient, all 16 weights of each; the count itself is a listed slip."""
    result = computed("9.3")
    facts = result.facts
    assert result.answers[2] == 16 * facts["passing"]
    assert result.wrong[2] == [16 * facts["zeros"], 64 * 16, facts["passing"], facts["zeros"]]


def test_9_4_demo_measures_what_the_text_quotes(in_folder):
    """The Build's Run prints, for one and two layers, the figures 9.4's texts quote."""
    facts = computed("9.4").facts
    out = _run_as_main(course().lesson("9.4").exercise.solution, in_folder)
    one, two = [line for line in out.splitlines() if line.startswith("n_layer = ")]
    assert one.startswith(f"n_layer = 1: {facts['params1'].replace(',', '')} parameters")
    assert f"a graph of {facts['graph1']} Values" in one
    assert two.startswith(f"n_layer = 2: {facts['params2'].replace(',', '')} parameters")
    assert f"a graph of {facts['graph2']} Values" in two
    # The starter's gpt() is hard-wired to block 0: its second layer changes nothing.
    out = _run_as_main(course().lesson("9.4").exercise.starter, in_folder)
    one, two = [line for line in out.splitlines() if line.startswith("n_layer = ")]
    assert one.split(";", 1)[1] == two.split(";", 1)[1]


def test_9_5_demo_counts_like_the_formula(in_folder):
    out = _run_as_main(course().lesson("9.5").exercise.solution, in_folder)
    for layers, width in ((2, 16), (1, 32), (4, 64)):
        total = 2 * 27 * width + 16 * width + layers * 12 * width * width
        assert f"with n_layer = {layers} and n_embd = {width}: {total:,} parameters" in out
    assert "together                           4,192" in out


def test_9_5_widget_data_is_the_real_model():
    data = computed("9.5").data
    assert data["total"] == 4192
    assert data["sizes"] == {"vocab_size": 27, "n_embd": 16, "block_size": 16, "n_layer": 1,
                             "n_head": 4}
    assert [m["name"] for m in data["matrices"]][-2:] == ["layer0.mlp_fc1", "layer0.mlp_fc2"]


def test_9_2_widget_probe_reads_the_heads_gpt_makes():
    """The probe the browser runs after training is the code that made the data: run again on
    the untrained model it gives exactly the data (every row adds up to 1, one grid per head)."""
    data = computed("9.2").data
    assert "def attention_of(word)" in data["probe"]
    emma = data["names"][0]
    assert emma["name"] == "emma" and len(emma["heads"]) == 4
    assert all(abs(sum(row) - 1) < 1e-9 for grid in emma["heads"] for row in grid)
    assert emma["whole"] != emma["heads"][0]


@pytest.mark.parametrize("number", LESSONS)
def test_checks_leave_the_cycle_collector_on(number, in_folder):
    """The checks switch Python's cycle collector off while gpt() runs (it would spend most of
    their time rescanning Values), and must switch it back on, even when the learner's code
    raises in the middle."""
    exercise = course().lesson(number).exercise
    assert gc.isenabled()
    for source in (exercise.solution, exercise.solution.replace("def gpt(", "def gpt_(")
                   .replace("return linear(x, weights['lm_head'])",
                            "return linear(x, weights['lm_head'])\n\n\ngpt = None")):
        run_checks(source, exercise.checks_source, lesson=number, filename=exercise.filename,
                   checks_filename=str(exercise.checks_path), reference=exercise.solution,
                   library=exercise.library)
        assert gc.isenabled(), number
