"""Module 6, Gradients by hand: what the lessons claim, pinned to what their code computes.

The lint already proves each exercise both ways and every known mistake. These tests pin what
it cannot see: that the numbers written in the Watch texts, leads and quiz explanations are the
numbers the lessons' own code computes, that the computed widget data says what the widgets
claim, that 6.6's file really is train1.py, and the diagnoses that rest on clever logic.
"""
from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
from functools import cache

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import apply_edits, default_course_path
from linebyline.course.dataset import names_file
from linebyline.course.library import library_folder
from linebyline.course.prose import fill_facts
from linebyline.course.widgets import KINDS
from linebyline.runtime import run_checks
from linebyline.runtime.library import CourseModules

from .conftest import the_course

COURSE = default_course_path()
LESSONS = {
    "6.1": ("numerical-gradients", "Numerical gradients", (), "vector-bars"),
    "6.2": ("probs-minus-one-hot", "Probs minus one-hot", (), "vector-bars"),
    "6.3": ("backprop-through-the-layers", "Backprop through the layers", (), "vector-bars"),
    "6.4": ("gradient-check", "Gradient check", (), "grad-check"),
    "6.5": ("sgd-and-lr-decay", "SGD and lr decay", ((169, 169),), "line-chart"),
    "6.6": ("temperature", "Temperature", ((180, 180),), "train-run"),
}


@cache
def lesson(number):
    found = the_course().lesson(number)
    assert found is not None, f"lesson {number} is not in the course"
    return found


@cache
def computed(number):
    result = compute_lesson(lesson(number))
    assert not result.problems, result.problems
    return result


def shown_text(number, text):
    """A text of the lesson as the page shows it: its {{facts}} filled in."""
    return fill_facts(text, computed(number).facts)


def run(number, source):
    exercise = lesson(number).exercise
    return run_checks(source, exercise.checks_source, lesson=number, filename=exercise.filename,
                      checks_filename=str(exercise.checks_path), reference=exercise.solution,
                      library=exercise.library)


def first_not_passing(result):
    return next(check for check in result.checks if check.status != "pass")


@pytest.fixture
def in_folder(tmp_path, monkeypatch):
    shutil.copyfile(names_file(), tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def solution_namespace(number):
    """The lesson's solution run as the checks run it (its demo skipped)."""
    exercise = lesson(number).exercise
    namespace = {"__name__": "not_main"}
    with CourseModules(exercise.library):  # the file imports finished parts from given.train1
        exec(compile(exercise.solution, "solution.py", "exec"), namespace)
    return namespace


# --- the lessons as the course plans them ---------------------------------------------------

@pytest.mark.parametrize("number", LESSONS)
def test_header(number):
    slug, title, unlocks, kind = LESSONS[number]
    this = lesson(number)
    assert (this.slug, this.title, this.unlocks, this.explore.kind) == (slug, title, unlocks, kind)
    assert (this.module, this.script) == (6, "train1.py")
    assert 3 <= len(this.quiz) <= 5
    assert len(this.exercise.mistakes) >= 3
    assert 3 <= len(this.exercise.hints) <= 4
    words = len(this.watch.split())
    assert 300 <= words <= 700, f"{number}: the Watch has {words} words"


def test_lessons_without_lines_say_what_they_prepare():
    for number in ("6.1", "6.2", "6.3", "6.4"):
        where = lesson(number).where
        assert where.startswith("No line of microgpt.py"), number
        assert re.search(r"line[s]? \d+", where), number
    assert "loss.backward()" in lesson("6.3").where and "7.5" in lesson("6.3").where
    assert "Adam" in lesson("6.5").where and "11.2" in lesson("6.6").where


def test_each_lesson_file_is_a_different_file():
    names = [lesson(number).exercise.filename for number in LESSONS]
    assert len(set(names)) == len(names)
    assert lesson("6.6").exercise.filename == "train1.py"


# --- by the end of the module, the learner's file is train1.py ----------------------------

def test_the_last_file_runs_exactly_like_train1(in_folder):
    """Same seed, same draws, same arithmetic: 30 steps and 20 names, line for line."""
    train1 = (COURSE / "train1.py").read_text(encoding="utf-8")
    mine = lesson("6.6").exercise.solution
    outputs = []
    for name, source in (("train1.py", train1), ("mine.py", mine)):
        assert source.count("num_steps = 1000") == 1
        (in_folder / name).write_text(source.replace("num_steps = 1000", "num_steps = 30"))
        done = subprocess.run([sys.executable, name], cwd=in_folder, capture_output=True,
                              text=True, timeout=120, check=True,
                              env={**os.environ, "PYTHONPATH": str(library_folder(COURSE))})
        outputs.append(done.stdout.splitlines())
    theirs, ours = outputs
    assert [line for line in ours if not line.startswith("mean loss of the last")] == theirs
    assert any(line.startswith("gradient check: max difference") for line in theirs)


def test_the_last_file_holds_train1s_lines():
    """Every code line of train1.py is in 6.6's file or in the finished parts it imports from
    given.train1 (lines later lessons ask for), but for the sample print, now a function's."""
    train1 = (COURSE / "train1.py").read_text(encoding="utf-8")
    code = train1[train1.index('"""', 3) + 3:]
    exercise = lesson("6.6").exercise
    assert "from given.train1 import " in exercise.solution
    mine = {line.strip() for line in exercise.solution.splitlines()}
    mine |= {line.strip() for line in exercise.library["given/train1.py"].splitlines()}
    missing = [line.strip() for line in code.splitlines()
               if line.strip() and not line.strip().startswith("#") and line.strip() not in mine]
    assert missing == ["print(f\"sample {sample + 1:2d}: {''.join(name)}\")"]


# --- numbers in the texts are the numbers the code computes ----------------------------------

def test_6_1_watch_numbers(in_folder):
    ns = solution_namespace("6.1")
    tokens = [ns["BOS"]] + [ns["chars"].index(ch) for ch in "emma"] + [ns["BOS"]]
    row = ns["weights"]["wte"][ns["BOS"]]
    old = row[0]
    row[0] = old + 1e-5
    up = ns["name_loss"](tokens, 5)
    row[0] = old - 1e-5
    down = ns["name_loss"](tokens, 5)
    row[0] = old
    watch = " ".join(shown_text("6.1", lesson("6.1").watch).split())
    assert f"It is {old:.4f}." in watch
    assert f"| {up:.12f} |" in watch and f"| {down:.12f} |" in watch
    # the digits shown are enough to redo the division by hand
    shown_up, shown_down, shown_slope = re.search(
        r"slope = \((\d\.\d+) − (\d\.\d+)\) / 0\.00002 = \*\*(−\d\.\d+)\*\*", watch).groups()
    by_hand = (float(shown_up) - float(shown_down)) / 2e-5
    assert f"{by_hand:.6f}".replace("-", "−") == shown_slope
    assert f"**{(up - down) / 2e-5:.6f}**".replace("-", "−") in watch
    assert f"{2 * sum(len(r) for m in ns['weights'].values() for r in m):,}" in watch


def test_6_2_watch_numbers(in_folder):
    ns = solution_namespace("6.2")
    softmax = ns["softmax"]
    probs = softmax([2.0, 1.0, 0.0 + 0.1])
    watch = shown_text("6.2", lesson("6.2").watch)
    assert "| probs | " + " | ".join(f"{p:.3f}" for p in probs) + " |" in watch
    assert f"**−{1 - probs[0]:.3f}**" in watch
    assert f"−log {probs[0]:.3f} = {-math.log(probs[0]):.3f}" in watch
    stepped = softmax([z - (p - (i == 0)) for i, (z, p) in enumerate(zip([2.0, 1.0, 0.1], probs))])
    assert ", ".join(f"{p:.3f}" for p in stepped) in watch
    assert f"from\n{-math.log(probs[0]):.3f} to {-math.log(stepped[0]):.3f}" in watch
    tokens = [ns["BOS"]] + [ns["chars"].index(ch) for ch in "emma"] + [ns["BOS"]]
    _loss, dlogits = ns["position_loss"](tokens[0], tokens[1], 5)
    p_e = dlogits[tokens[1]] * 5 + 1
    assert f"p(e) = {p_e:.4f}" in watch and f"= −{-dlogits[tokens[1]]:.4f}" in watch
    others = [d for i, d in enumerate(dlogits) if i != tokens[1]]
    assert all(round(d, 4) in (0.0073, 0.0074, 0.0075) for d in others)
    # the quiz asks the same first position for 'eve', whose loss averages 4 positions, not 5
    assert computed("6.2").answers[0] == pytest.approx((p_e - 1) / 4)


def test_6_3_tiny_example_matches_the_watch():
    answers = computed("6.3").answers
    watch = shown_text("6.3", lesson("6.3").watch)
    assert answers[0] == 1
    # the Watch reads token 0: logits [1, -1], p0 = sigmoid(2), dh[0] = 2 p0, wte[0] = [4 p0, p0]
    p0 = 1 / (1 + math.exp(-2))
    assert f"**{2 * p0:.4f}**" in watch
    assert f"{4 * p0:.4f}, {p0:.4f}" in watch
    # the quiz reads token 1: logits [4.25, 0.75], both units on, dh = [2 p0, p0], x[0] gets 5 p0
    p0 = 1 / (1 + math.exp(-3.5))
    assert answers[1] == pytest.approx(2 * p0) and answers[2] == pytest.approx(5 * p0)
    assert f"{answers[1]:.4f}" not in watch and f"{answers[2]:.4f}" not in watch


def test_6_4_texts_match_the_computed_check():
    data = computed("6.4").data
    rows = {row["weight"]: row for row in data["variants"][0]["rows"]}
    watch = shown_text("6.4", lesson("6.4").watch)
    for weight in ("wte[BOS][2]", "mlp_fc1[63][3]", "mlp_fc2[BOS][1]"):
        row = rows[weight]
        assert f"`{weight}`: {row['numerical']:.10f} and {row['analytic']:.10f}".replace(
            "-", "−") in watch
    worst = max(abs(r["numerical"] - r["analytic"]) for r in rows.values())
    assert f"about {worst:.0e}".replace("e-11", " × 10⁻¹¹") in watch
    big = next(v for v in data["variants"] if v["nudge"] == 1.0)
    big_worst = max(abs(r["numerical"] - r["analytic"]) for r in big["rows"])
    assert f"about {big_worst:.3f}." in shown_text("6.4", lesson("6.4").quiz[2].prompt)
    assert computed("6.4").answers[0] == 2 * (16 + 16 + 64)  # every weight of the three last rows


def test_6_4_train1_prints_the_difference_in_the_lead(in_folder):
    ns = solution_namespace("6.4")
    tokens = [ns["BOS"]] + [ns["chars"].index(ch) for ch in ns["docs"][0]] + [ns["BOS"]]
    n = min(ns["block_size"], len(tokens) - 1)
    for pos in range(n):
        ns["position_loss"](tokens[pos], tokens[pos + 1], n)
    printed = f"{ns['gradient_check'](tokens, n):.2e}"
    assert f"max difference {printed}" in shown_text("6.4", lesson("6.4").lead)
    assert f"max difference {printed}" in shown_text("6.4", lesson("6.4").watch)


def test_6_5_numbers_come_from_the_run():
    result = computed("6.5")
    data, facts = result.data, result.facts
    loss_caption = data["views"][0]["caption"]
    first, last, small = (float(x) for x in re.findall(r"\d\.\d{4}", loss_caption))
    flat = float(re.findall(r"\d\.\d{4}", data["mistake_views"][0]["caption"])[0])
    # The text's numbers are Explore's run, not a second run from weights Explore left trained.
    assert (facts["first"], facts["last"], facts["flat"]) == pytest.approx((first, last, flat),
                                                                        abs=5e-5)
    assert first > last and flat > last
    for text in (shown_text("6.5", lesson("6.5").lead), shown_text("6.5", lesson("6.5").watch)):
        for value in (first, last, flat):
            assert f"{value:.2f}" in text, (value, text)
    assert small > 2.9  # 0.1 barely moves: the quiz says "about 3.0"
    assert result.answers == {0: 0.75, 1: pytest.approx(0.005)}


def test_6_5_the_gradient_quoted_is_the_first_names_at_the_starting_weights(in_folder):
    # Explore trains the weights before the facts run: the Watch's gradient must not see that.
    ns = solution_namespace("6.5")
    tokens = [ns["BOS"]] + [ns["chars"].index(ch) for ch in ns["docs"][0]] + [ns["BOS"]]
    n = min(ns["block_size"], len(tokens) - 1)
    for pos in range(n):
        ns["position_loss"](tokens[pos], tokens[pos + 1], n)
    g = -ns["grads"]["wte"][ns["BOS"]][1]
    assert computed("6.5").facts["g"] == pytest.approx(g, rel=1e-12)
    assert f"`wte[BOS][1]`: −{g:.5f}" in shown_text("6.5", lesson("6.5").watch)


def test_6_6_compares_honestly_with_train0():
    answers = computed("6.6").answers
    network, table = answers[1], answers[2]
    assert table < network  # the table of counts wins: one letter of context, all the names
    watch = shown_text("6.6", lesson("6.6").watch)
    # the quiz asks for both losses, so the Watch must not print them
    assert f"{network:.2f}" not in watch and f"{table:.2f}" not in watch
    assert "did not beat the table" in " ".join(watch.split())
    assert f"{network:.4f}" in shown_text("6.6", lesson("6.6").quiz[1].explain)
    assert f"{table:.4f}" in shown_text("6.6", lesson("6.6").quiz[2].explain)
    assert answers[0] == pytest.approx(math.exp(2) / (math.exp(2) + 2))  # logits [1, 0, 0] at 0.5


def test_6_6_watch_temperature_table(in_folder):
    softmax = solution_namespace("6.6")["softmax"]
    watch = shown_text("6.6", lesson("6.6").watch)
    for t in (1, 0.5, 2):
        probs = softmax([z / t for z in (2.0, 1.0, 0.0)])
        shown = ", ".join(f"{p:.3f}" for p in probs)
        assert shown in watch.replace("**", ""), (t, shown)


# --- the computed widget data says what the widgets claim ------------------------------------

@pytest.mark.parametrize("number", ["6.1", "6.2", "6.3", "6.4", "6.5"])
def test_widget_data_is_valid(number):
    data = computed(number).data
    assert KINDS[lesson(number).explore.kind].check_data(data) is None


def test_6_1_a_row_the_name_never_reads_has_zero_slopes():
    views = computed("6.1").data["views"]
    zero = [view for view in views if "never reads" in view["caption"]]
    assert len(zero) == 1 and not any(zero[0]["rows"][0]["values"])
    assert all(any(view["rows"][0]["values"]) for view in views if view is not zero[0])


def test_6_2_every_position_adds_up_to_zero_and_the_mistake_climbs():
    data = computed("6.2").data
    for view, wrong in zip(data["views"], data["mistake_views"]):
        assert abs(sum(view["rows"][-1]["values"])) < 1e-12
        before, after = (float(x) for x in re.findall(r"from (\d\.\d{4}) down to (\d\.\d{4})",
                                                      view["caption"])[0])
        assert after < before
        up_from, up_to = (float(x) for x in re.findall(r"from (\d\.\d{4}) up to (\d\.\d{4})",
                                                       wrong["caption"])[0])
        assert up_to > up_from == before


def test_6_3_without_the_gate_nudging_disagrees():
    data = computed("6.3").data
    right = data["views"][-1]["rows"]
    wrong = data["mistake_views"][-1]["rows"]
    assert max(abs(a - b) for a, b in zip(right[0]["values"], right[1]["values"])) < 1e-9
    assert max(abs(a - b) for a, b in zip(wrong[0]["values"], wrong[1]["values"])) > 1e-4


def test_6_4_only_the_right_version_passes_the_check():
    variants = computed("6.4").data["variants"]
    worst = [max(abs(r["numerical"] - r["analytic"]) for r in v["rows"]) for v in variants]
    assert worst[0] < 1e-9
    assert all(w > 1e-5 for w in worst[1:])
    assert len(variants[0]["rows"]) == 15


# --- diagnoses that rest on clever logic ------------------------------------------------------

@pytest.mark.parametrize("nudge", ["0.1", "0.01", "0.003"])
def test_6_4_tells_how_big_the_nudge_is(nudge, in_folder):
    """A cubed test loss makes the reported difference exactly nudge², whatever the name."""
    source = lesson("6.4").exercise.solution.replace("worst, nudge = 0.0, 1e-5",
                                                     f"worst, nudge = 0.0, {nudge}")
    first = first_not_passing(run("6.4", source))
    assert first.name == "the nudge is tiny"
    assert f"yours is about {nudge}." in first.message


def test_6_5_checks_put_gradient_check_back(in_folder):
    """The checks swap gradient_check for a quick stand-in; the learner's must be back after."""
    source = lesson("6.5").exercise.solution + (
        "\n\nreal_check = gradient_check\n"
        "def is_real():\n"
        "    return gradient_check is real_check\n")
    checks = lesson("6.5").exercise.checks_source + (
        "\n\n@check('gradient_check is back')\n"
        "def _(code):\n"
        "    if not code.is_real():\n"
        "        fail('the stand-in was left in place')\n")
    exercise = lesson("6.5").exercise
    result = run_checks(source, checks, lesson="6.5", filename=exercise.filename,
                        reference=exercise.solution, library=exercise.library)
    assert result.status == "pass", result.checks


def test_6_6_sampling_check_accepts_weights_given_by_position(in_folder):
    source = lesson("6.6").exercise.solution.replace(
        "random.choices(range(vocab_size), weights=probs)[0]",
        "random.choices(list(range(vocab_size)), probs)[0]")
    assert run("6.6", source).status == "pass"


def test_6_3_gate_on_the_gradient_is_told_apart_from_no_gate(in_folder):
    solution = lesson("6.3").exercise.solution
    messages = {}
    for mistake in lesson("6.3").exercise.mistakes:
        result = run("6.3", apply_edits(solution, mistake.edits))
        messages[mistake.name] = first_not_passing(result).message
    assert "The gate looks at the gradient" in messages["the gate testing the gradient instead of h"]
    assert "The ReLU gate is missing" in messages["the ReLU gate missing"]


def test_the_review_quotes_the_computed_losses():
    course = the_course()
    review = next(module for module in course.modules if module.number == 6).review
    assert review is not None
    answers = computed("6.6").answers
    assert f"about {answers[1]:.2f}" in review.summary and f"about {answers[2]:.2f}" in review.summary


def test_the_counts_in_unlocked(in_folder):
    ns = solution_namespace("6.3")
    positions = sum(min(ns["block_size"], len(doc) + 1) for doc in ns["docs"][:1000])
    assert f"{positions:,} times in the 1,000" in " ".join(shown_text("6.2", lesson("6.2").where).split())
    products = sum(len(row) for name in ("mlp_fc2", "mlp_fc1") for row in ns["weights"][name])
    assert f"= {products:,} products" in " ".join(shown_text("6.3", lesson("6.3").where).split())
    assert round(positions / 1000 * products, -4) == 20_000
