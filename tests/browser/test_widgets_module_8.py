"""Module 8's new widget kind in Chromium: attention-grid (8.3 scores, 8.4 weights, 8.6 the cache
growing step by step).

Each lesson page's grid is driven with clicks and keys, and the numbers it shows are compared
with numbers worked out here in plain Python from the names file (train3's weights at the
start), independently of the lessons' compute code; the trained grids are checked for what
softmax guarantees and for what the captions claim.
"""
from __future__ import annotations

import math
import random
import re

import pytest
from playwright.sync_api import Page, expect

from linebyline.course.dataset import names_file

from .conftest import busy_widget_passes_axe_and_fits_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.no_python]


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def train3_at_the_start():
    """train3's first lines, rebuilt here: the seed, the shuffle, the seven matrices in order."""
    rng = random.Random(42)
    with open(names_file(), encoding="utf-8") as handle:
        docs = [line.strip() for line in handle if line.strip()]
    rng.shuffle(docs)
    chars = sorted(set("".join(docs)))

    def matrix(rows, cols=16):
        return [[rng.gauss(0, 0.08) for _ in range(cols)] for _ in range(rows)]

    weights = {"wte": matrix(len(chars) + 1), "wpe": matrix(16), "lm_head": matrix(len(chars) + 1)}
    for name in ("attn_wq", "attn_wk", "attn_wv", "attn_wo"):
        weights[name] = matrix(16)
    return chars, weights


def norm(x):
    scale = (sum(v * v for v in x) / len(x) + 1e-5) ** -0.5
    return [v * scale for v in x]


def times(x, w):
    return [sum(a * b for a, b in zip(row, x)) for row in w]


def cell(widget, row, col):
    return widget.locator(f'td[data-cell="{row},{col}"]')


def test_scores_are_q_dot_k_and_one_matrix_lights_the_diagonal(server, page: Page):
    chars, weights = train3_at_the_start()
    tokens = [len(chars)] + [chars.index(ch) for ch in "emma"]
    xs = [norm(norm([t + p for t, p in zip(weights["wte"][token], weights["wpe"][pos])]))
          for pos, token in enumerate(tokens)]
    q = [times(x, weights["attn_wq"]) for x in xs]
    k = [times(x, weights["attn_wk"]) for x in xs]
    page.goto(server.url + "/lessons/8.3-queries-keys-values/")
    widget = page.locator('[data-widget="attention-grid"]')
    expect(widget.get_by_role("radio", name="emma")).to_be_checked()
    for row, col in ((4, 2), (3, 3), (1, 0)):
        want = sum(a * b for a, b in zip(q[row], k[col]))
        shown = float(cell(widget, row, col).get_attribute("data-value"))
        assert shown == pytest.approx(want, abs=1e-9)
    expect(cell(widget, 1, 2)).to_have_class("ag-empty")  # position 1 cannot see position 2
    # One matrix for q and k: every row's own cell is q · q, and the diagonal wins.
    widget.get_by_label(re.compile("one matrix for q and k")).check()
    for row in range(1, 5):
        values = [float(cell(widget, row, col).get_attribute("data-value")) for col in range(row + 1)]
        assert values[row] == pytest.approx(sum(a * a for a in q[row]), abs=1e-9)
    expect(widget.locator("[data-caption]")).to_contain_text("sum of")
    # Another name, by keyboard: the radio group moves with the arrow keys.
    widget.get_by_role("radio", name="emma").focus()
    page.keyboard.press("ArrowRight")
    expect(widget.get_by_role("radio", name="anna")).to_be_checked()
    expect(widget.locator("caption")).to_contain_text("anna")


def test_trained_weights_add_up_to_1_and_get_peakier_without_the_division(server, page: Page):
    page.goto(server.url + "/lessons/8.4-scaled-scores-and-softmax/")
    widget = page.locator('[data-widget="attention-grid"]')

    def rows():
        found = []
        for row in range(5):
            cells = widget.locator(f'tr[data-row="{row}"] td[data-value]')
            found.append([float(cells.nth(i).get_attribute("data-value"))
                          for i in range(cells.count())])
        return found

    divided = rows()
    assert [len(row) for row in divided] == [1, 2, 3, 4, 5]  # BOS, e, m, m, a
    for row in divided:
        assert sum(row) == pytest.approx(1, abs=1e-9)
    mean_top = sum(max(row) for row in divided[1:]) / (len(divided) - 1)
    expect(widget.locator("[data-readout]")).to_contain_text(f"{mean_top:.2f}")
    widget.get_by_label(re.compile("without the division")).check()
    expect(widget.locator(".ag")).to_have_attribute("data-mistake", "true")
    sharp = rows()
    assert sum(max(row) for row in sharp[1:]) / (len(sharp) - 1) > mean_top
    busy_widget_passes_axe_and_fits_a_phone(
        page, server.url + "/lessons/8.4-scaled-scores-and-softmax/",
        lambda p: p.get_by_label(re.compile("without the division")).check())


def test_the_cache_grows_one_position_per_step(server, page: Page):
    page.goto(server.url + "/lessons/8.6-the-kv-cache/")
    widget = page.locator('[data-widget="attention-grid"]')
    counter = widget.locator("[data-step-counter]")
    expect(counter).to_have_text("position 0 / 5")
    expect(widget.locator('tr[data-row="1"]')).to_be_hidden()
    expect(widget.locator("[data-readout]")).to_contain_text("The cache holds 1 key and 1 value")
    expect(widget.locator("[data-readout]")).not_to_contain_text("No cache")
    widget.get_by_role("button", name="Step ▶").click()
    expect(counter).to_have_text("position 1 / 5")
    expect(widget.locator('tr[data-row="1"]')).to_be_visible()
    expect(widget.locator('tr[data-row="2"]')).to_be_hidden()
    expect(widget.locator("[data-readout]")).to_contain_text("The cache holds 2 keys and 2 values")
    # Keyboard: the arrow keys step too.
    widget.get_by_role("button", name="Step ▶").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("position 3 / 5")
    expect(widget.locator("[data-readout]")).to_contain_text("(BOS, e, m, m)")
    # The model that saw the whole name: every row reaches into the future.
    widget.get_by_label(re.compile("every key of the name")).check()
    future = widget.locator('tr[data-row="3"] td.ag-future')
    expect(future).to_have_count(2)
    ahead = float(cell(widget, 3, 4).get_attribute("data-value"))
    assert ahead > 0.5  # most of its weight on the letter it must predict
    expect(widget.locator("[data-readout]")).to_contain_text("later ones it should be predicting")
    expect(widget.locator("[data-readout]")).to_contain_text("No cache here")
    widget.get_by_role("button", name="To the end").click()
    expect(counter).to_have_text("position 5 / 5")
    weights = [float(cell(widget, 5, col).get_attribute("data-value")) for col in range(6)]
    assert sum(weights) == pytest.approx(1, abs=1e-9) and not math.isnan(weights[0])
