"""Module 6's widget kinds in Chromium: vector-bars (6.2), grad-check (6.4), line-chart (6.5).

Each is driven with clicks and keys, and the numbers it shows are compared with numbers worked
out here in plain Python from the names file, independently of the lesson's compute code.
"""
from __future__ import annotations

import math

import pytest
from playwright.sync_api import Page, expect

from linebyline.course.dataset import names_file

pytestmark = [pytest.mark.browser, pytest.mark.no_python]


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def model():
    """train1's start, rebuilt here: the seed, the shuffle, the three matrices."""
    import random
    rng = random.Random(42)
    with open(names_file(), encoding="utf-8") as handle:
        docs = [line.strip() for line in handle if line.strip()]
    rng.shuffle(docs)
    chars = sorted(set("".join(docs)))
    vocab = len(chars) + 1

    def matrix(rows, cols):
        return [[rng.gauss(0, 0.08) for _ in range(cols)] for _ in range(rows)]

    weights = {"wte": matrix(vocab, 16), "mlp_fc1": matrix(64, 16), "mlp_fc2": matrix(vocab, 64)}
    return chars, len(chars), weights


def forward(weights, token):
    x = weights["wte"][token]
    h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in weights["mlp_fc1"]]
    logits = [sum(a * b for a, b in zip(row, h)) for row in weights["mlp_fc2"]]
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    return x, h, [e / sum(exps) for e in exps]


def mean_loss(weights, tokens):
    n = len(tokens) - 1
    return sum(-math.log(forward(weights, tokens[p])[2][tokens[p + 1]]) for p in range(n)) / n


def test_vector_bars_walk_the_positions_and_flip_the_sign(server, page: Page):
    chars, bos, weights = model()
    tokens = [bos] + [chars.index(ch) for ch in "emma"] + [bos]
    page.goto(server.url + "/lessons/6.2-probs-minus-one-hot/")
    widget = page.locator('[data-widget="vector-bars"]')
    counter = widget.locator("[data-view-counter]")
    expect(counter).to_have_text("1 / 5")
    widget.get_by_role("button", name="Next").click()
    expect(counter).to_have_text("2 / 5")
    probs = forward(weights, tokens[1])[2]
    want = (probs[tokens[2]] - 1) / 5  # reading 'e', the target is 'm', 5 positions
    dlogits = widget.locator('[data-row="2"] [data-mark-value]')
    assert number(dlogits.inner_text()) == pytest.approx(want, abs=1e-6)
    assert number(widget.locator('[data-row="0"] [data-mark-value]').inner_text()) == pytest.approx(
        probs[tokens[2]], abs=1e-6)
    widget.get_by_label("Try one-hot − probs (the sign flipped)").check()
    expect(widget.locator('[data-row="2"]')).to_have_attribute("data-style", "bad")
    assert number(widget.locator('[data-row="2"] [data-mark-value]').inner_text()) == pytest.approx(
        -want, abs=1e-6)
    widget.get_by_label("Try one-hot − probs (the sign flipped)").uncheck()
    # Probabilities and the one-hot share one scale, 0 to 1: each bar's height is its number
    # (a bar of 0.04 is a sliver beside the one-hot's 1), never stretched to its row's maximum.
    heights = widget.locator('[data-row="0"] rect.vb-bar, [data-row="1"] rect.vb-bar').evaluate_all(
        "bars => bars.map(bar => Number(bar.getAttribute('height')))")
    prob_bars, hot_bars = heights[:bos + 1], heights[bos + 1:]
    full = hot_bars[tokens[2]]
    assert full == pytest.approx(max(hot_bars)) and full > 50
    for p, bar in zip(probs, prob_bars):
        assert bar / full == pytest.approx(p, abs=2e-3)
    assert max(prob_bars) / full == pytest.approx(max(probs), abs=2e-3) and max(probs) < 0.5
    expect(widget.locator('[data-row="0"] .vb-row-title')).to_contain_text("drawn on a scale from 0 to 1")
    # Keyboard: the arrow keys move between positions.
    widget.get_by_role("button", name="Next").focus()
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("3 / 5")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text("1 / 5")
    # The numbers are there for screen readers too, in a table per row.
    widget.locator("summary", has_text="The numbers").click()
    cells = widget.locator(".vb-table").nth(2).locator("td[data-value]")
    assert cells.count() == bos + 1


def test_grad_check_shows_each_weight_and_the_worst(server, page: Page):
    chars, bos, weights = model()
    tokens = [bos] + [chars.index(ch) for ch in "emma"] + [bos]
    page.goto(server.url + "/lessons/6.4-gradient-check/")
    widget = page.locator('[data-widget="grad-check"]')
    expect(widget.locator("[data-verdict]")).to_contain_text("agree")
    rows = widget.locator("tbody tr")
    assert rows.count() == 15
    # The slope of wte[BOS][2], measured here by nudging, is the number shown.
    row = weights["wte"][bos]
    old = row[2]
    row[2] = old + 1e-5
    up = mean_loss(weights, tokens)
    row[2] = old - 1e-5
    down = mean_loss(weights, tokens)
    row[2] = old
    shown = widget.locator('tr[data-weight="wte[BOS][2]"] td').first
    assert number(shown.inner_text()) == pytest.approx((up - down) / 2e-5, abs=1e-8)
    # The verdict's worst is the largest |nudging - backprop| of the rows shown.
    gaps = [abs(number(rows.nth(i).locator("td").nth(0).get_attribute("data-numerical"))
                - number(rows.nth(i).locator("td").nth(1).get_attribute("data-analytic")))
            for i in range(15)]
    worst = float(widget.locator("[data-worst]").get_attribute("data-worst"))
    assert worst == pytest.approx(max(gaps), rel=1e-9) and worst < 1e-6
    expect(widget.locator("tr.gc-worst")).to_have_count(1)
    # The sign flipped: every backprop number turns around, and the check says so.
    widget.get_by_label("One-hot − probs (the sign flipped)").check()
    expect(widget.locator("[data-verdict]")).to_have_attribute("data-tone", "bad")
    flipped = number(widget.locator('tr[data-weight="wte[BOS][2]"] td').nth(1).inner_text())
    assert flipped == pytest.approx(-(up - down) / 2e-5, abs=1e-7)
    # Keyboard: the radio group moves with the arrow keys.
    widget.get_by_label("One-hot − probs (the sign flipped)").focus()
    page.keyboard.press("ArrowUp")
    expect(widget.get_by_label("Right: train1 as written")).to_be_checked()
    expect(widget.locator("[data-verdict]")).to_have_attribute("data-tone", "good")


def test_line_chart_switches_views_and_adds_the_mistake(server, page: Page):
    page.goto(server.url + "/lessons/6.5-sgd-and-lr-decay/")
    widget = page.locator('[data-widget="line-chart"]')
    legend = widget.locator("[data-series]")
    expect(legend).to_have_count(2)
    widget.get_by_label("Try it without the decay").check()
    expect(legend).to_have_count(3)
    expect(widget.locator("[data-caption]")).to_contain_text("Without the decay")
    widget.get_by_label("learning rate").check()
    # lr = 1.0 * (1 - step / 1000): the last step, 999, has 0.001; without decay it stays 1.
    title = widget.locator(".lc-title").inner_text()
    assert f"decaying (train1): {1.0 * (1 - 999 / 1000):g} at the end" in title
    assert "no decay: 1 at the end" in title
    expect(widget.locator("path.lc-bad")).to_have_count(1)
    widget.get_by_label("learning rate").focus()
    page.keyboard.press("ArrowLeft")
    expect(widget.get_by_label("loss", exact=True)).to_be_checked()
