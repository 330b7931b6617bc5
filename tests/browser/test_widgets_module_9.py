"""The new widgets of module 9 in Chromium, driven by clicks and keys; every number they show is
compared with the same number worked out here, in plain Python floats, independently of the
widget and of the lesson's code: microgpt's weights drawn from the seed, rmsnorm, the slices,
the scores and softmax of every head, and the count of every matrix."""
from __future__ import annotations

import math
import os
import random
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import default_course_path
from linebyline.course.dataset import names_file

from .conftest import busy_widget_passes_axe_and_fits_a_phone, wait_for_python

pytestmark = pytest.mark.browser
N_EMBD, BLOCK, HEAD_DIM, N_HEAD = 16, 16, 4, 4


def _docs_and_chars():
    docs = [line.strip() for line in open(names_file(), encoding="utf-8") if line.strip()]
    random.seed(42)
    random.shuffle(docs)
    return sorted(set("".join(docs)))


def _initial_weights():
    """microgpt's matrices as floats, drawn in its order right after the shuffle."""
    chars = _docs_and_chars()
    vocab = len(chars) + 1

    def draw(rows, cols):
        return [[random.gauss(0, 0.08) for _ in range(cols)] for _ in range(rows)]

    weights = {"wte": draw(vocab, N_EMBD), "wpe": draw(BLOCK, N_EMBD), "lm_head": draw(vocab, N_EMBD)}
    for name in ("attn_wq", "attn_wk", "attn_wv", "attn_wo"):
        weights[f"layer0.{name}"] = draw(N_EMBD, N_EMBD)
    weights["layer0.mlp_fc1"] = draw(4 * N_EMBD, N_EMBD)
    weights["layer0.mlp_fc2"] = draw(N_EMBD, 4 * N_EMBD)
    return chars, weights


CHARS, WEIGHTS = _initial_weights()


def rmsnorm(x):
    scale = (sum(v * v for v in x) / len(x) + 1e-5) ** -0.5
    return [v * scale for v in x]


def matvec(w, x):
    return [sum(a * b for a, b in zip(row, x)) for row in w]


def softmax(scores):
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    return [e / sum(exps) for e in exps]


def queries_and_keys(weights, word):
    """Layer 0's q and k at every position of BOS + word (they depend on the embeddings only)."""
    tokens = [len(CHARS)] + [CHARS.index(ch) for ch in word]
    qs, ks = [], []
    for pos, token in enumerate(tokens):
        x = rmsnorm(rmsnorm([a + b for a, b in zip(weights["wte"][token], weights["wpe"][pos])]))
        qs.append(matvec(weights["layer0.attn_wq"], x))
        ks.append(matvec(weights["layer0.attn_wk"], x))
    return qs, ks


def head_weights(q, keys, lo, hi, head_dim):
    return softmax([sum(a * b for a, b in zip(q[lo:hi], k[lo:hi])) / head_dim ** 0.5 for k in keys])


def number(locator) -> float:
    return float(locator.get_attribute("data-value") or locator.get_attribute("data-weight")
                 or locator.get_attribute("data-score"))


# --- head-slices (9.1) ------------------------------------------------------------------------

@pytest.mark.no_python
def test_head_slices_cuts_q_and_works_out_each_head(server, page: Page):
    page.goto(server.url + "/lessons/9.1-heads-and-slices/")
    widget = page.locator('[data-widget="head-slices"]')
    qs, ks = queries_and_keys(WEIGHTS, "emma")
    q = qs[-1]
    # The 16 numbers of q, as gpt() makes them at the 'a' of 'emma', each read by one head.
    cells = widget.locator("[data-cell]")
    expect(cells).to_have_count(N_EMBD)
    assert [c.get_attribute("data-heads") for c in cells.all()] == [str(i // 4) for i in range(16)]
    assert [float(c.get_attribute("data-value")) for c in cells.all()] == pytest.approx(q, abs=1e-12)
    assert all(f"read by head {i // 4}" in c.get_attribute("aria-label") for i, c in enumerate(cells.all()))
    for head in range(N_HEAD):
        card = widget.locator(f'[data-head="{head}"]')
        span = (card.get_attribute("data-lo"), card.get_attribute("data-hi"))
        assert span == (str(4 * head), str(4 * head + 4))
        want = head_weights(q, ks, 4 * head, 4 * head + 4, HEAD_DIM)
        got = [float(td.get_attribute("data-weight")) for td in card.locator("[data-weight]").all()]
        assert got == pytest.approx(want, abs=1e-12)
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text(
        "every number of q is read by exactly one head")

    # Two heads of 8, by keyboard: each score now adds up 8 products, over √8.
    widget.get_by_label("n_head = 4").focus()
    page.keyboard.press("ArrowLeft")
    expect(widget.get_by_label("n_head = 2")).to_be_checked()
    expect(widget.locator('[data-readout="sizes"]')).to_contain_text("head_dim = 16 // 2 = 8")
    for head in range(2):
        card = widget.locator(f'[data-head="{head}"]')
        want = head_weights(q, ks, 8 * head, 8 * head + 8, 8)
        got = [float(td.get_attribute("data-weight")) for td in card.locator("[data-weight]").all()]
        assert got == pytest.approx(want, abs=1e-12)

    # The mistake: slices step by n_head = 2, so they are q[0:2] and q[2:4] and 12 numbers go unread.
    widget.get_by_label(re.compile("Try lo, hi = h \\* n_head")).check()
    assert [c.get_attribute("data-heads") for c in cells.all()] == ["0", "0", "1", "1"] + [""] * 12
    verdict = widget.locator('[data-readout="verdict"]')
    expect(verdict).to_have_attribute("data-unread", "12")
    expect(verdict).to_contain_text("12 of the 16 numbers are read by no head")
    card = widget.locator('[data-head="1"]')
    want = head_weights(q, ks, 2, 4, 8)  # the wrong slice, still divided by √head_dim
    got = [float(td.get_attribute("data-weight")) for td in card.locator("[data-weight]").all()]
    assert got == pytest.approx(want, abs=1e-12)
    # With 4 heads of 4 the mistake changes nothing, and the widget says why.
    widget.get_by_label("n_head = 4").check()
    expect(verdict).to_contain_text("the mistake cannot show here")
    assert [c.get_attribute("data-heads") for c in cells.all()] == [str(i // 4) for i in range(16)]


# --- head-attention (9.2) ---------------------------------------------------------------------

def grid_of(widget, head):
    """{(row, col): weight} of one head's grid as the widget shows it."""
    cells = widget.locator(f'td[data-head="{head}"]')
    return {(int(c.get_attribute("data-row")), int(c.get_attribute("data-col"))):
            float(c.get_attribute("data-weight")) for c in cells.all()}


def expected_grids(weights, word):
    qs, ks = queries_and_keys(weights, word)
    grids = []
    for head in range(N_HEAD):
        lo, hi = head * HEAD_DIM, (head + 1) * HEAD_DIM
        grids.append({(p, t): w for p in range(len(qs))
                      for t, w in enumerate(head_weights(qs[p], ks[:p + 1], lo, hi, HEAD_DIM))})
    whole = {(p, t): w for p in range(len(qs))
             for t, w in enumerate(head_weights(qs[p], ks[:p + 1], 0, N_EMBD, HEAD_DIM))}
    return grids, whole


def trained_weights(steps):
    """train4.py's own weights after `steps` steps of its own training (run here by CPython)."""
    source = (default_course_path() / "train4.py").read_text(encoding="utf-8")
    source = re.sub(r"^num_steps = \d+$", f"num_steps = {steps}", source, flags=re.MULTILINE)
    source = source[:source.index("# --- sampling")]
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        shutil.copyfile(names_file(), Path(folder) / "input.txt")
        os.chdir(folder)
        try:
            space = {"__name__": "train4"}
            exec(compile(source, "train4.py", "exec"), space)  # noqa: S102 - the course's own script
        finally:
            os.chdir(here)
    return {name: [[v.data for v in row] for row in mat] for name, mat in space["weights"].items()}


def test_head_attention_shows_every_head_before_and_after_training(server, page: Page):
    page.goto(server.url + "/lessons/9.2-per-head-attention/")
    widget = page.locator('[data-widget="head-attention"]')
    grids, whole = expected_grids(WEIGHTS, "emma")
    for head in range(N_HEAD):
        assert grid_of(widget, head) == pytest.approx(grids[head], abs=1e-12)
    expect(widget.locator('[data-readout="summary"]')).to_contain_text("an even share would be 0.2")
    # Another name, and the mistake: one search over the whole of q and k, four equal grids.
    widget.get_by_label("olivia").check()
    grids, whole = expected_grids(WEIGHTS, "olivia")
    assert grid_of(widget, 2) == pytest.approx(grids[2], abs=1e-12)
    widget.get_by_label("Try one search over the whole of q and k").check()
    for head in range(N_HEAD):
        assert grid_of(widget, head) == pytest.approx(whole, abs=1e-12)
    widget.get_by_label("Try one search over the whole of q and k").uncheck()

    # Training in the page's Python: 3 steps here, to stay quick (the lesson offers 300 and 1000).
    steps = 3
    trained = trained_weights(steps)
    wait_for_python(page)
    widget.locator("select").evaluate(f"(s) => s.add(new Option('{steps} steps', '{steps}'))")
    widget.locator("select").select_option(str(steps))
    widget.get_by_role("button", name="Train train4.py").click()
    status = widget.locator('[data-readout="status"]')
    expect(status).to_contain_text(f"Trained {steps} steps of train4.py", timeout=120_000)
    expect(widget.get_by_label(f"after {steps} steps")).to_be_checked()
    expect(widget.locator('[data-readout="heading"]')).to_contain_text(
        f"olivia, after {steps} steps of training")
    grids, _ = expected_grids(trained, "olivia")
    for head in range(N_HEAD):
        assert grid_of(widget, head) == pytest.approx(grids[head], abs=1e-9)
    # Before training is still there, one click away.
    widget.get_by_label("before training").check()
    grids, _ = expected_grids(WEIGHTS, "olivia")
    assert grid_of(widget, 0) == pytest.approx(grids[0], abs=1e-12)


# --- model-size (9.5) -------------------------------------------------------------------------

def counts(vocab, n_embd, block, layers):
    """Every matrix's count, worked out by building the shapes microgpt draws."""
    shapes = {"wte": (vocab, n_embd), "wpe": (block, n_embd), "lm_head": (vocab, n_embd)}
    for layer in range(layers):
        for name in ("attn_wq", "attn_wk", "attn_wv", "attn_wo"):
            shapes[f"layer{layer}.{name}"] = (n_embd, n_embd)
        shapes[f"layer{layer}.mlp_fc1"] = (4 * n_embd, n_embd)
        shapes[f"layer{layer}.mlp_fc2"] = (n_embd, 4 * n_embd)
    return {name: rows * cols for name, (rows, cols) in shapes.items()}


@pytest.mark.no_python
def test_model_size_counts_every_matrix_for_any_sizes(server, page: Page):
    page.goto(server.url + "/lessons/9.5-counting-4192/")
    widget = page.locator('[data-widget="model-size"]')
    real = {name: len(mat) * len(mat[0]) for name, mat in WEIGHTS.items()}
    for name, n in real.items():
        assert number(widget.locator(f'[data-count="{name}"]')) == n
    total = widget.locator('[data-readout="total"]')
    assert number(total) == sum(real.values()) == 4192
    expect(widget.locator('[data-readout="status"]')).to_contain_text("microgpt's own 9 matrices")

    # Three layers of 24, 40 characters, 8 positions: every count as microgpt's shapes give it.
    for label, value in (("n_layer", "3"), ("n_embd", "24"), ("vocab_size", "40"), ("block_size", "8")):
        widget.get_by_label(re.compile(f"^{label} ")).fill(value)
    want = counts(40, 24, 8, 3)
    for name in ("wte", "wpe", "lm_head", "layer0.attn_wq", "layer0.mlp_fc1", "layer0.mlp_fc2"):
        assert number(widget.locator(f'[data-count="{name}"]')) == want[name]
    assert number(widget.locator('[data-count="more layers"]')) == sum(
        n for name, n in want.items() if name.startswith(("layer1.", "layer2.")))
    assert number(total) == sum(want.values())
    expect(widget.locator('[data-readout="status"]')).to_contain_text(
        f"{sum(want.values()) / 4192:.2f} times microgpt's")
    # n_head changes nothing, and 5 heads cannot share 24 numbers evenly.
    widget.get_by_label(re.compile("^n_head ")).fill("5")
    assert number(total) == sum(want.values())
    expect(widget.locator('[data-readout="heads"]')).to_contain_text("does not divide n_embd = 24")
    widget.get_by_label(re.compile("^n_head ")).fill("6")
    expect(widget.locator('[data-readout="heads"]')).to_contain_text("head_dim = 24 // 6 = 4")

    # Back to microgpt, then mlp_fc1 turned round: the same total, and the widget says why.
    widget.get_by_role("button", name="Back to microgpt").click()
    assert number(total) == 4192
    widget.get_by_label(re.compile("Try mlp_fc1 turned round")).check()
    assert number(total) == 4192
    expect(widget.locator('[data-readout="status"]')).to_contain_text("a count cannot tell a matrix")


LESSON_PAGES = ["/lessons/9.1-heads-and-slices/", "/lessons/9.2-per-head-attention/",
                "/lessons/9.3-the-mlp-block/", "/lessons/9.4-the-layer-loop/",
                "/lessons/9.5-counting-4192/"]


def _mistake_on(page: Page) -> None:
    """Turn the widget's mistake on (where it has one), so that its warning colours are checked."""
    boxes = page.locator("#explore input[type=checkbox]")
    if boxes.count():
        boxes.last.check()


@pytest.mark.no_python
@pytest.mark.parametrize("path", LESSON_PAGES)
def test_module_9_widgets_pass_axe_and_fit_a_phone(server, page: Page, path):
    busy_widget_passes_axe_and_fits_a_phone(page, server.url + path, _mistake_on)
