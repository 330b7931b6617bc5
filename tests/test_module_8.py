"""Module 8, Attention: what the lessons claim, pinned to what their code computes.

The lint proves each exercise both ways and every known mistake. These tests pin what it cannot
see: that module 8 unlocks exactly its lines of microgpt.py; that the by-hand trainer several
lessons compute with (train3 on plain floats) is one text everywhere and computes train3.py's
own losses, step by step; that the words of the Watch texts still describe the numbers the
lessons compute (a "barely" that would have to change if the data did); that the widgets' data
says what their captions say; and that the attention-grid kind refuses data it cannot draw.
"""
from __future__ import annotations

import importlib.util
import json
import math
from functools import cache
from pathlib import Path

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import default_course_path
from linebyline.course.dataset import names_file
from linebyline.course.widgets import attention_grid
from linebyline.mine.scripts import run_source

from .conftest import the_course

COURSE = default_course_path()
LESSONS = {
    "8.1": ("position-embeddings", "Position embeddings", ((92, 93), (122, 122)), "vector-bars"),
    "8.2": ("rmsnorm", "rmsnorm", ((115, 118), (123, 123)), "vector-bars"),
    "8.3": ("queries-keys-values", "Queries, keys, values", ((95, 95), (126, 126)),
            "attention-grid"),
    "8.4": ("scaled-scores-and-softmax", "Scaled scores and softmax", ((137, 137),),
            "attention-grid"),
    "8.5": ("weighted-sum-output-projection-residual", "Weighted sum, output projection, residual",
            ((127, 128), (141, 141)), "vector-bars"),
    "8.6": ("the-kv-cache", "The KV cache", ((164, 164),), "attention-grid"),
    "8.7": ("gpt-and-lm-head", "gpt() and lm_head", ((121, 121), (148, 148)), "train-run"),
}
# The lines of microgpt.py that module 8 teaches (the rest of train3's new lines are written
# differently in microgpt.py, per head and per layer, and belong to module 9).
MODULE_8_LINES = {92, 93, 95, 115, 116, 117, 118, 121, 122, 123, 126, 127, 128, 137, 141, 148, 164}
STEPS = 12


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


@pytest.mark.parametrize("number", LESSONS)
def test_header(number):
    slug, title, unlocks, kind = LESSONS[number]
    this = lesson(number)
    assert (this.slug, this.title, this.unlocks, this.explore.kind) == (slug, title, unlocks, kind)
    assert this.script == "train3.py"
    assert "https://karpathy.github.io/2026/02/12/microgpt/" in this.watch


def test_module_8_unlocks_exactly_its_lines():
    taught = set()
    for number in LESSONS:
        lines = lesson(number).unlocked_lines()
        assert not lines & taught, (number, lines & taught)
        taught |= lines
    assert taught == MODULE_8_LINES


# --- the by-hand trainers (courses/microgpt/compute/, which the lessons' computations import) --

def trainer(name: str):
    """A module of the course's compute/ folder, imported as the lessons' computations do."""
    spec = importlib.util.spec_from_file_location(name, COURSE / "compute" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_lessons_import_the_trainers_rather_than_copy_them():
    for number in LESSONS:
        text = (lesson(number).path / "lesson.yaml").read_text(encoding="utf-8")
        assert "def train3_by_hand(" not in text and "def train2_by_hand(" not in text, number
    uses = [number for number in LESSONS
            if "from train3_by_hand import" in (lesson(number).path / "lesson.yaml").read_text()]
    assert uses == ["8.4", "8.6", "8.7"]


def exact_losses(script: str, tmp_path: Path) -> list[float]:
    """The exact loss of each of the first STEPS steps of a course script (its training record)."""
    record = tmp_path / f"{script}.jsonl"
    text = (COURSE / script).read_text(encoding="utf-8")
    list(run_source(text, script, names_file(), STEPS, record=record))
    return [entry["loss"] for entry in map(json.loads, record.read_text().splitlines())
            if "step" in entry]


@pytest.fixture
def in_folder(tmp_path, monkeypatch):
    (tmp_path / "input.txt").write_bytes(names_file().read_bytes())
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_trainer_computes_train3s_own_losses(in_folder, tmp_path):
    losses, weights = trainer("train3_by_hand").train3_by_hand(num_steps=STEPS)
    want = exact_losses("train3.py", tmp_path)
    assert len(want) == STEPS
    assert all(math.isclose(a, b, rel_tol=1e-10) for a, b in zip(losses, want)), (losses, want)
    assert sorted(weights) == sorted(["wte", "wpe", "lm_head", "attn_wq", "attn_wk", "attn_wv",
                                      "attn_wo"])


def test_the_train2_trainer_of_87_computes_train2s_own_losses(in_folder, tmp_path):
    losses = trainer("train2_by_hand").train2_by_hand(num_steps=STEPS)
    want = exact_losses("train2.py", tmp_path)
    assert all(math.isclose(a, b, rel_tol=1e-10) for a, b in zip(losses, want)), (losses, want)


def test_the_trainer_switches_change_what_they_say(in_folder):
    train = trainer("train3_by_hand").train3_by_hand
    base = train(num_steps=3)[0]
    for switch in ({"wpe": False}, {"divide": False}, {"norm": False}, {"residual": False},
                   {"look": "self"}, {"look": "all"}):
        assert train(num_steps=3, **switch)[0][1:] != base[1:], switch
    with pytest.raises(ValueError, match="math domain error at step"):
        train(learning_rate=1.0)


# --- the words of the lessons still say what the numbers say -------------------------------------

def test_81_positions_14_and_15_never_come_up_in_training():
    facts = computed("8.1").facts
    assert facts["reach_13"] == 1 and facts["longest"] < 15
    assert facts["wpe_numbers"] == 256


def test_82_x_starts_small_and_rmsnorm_brings_it_to_about_1():
    facts = computed("8.2").facts
    assert 0.05 < facts["rms_low"] < facts["rms_mean"] < facts["rms_high"] < 0.25
    assert 0.99 < facts["rms_e1_after"] < 1


def test_84_the_division_is_insurance_in_train3_and_needed_at_width():
    facts = computed("8.4").facts
    for width, want in ((4, 2), (16, 4), (64, 8), (256, 16)):
        assert abs(facts[f"spread_{width}"] - want) < 0.1 * want
    assert facts["peak_4"] < facts["peak_16"] < facts["peak_64"] < facts["peak_256"]
    assert abs(facts["peak_div_4"] - facts["peak_div_256"]) < 0.05
    assert facts["max_raw"] < 3  # "stay small"
    assert facts["top"] < facts["top_plain"] < facts["top"] + 0.1  # "only a little"
    assert abs(facts["loss_plain"] - facts["loss_divided"]) < 0.002  # "no real difference"
    # the lists attention scores in training: 8.1 says position 13 comes up, 14 and 15 never
    assert facts["longest_list"] == 14 and computed("8.1").facts["reach_13"] >= 1


def test_84_widget_the_mistake_is_peakier():
    data = computed("8.4").data
    assert data["values"] == "weights" and attention_grid.check_data(data) is None

    def top(view):
        rows = view["cells"][1:]
        return sum(max(row) for row in rows) / len(rows)

    for right, wrong in zip(data["views"], data["mistake_views"]):
        assert top(wrong) > top(right)


def test_85_attention_adds_a_small_correction_at_the_start():
    assert 0.05 < computed("8.5").facts["ratio"] < 0.5


def test_86_a_model_that_sees_the_future_cheats_in_training_and_fails_without_it():
    facts = computed("8.6").facts
    assert facts["cheat_train"] < 0.5 < 2 < facts["train"]
    assert facts["cheat_held"] > facts["uniform"] > facts["honest_held"]
    assert facts["kv_recomputed"] > 3 * facts["kv_cached"]
    data = computed("8.6").data
    for view in data["mistake_views"]:
        cells = view["cells"]
        ahead = [row[t + 1] for t, row in enumerate(cells[:-1])]
        assert sum(ahead) / len(ahead) > 0.8  # "just right of the diagonal"
        assert all(len(row) == len(view["tokens"]) for row in cells)
    for view in data["views"]:
        assert [len(row) for row in view["cells"]] == list(range(1, len(view["tokens"]) + 1))


def test_87_what_attention_buys_and_what_it_does_not():
    facts = computed("8.7").facts
    assert facts["train3_mean"] < facts["table_mean"] < facts["train2_mean"]
    assert abs(facts["self_mean"] - facts["train3_mean"]) < 0.02  # "almost as well"
    assert abs(facts["one_letter_mean"] - facts["train2_mean"]) < 0.05  # "about train2's level"
    singles = {name: facts[f"{name}_mean"] for name in ("self", "no_wpe", "no_residual", "no_norm")}
    assert max(singles, key=singles.get) == "no_residual"  # the review's question 6
    assert all(value > facts["train3_mean"] for value in singles.values())
    assert 10 < facts["blowup_step"] < 100 and facts["stopped_step"] == facts["blowup_step"] + 1
    # the quiz: own position only beats the table, one letter (no wpe either) does not
    assert facts["self_mean"] < facts["table_mean"] < facts["one_letter_mean"]
    assert abs(facts["train3_p"] - math.exp(-facts["train3_mean"])) < 1e-12


# --- the attention-grid widget kind refuses what it cannot draw ----------------------------------

def view(cells, tokens=None):
    return {"label": "ab", "caption": "c", "tokens": tokens or ["BOS", "a", "b"], "cells": cells}


GOOD = [[1.0], [0.25, 0.75], [0.2, 0.3, 0.5]]


@pytest.mark.parametrize("data, says", [
    ({"values": "weights", "views": [view(GOOD)]}, None),
    ({"values": "scores", "views": [view([[2.0], [-1.0, 3.0], [0.5, 0.5, -7.0]])]}, None),
    ({"values": "weights", "views": [view([[1.0], [0.5, 0.6], [0.2, 0.3, 0.5]])]}, "add up to"),
    ({"values": "weights", "views": [view([[1.0], [0.5, 0.5]])]}, "one row per token"),
    ({"values": "weights", "views": [view([[1.0], [0.5, 0.5], [0.2, 0.2, 0.2, 0.4]])]},
     "1 to 3 numbers"),
    ({"values": "odds", "views": [view(GOOD)]}, "`values` must be one of"),
    ({"values": "weights", "views": [view(GOOD)], "mistake_views": []}, "1 to 12 views"),
    ({"values": "weights", "views": [view(GOOD)], "mistake_views": [view(GOOD), view(GOOD)]},
     "one view per view"),
    ({"values": "scores", "views": [view([[float("nan")], [1.0, 2.0], [1.0, 2.0, 3.0]])]},
     "finite"),
    ({"values": "weights", "views": [view(GOOD)], "extra": 1}, "unknown keys"),
])
def test_attention_grid_data(data, says):
    problem = attention_grid.check_data(data)
    if says is None:
        assert problem is None
    else:
        assert problem is not None and says in problem, problem
