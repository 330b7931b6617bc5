"""The widgets of module 5 in Chromium, driven by clicks and keys; every number they show is
compared with the same number worked out here in Python, independently of the widget."""
from __future__ import annotations

import json
import math
import random

import pytest
from playwright.sync_api import Page, expect

from linebyline.course.dataset import names_file

from .conftest import busy_widget_passes_axe_and_fits_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.no_python]


def _start_of_train1():
    """Seed 42, the shuffle, then wte, mlp_fc1 and mlp_fc2 as standard normal draws (std 1)."""
    docs = [line.strip() for line in open(names_file(), encoding="utf-8") if line.strip()]
    random.seed(42)
    random.shuffle(docs)
    chars = sorted(set("".join(docs)))
    vocab = len(chars) + 1
    z = [[random.gauss(0, 1.0) for _ in range(16)] for _ in range(vocab)]
    return chars, z


CHARS, Z = _start_of_train1()
VOCAB = len(CHARS) + 1


def _real_weights():
    docs = [line.strip() for line in open(names_file(), encoding="utf-8") if line.strip()]
    random.seed(42)
    random.shuffle(docs)

    def draw(rows, cols):
        return [[random.gauss(0, 0.08) for _ in range(cols)] for _ in range(rows)]

    return draw(VOCAB, 16), draw(64, 16), draw(VOCAB, 64)


WTE, FC1, FC2 = _real_weights()


def dot(row, x):
    return sum(a * b for a, b in zip(row, x))


def softmax(logits):
    biggest = max(logits)
    exps = [math.exp(v - biggest) for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def value(locator) -> float:
    return float(locator.get_attribute("data-value"))


def test_matrix_heatmap_init_draws_follow_the_seed_and_the_std(server, page: Page):
    page.goto(server.url + "/lessons/5.1-matrices-and-random-init/")
    widget = page.locator('[data-widget="matrix-heatmap"]')
    expect(widget.locator('[data-readout="std"]')).to_have_text("0.08")
    # Cell [0][1], the second draw after the shuffle: exactly train1.py's weights['wte'][0][1].
    assert value(widget.locator('[data-readout="value"]')) == WTE[0][1] == 0 + Z[0][1] * 0.08
    expect(widget.locator('[data-readout="draw"]')).to_have_attribute("data-value", "2")
    spread = widget.locator('[data-stat="spread"]')
    flat = [v for row in WTE for v in row]
    mean = sum(flat) / len(flat)
    assert value(spread) == pytest.approx(math.sqrt(sum((v - mean) ** 2 for v in flat) / len(flat)), rel=1e-9)

    # The std slider, by keyboard: every number is std × the same draw.
    slider = widget.locator("input[type=range]")
    slider.focus()
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    expect(widget.locator('[data-readout="std"]')).to_have_text("0.2")
    assert value(widget.locator('[data-readout="value"]')) == 0 + 0.2 * Z[0][1]

    # Another cell, picked with the keyboard: row 3, column 5 is draw 3 · 16 + 5 + 1 = 54.
    widget.get_by_label("row", exact=True).select_option("3")
    widget.get_by_label("column", exact=True).fill("5")
    expect(widget.locator('[data-readout="draw"]')).to_have_attribute("data-value", "54")
    assert value(widget.locator('[data-readout="value"]')) == 0 + 0.2 * Z[3][5]

    # The mistake: the same draws filled column by column; [3][5] then holds draw 5 · 27 + 3 + 1.
    widget.get_by_label("Try filling column by column").check()
    flat_z = [v for row in Z for v in row]
    expect(widget.locator('[data-readout="draw"]')).to_have_attribute("data-value", str(5 * VOCAB + 3 + 1))
    assert value(widget.locator('[data-readout="value"]')) == 0 + 0.2 * flat_z[5 * VOCAB + 3]

    # Another start of the stream: seed 42 with no shuffle first.
    widget.get_by_label("Try filling column by column").uncheck()
    widget.get_by_label("seed 42, drawn straight away (no shuffle first)").check()
    random.seed(42)
    fresh = [[random.gauss(0, 1.0) for _ in range(16)] for _ in range(VOCAB)]
    assert value(widget.locator('[data-readout="value"]')) == 0 + 0.2 * fresh[3][5]


def test_matrix_heatmap_lookup_takes_a_row_or_a_column(server, page: Page):
    page.goto(server.url + "/lessons/5.2-embedding-lookup/")
    widget = page.locator('[data-widget="matrix-heatmap"]')
    x = widget.locator('[data-readout="x"]')
    e = CHARS.index("e")
    expect(widget.locator('[data-readout="line"]')).to_have_text(f"x = weights['wte'][{e}]")
    assert json.loads(x.get_attribute("data-values")) == WTE[e]
    widget.get_by_label("token", exact=True).select_option(str(VOCAB - 1))  # BOS
    assert json.loads(x.get_attribute("data-values")) == WTE[VOCAB - 1]

    widget.get_by_label("Try a column instead of a row").check()
    expect(x).to_have_text("IndexError: list index out of range")  # BOS's id is above 15
    widget.get_by_label("token", exact=True).select_option(str(e))
    assert json.loads(x.get_attribute("data-values")) == [row[e] for row in WTE]
    assert widget.locator(".mh-cell.mh-marked").count() == VOCAB


def test_linear_steps_walks_rows_and_the_real_layer(server, page: Page):
    page.goto(server.url + "/lessons/5.3-linear/")
    widget = page.locator('[data-widget="linear-steps"]')
    counter = widget.locator("[data-step-counter]")
    w = [[1, 2, 3], [-1, 0, 2]]
    x = [2, 1, -1]
    expect(counter).to_have_text("step 0 / 2")
    step = widget.get_by_role("button", name="Step")
    step.click()
    expect(counter).to_have_text("step 1 / 2")
    assert value(widget.locator('[data-out="0"]')) == dot(w[0], x)
    step.focus()
    page.keyboard.press("Enter")
    assert [value(widget.locator(f'[data-out="{k}"]')) for k in range(2)] == [dot(row, x) for row in w]

    # Edit x[2] with the keyboard: the outputs shown follow at once.
    widget.get_by_label("x[2]").fill("4")
    x[2] = 4
    expect(widget.get_by_role("button", name="Show all")).to_be_disabled()
    assert [value(widget.locator(f'[data-out="{k}"]')) for k in range(2)] == [dot(row, x) for row in w]

    # The mistake: one output per column, zip stopping at the shorter list.
    widget.get_by_label("Try columns instead of rows").check()
    widget.get_by_role("button", name="Show all").click()
    columns = [dot(col, x) for col in zip(*w)]
    expect(counter).to_have_text("step 3 / 3")
    assert [value(widget.locator(f'[data-out="{k}"]')) for k in range(3)] == columns
    assert len(columns) == 3 and "is never used" in widget.locator(".ls-work").inner_text()

    # The real sizes: row 5 of mlp_fc1 times the row of 'a'; with the mistake, 16 outputs only.
    real = widget.get_by_label("token (x is its row of wte)")
    real.select_option("0")
    widget.get_by_label("output number").fill("5")
    assert value(widget.locator('[data-readout="real-value"]')) == pytest.approx(
        dot([row[5] for row in FC1], WTE[0]), rel=1e-12)  # column 5, since the mistake is on
    widget.get_by_label("Try columns instead of rows").uncheck()
    real_value = value(widget.locator('[data-readout="real-value"]'))
    assert real_value == pytest.approx(dot(FC1[5], WTE[0]), rel=1e-12)


def test_linear_steps_with_relu_counts_the_zeros(server, page: Page):
    page.goto(server.url + "/lessons/5.4-relu/")
    widget = page.locator('[data-widget="linear-steps"]')
    widget.get_by_role("button", name="Show all").click()
    w = [[1, 1, 1], [-1, 1, 0], [0.5, -2, 1]]
    x = [2, -1, 1]
    h = json.loads(widget.locator('[data-readout="h"]').get_attribute("data-values"))
    assert h == [max(0.0, dot(row, x)) for row in w]
    widget.get_by_label("Try ReLU before linear").check()
    widget.get_by_role("button", name="Show all").click()
    h = json.loads(widget.locator('[data-readout="h"]').get_attribute("data-values"))
    assert h == [dot(row, [max(0.0, v) for v in x]) for row in w]
    widget.get_by_label("Try ReLU before linear").uncheck()
    e = CHARS.index("e")
    widget.get_by_label("token (x is its row of wte)").select_option(str(e))
    zeros = sum(1 for row in FC1 if max(0.0, dot(row, WTE[e])) == 0)
    expect(widget.locator('[data-readout="zeros"]')).to_have_attribute("data-value", str(zeros))


def test_softmax_playground_with_and_without_the_max(server, page: Page):
    page.goto(server.url + "/lessons/5.5-softmax/")
    widget = page.locator('[data-widget="softmax-playground"]')

    def probs(attribute="data-p", n=3):
        return [value(widget.locator(f"[{attribute}='{i}']")) for i in range(n)]

    assert probs() == pytest.approx(softmax([2.0, 1.0, 0.1]), rel=1e-12)
    assert probs("data-p-raw") == pytest.approx(softmax([2.0, 1.0, 0.1]), rel=1e-12)

    widget.get_by_role("button", name="large: [1000, 999, 998]").click()
    expect(widget.locator('[data-readout="raw-error"]')).to_contain_text("OverflowError: math range error")
    assert probs() == pytest.approx(softmax([1000.0, 999.0, 998.0]), rel=1e-12)

    widget.get_by_role("button", name="very negative: [−1000, −1001, −1002]").click()
    expect(widget.locator('[data-readout="raw-error"]')).to_contain_text("ZeroDivisionError")

    # Type a logit: -1000 becomes 5.
    widget.get_by_label("logit of 0").fill("5")
    expect(widget.locator('[data-readout="raw-error"]')).to_have_text("")
    assert probs() == pytest.approx(softmax([5.0, -1001.0, -1002.0]), rel=1e-12)

    # The mistake: divided by the sum of the logits, the shares no longer add up to 1.
    widget.get_by_role("button", name="small: [2.0, 1.0, 0.1]").click()
    widget.get_by_label("Try dividing by the sum of the logits").check()
    exps = [math.exp(v - 2.0) for v in [2.0, 1.0, 0.1]]
    wrong_sum = sum(e / 3.1 for e in exps)
    assert value(widget.locator('[data-readout="sum"]')) == pytest.approx(wrong_sum, rel=1e-12)
    widget.get_by_label("Try dividing by the sum of the logits").uncheck()

    # The model's own 27 logits after BOS.
    widget.get_by_role("button", name="the model's 27 logits after BOS").click()
    bos = VOCAB - 1
    h = [max(0.0, dot(row, WTE[bos])) for row in FC1]
    logits = [dot(row, h) for row in FC2]
    assert probs(n=VOCAB) == pytest.approx(softmax(logits), rel=1e-9)
    assert value(widget.locator('[data-readout="sum"]')) == pytest.approx(1.0)
    # A table, not a cell in a cell: each row has as many cells as the table has columns.
    assert widget.locator("td td, td th, th td").count() == 0


def test_param_counter_sums_the_matrices(server, page: Page):
    page.goto(server.url + "/lessons/5.6-counting-3184-parameters/")
    widget = page.locator('[data-widget="param-counter"]')

    def counts():
        return {name: value(widget.locator(f'[data-count="{name}"]'))
                for name in ("wte", "mlp_fc1", "mlp_fc2")}

    real = {name: len(mat) * len(mat[0]) for name, mat in (("wte", WTE), ("mlp_fc1", FC1), ("mlp_fc2", FC2))}
    assert counts() == real
    assert value(widget.locator('[data-readout="total"]')) == sum(real.values()) == 3184
    assert value(widget.locator('[data-readout="compare"]')) == VOCAB * VOCAB
    expect(widget.locator('[data-readout="status"]')).to_contain_text(f"{3184 / VOCAB ** 2:.1f} times")

    # n_embd = 8: the hidden width follows at 4 × 8.
    widget.get_by_label("n_embd (the width of x)").fill("8")
    n, hidden = 8, 32
    assert value(widget.locator('[data-readout="total"]')) == VOCAB * n + hidden * n + VOCAB * hidden
    # Unlink the hidden width and set it on its own.
    widget.get_by_label("keep it 4 × n_embd").uncheck()
    widget.get_by_label("hidden width (the length of h)").fill("100")
    hidden = 100
    assert value(widget.locator('[data-readout="total"]')) == VOCAB * n + hidden * n + VOCAB * hidden

    # Back to train1.py, then the wrong shape for mlp_fc2.
    widget.get_by_role("button", name="Back to train1.py").click()
    assert value(widget.locator('[data-readout="total"]')) == 3184
    widget.get_by_label("Try mlp_fc2 as vocab_size × n_embd").check()
    assert value(widget.locator('[data-readout="total"]')) == VOCAB * 16 + 64 * 16 + VOCAB * 16
    expect(widget.locator('[data-readout="status"]')).to_contain_text("the real mlp_fc2 is")


LESSON_PAGES = ["/lessons/5.1-matrices-and-random-init/", "/lessons/5.2-embedding-lookup/",
                "/lessons/5.3-linear/", "/lessons/5.4-relu/", "/lessons/5.5-softmax/",
                "/lessons/5.6-counting-3184-parameters/"]


def _mistake_on(page: Page) -> None:
    """Turn the widget's mistake on, so that its warning colours are checked too."""
    page.locator("#explore input[type=checkbox]").last.check()


@pytest.mark.parametrize("path", LESSON_PAGES)
def test_module_5_widgets_pass_axe_and_fit_a_phone(server, page: Page, path):
    busy_widget_passes_axe_and_fits_a_phone(page, server.url + path, _mistake_on)
