"""Module 10's widget kinds in Chromium: loss-surface (10.1, 10.3, 10.5) and bias-correction
(10.4).

Each is driven with the keyboard and clicks, and the numbers it shows are compared with numbers
worked out here in plain Python, independently of the widget's and the lesson's code: SGD and
Adam on the surface, step by step; and microgpt's first steps, trained here from microgpt.py's
own model with Adam done here, for the parameter the bias-correction widget shows first.
"""
from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from linebyline.course import default_course_path
from linebyline.course.dataset import names_file

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
EPS = 1e-8


# --- the surface, worked out here ------------------------------------------------------------

def sgd(a, b, start, steps, lr, decay=False):
    x, y = start
    for step in range(steps):
        rate = lr * (1 - step / steps) if decay else lr
        x, y = x - rate * 2 * a * x, y - rate * 2 * b * y
    return x, y


def adam(a, b, start, steps, lr, beta1, beta2, decay=False, mistake=None):
    """Adam on a·x² + b·y², as microgpt.py does it; `mistake` as the widget's toggle names it.
    Returns the final (x, y) and, for each step, (g, m, v, m_hat, v_hat, move) per parameter."""
    p = list(start)
    m, v = [0.0, 0.0], [0.0, 0.0]
    record = []
    for step in range(steps):
        g = [2 * a * p[0], 2 * b * p[1]]
        rate = lr * (1 - step / steps) if decay else lr
        taken = []
        for i in range(2):
            slot = 0 if mistake == "shared" else i
            m[slot] = beta1 * m[slot] + (1 - beta1) * g[i]
            v[slot] = beta2 * v[slot] + (1 - beta2) * g[i] ** 2
            m_hat = m[slot] / (1 - beta1 ** (step + 1))
            v_hat = v[slot] / (1 - beta2 ** (step + 1))
            root = v_hat if mistake == "no-sqrt" else math.sqrt(v_hat)
            move = rate * m_hat / (root + EPS)
            p[i] -= move
            taken.append((g[i], m[slot], v[slot], m_hat, v_hat, move))
        record.append(taken)
    return tuple(p), record


def shown(widget: Locator, name: str) -> float:
    return float(widget.locator(f'[data-readout="{name}"]').get_attribute("data-value"))


def pick(widget: Locator, control: str, index: int) -> None:
    """Move a slider to the index-th of its values, by keyboard as a learner would."""
    slider = widget.locator(f'[data-control="{control}"]')
    slider.focus()
    slider.press("Home")
    for _ in range(index):
        slider.press("ArrowRight")


def assert_positions(widget: Locator, sgd_xy, adam_xy) -> None:
    for name, want in (("sgd-x", sgd_xy[0]), ("sgd-y", sgd_xy[1]),
                       ("adam-x", adam_xy[0]), ("adam-y", adam_xy[1])):
        assert shown(widget, name) == pytest.approx(want, rel=1e-9, abs=1e-12), name


def assert_adam_step(widget: Locator, taken) -> None:
    table = widget.locator('[data-readout="adam-step"]')
    for row_name, numbers in zip(("x", "y"), taken):
        row = table.locator(f'tr[data-param="{row_name}"]')
        for col, want in zip(("g", "m", "v", "m-hat", "v-hat", "move"), numbers):
            got = float(row.locator(f'td[data-col="{col}"]').get_attribute("data-value"))
            assert got == pytest.approx(want, rel=1e-9, abs=1e-15), (row_name, col)


def test_loss_surface_races_sgd_and_adam_as_python_does(server, page: Page):
    page.goto(server.url + "/lessons/10.1-one-step-size-is-not-enough/")
    widget = page.locator('[data-widget="loss-surface"]')
    expect(widget).to_have_attribute("data-mounted", "")
    a, b, start, steps = 5.0, 0.05, (1.0, 1.5), 30
    counter = widget.locator("[data-step-counter]")
    expect(counter).to_have_text(f"step {steps} / {steps}")
    # As the lesson starts: SGD and Adam both with lr 0.1, Adam's betas at 0 (the scaled step).
    adam_xy, _ = adam(a, b, start, steps, 0.1, 0.0, 0.0)
    assert_positions(widget, sgd(a, b, start, steps, 0.1), adam_xy)
    assert shown(widget, "sgd-y") == pytest.approx(1.5 * (1 - 0.1 * 0.1) ** 30)

    # SGD past 2 / 10 blows up in the steep direction, and the note says why, with the factor.
    pick(widget, "sgd_lr", 6)  # 0.21
    expect(widget.locator('[data-setting="sgd_lr"]')).to_have_text("0.21")
    assert shown(widget, "sgd-x") == pytest.approx(sgd(a, b, start, steps, 0.21)[0])
    expect(widget.locator('[data-readout="sgd-note"]')).to_contain_text("= −1.1, so x grows")

    # Adam with microgpt's betas, then walked back to step 3 to read its numbers there.
    pick(widget, "beta1", 2)  # 0.85
    pick(widget, "beta2", 3)  # 0.99
    adam_xy, record = adam(a, b, start, steps, 0.1, 0.85, 0.99)
    assert_positions(widget, sgd(a, b, start, steps, 0.21), adam_xy)
    widget.get_by_role("button", name="Reset").click()
    for _ in range(3):
        widget.get_by_role("button", name="Step ▶").click()
    expect(counter).to_have_text(f"step 3 / {steps}")
    assert_adam_step(widget, record[2])

    # The mistake of 10.1: v̂ without its root.
    widget.get_by_label("Try v̂ without its square root").check()
    expect(widget).to_have_attribute("data-mistake", "no-sqrt")
    wrong_xy, wrong = adam(a, b, start, steps, 0.1, 0.85, 0.99, mistake="no-sqrt")
    assert_adam_step(widget, wrong[2])
    widget.get_by_role("button", name="To the end").click()
    assert shown(widget, "adam-x") == pytest.approx(wrong_xy[0], rel=1e-9, abs=1e-12)


def test_loss_surface_with_one_m_and_v_for_both_and_with_the_decay(server, page: Page):
    page.goto(server.url + "/lessons/10.3-m-and-v/")
    widget = page.locator('[data-widget="loss-surface"]')
    a, b, start, steps = 5.0, 0.05, (1.0, 1.5), 40
    right, _ = adam(a, b, start, steps, 0.1, 0.85, 0.99)
    assert_positions(widget, sgd(a, b, start, steps, 0.19), right)
    widget.get_by_label("Try one m and one v for both parameters").check()
    shared, record = adam(a, b, start, steps, 0.1, 0.85, 0.99, mistake="shared")
    assert_positions(widget, sgd(a, b, start, steps, 0.19), shared)
    assert_adam_step(widget, record[-1])
    assert abs(shared[1]) > 10 * abs(right[1])  # the flat direction starves again

    page.goto(server.url + "/lessons/10.5-the-update-eps-and-lr-decay/")
    widget = page.locator('[data-widget="loss-surface"]')
    steps = 60
    decayed, _ = adam(a, b, start, steps, 0.2, 0.85, 0.99, decay=True)
    assert_positions(widget, sgd(a, b, start, steps, 0.19, decay=True), decayed)
    widget.get_by_label("the learning rate decays to 0 over the steps (microgpt's lr)").uncheck()
    flat, _ = adam(a, b, start, steps, 0.2, 0.85, 0.99)
    assert_positions(widget, sgd(a, b, start, steps, 0.19), flat)


# --- microgpt's first steps, trained here -----------------------------------------------------

def first_steps(steps: int):
    """microgpt.py's model (its own lines up to the training loop), trained here for `steps`
    steps with Adam done here: wte[BOS][0]'s gradient, m and v after each step."""
    source = (default_course_path() / "microgpt.py").read_text(encoding="utf-8")
    head = source[:source.index("for step in range(num_steps):")]
    space = {"__name__": "model", "open": lambda *a, **k: open(names_file(), encoding="utf-8")}
    exec(compile(head, "microgpt.py", "exec"), space)
    params, docs, chars, bos = space["params"], space["docs"], space["chars"], space["BOS"]
    watched = params.index(space["weights"]["wte"][bos][0])
    m, v = [0.0] * len(params), [0.0] * len(params)
    seen = []
    for step in range(steps):
        tokens = [bos] + [chars.index(ch) for ch in docs[step]] + [bos]
        n = min(16, len(tokens) - 1)
        keys, values = [[] for _ in range(space["n_layer"])], [[] for _ in range(space["n_layer"])]
        losses = [-space["softmax"](space["gpt"](tokens[pos], pos, keys, values))[tokens[pos + 1]].log()
                  for pos in range(n)]
        loss = (1 / n) * sum(losses)
        loss.backward()
        lr = 0.01 * (1 - step / 1000)
        grad = params[watched].grad
        for i, p in enumerate(params):
            m[i] = 0.85 * m[i] + 0.15 * p.grad
            v[i] = 0.99 * v[i] + 0.01 * p.grad ** 2
            p.data -= lr * (m[i] / (1 - 0.85 ** (step + 1))) / (
                math.sqrt(v[i] / (1 - 0.99 ** (step + 1))) + EPS)
            p.grad = 0
        seen.append((grad, m[watched], v[watched], loss.data))
    return seen


def cell(widget: Locator, col: str) -> str:
    return widget.locator(f'[data-readout="row"] td[data-col="{col}"]').get_attribute("data-value")


def test_bias_correction_shows_microgpts_first_steps_as_worked_out_here(server, page: Page):
    steps = first_steps(3)
    page.goto(server.url + "/lessons/10.4-bias-correction/")
    widget = page.locator('[data-widget="bias-correction"]')
    expect(widget).to_have_attribute("data-mounted", "")
    counter = widget.locator("[data-step-counter]")
    for t, (grad, m, v, _loss) in enumerate(steps, 1):
        expect(counter).to_have_text(f"step {t} / 20")
        assert float(cell(widget, "g")) == pytest.approx(grad, rel=1e-9)
        assert float(cell(widget, "m")) == pytest.approx(m, rel=1e-9)
        assert float(cell(widget, "v")) == pytest.approx(v, rel=1e-9)
        m_hat, v_hat = m / (1 - 0.85 ** t), v / (1 - 0.99 ** t)
        assert float(cell(widget, "m-hat")) == pytest.approx(m_hat, rel=1e-9)
        assert float(cell(widget, "v-hat")) == pytest.approx(v_hat, rel=1e-9)
        assert float(cell(widget, "step")) == pytest.approx(m_hat / (math.sqrt(v_hat) + EPS),
                                                            rel=1e-9)
        widget.get_by_role("button", name="Step ▶").click()
    assert float(cell(widget, "step")) != 0
    # The first step, corrected, is lr long: m_hat / √v_hat = 1 for a gradient that is not 0.
    widget.get_by_role("button", name="Reset").click()
    assert float(cell(widget, "step")) == pytest.approx(1.0, rel=1e-6)
    # The update subtracts the step: wte[BOS][0]'s first gradient is positive, so it moves down,
    # and the verdict gives the move with its sign (−1 × lr), not the step's.
    assert steps[0][0] > 0
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text(
        "this weight moves by −1 × lr; without it, by −1.5 × lr")

    # Without the correction: m / √v, 1.5 at the first step.
    widget.get_by_label("bias correction (divide m and v by 1 − β^t)").uncheck()
    expect(widget).to_have_attribute("data-mode", "raw")
    grad, m, v, _ = steps[0]
    assert float(cell(widget, "step")) == pytest.approx(m / (math.sqrt(v) + EPS), rel=1e-9)
    assert float(cell(widget, "step")) == pytest.approx(1.5, rel=1e-6)
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text("1.5 times as far")

    # The mistake: the power step. The first step divides by 0; the second by 1 − β^1.
    widget.get_by_label("Try step instead of step + 1").check()
    expect(widget).to_have_attribute("data-mode", "shifted")
    expect(widget.locator('[data-readout="row"] td[data-col="step"]')).to_have_text(
        "ZeroDivisionError")
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text("ZeroDivisionError")
    widget.get_by_role("button", name="Step ▶").click()
    _, m2, v2, _ = steps[1]
    assert float(cell(widget, "step")) == pytest.approx(
        (m2 / (1 - 0.85)) / (math.sqrt(v2 / (1 - 0.99)) + EPS), rel=1e-9)

    # The losses of the run with the correction, as trained here.
    caption = widget.locator(".bc-caption").nth(1).inner_text()
    assert "measured in two runs of microgpt" in caption
    lines = widget.locator('polyline[data-line="with"]')
    assert lines.count() == 1
    # Each run's largest loss is named with its own step: the highest point of its line.
    found = re.search(r"the largest, [\d.]+ \(step (\d+)\) with it and [\d.]+ \(step (\d+)\) without",
                      caption)
    assert found, caption
    for run, step in zip(("with", "without"), found.groups()):
        points = widget.locator(f'polyline[data-line="{run}"]').get_attribute("points").split()
        heights = [float(point.split(",")[1]) for point in points]  # smaller y: higher on screen
        assert heights.index(min(heights)) + 1 == int(step), run
