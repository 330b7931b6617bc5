"""Module 7's new widget kinds in Chromium: value-graph (7.3), script-diff (7.1), step-race (7.7).

Each is driven as a learner would (typing, clicks, the mistake toggle, a race in the page's own
Python), and what it shows is compared with numbers worked out here, in plain Python, without
the widget's code or the lesson's compute: local grads and slopes by hand and by nudging, the
line diff of the two scripts, the losses train1.py prints, the Values a train2 step builds.
Then axe and a phone-sized screen on each of the three pages.
"""
from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import default_course_path
from linebyline.course.dataset import names_file

from .conftest import busy_widget_passes_axe_and_fits_a_phone, wait_for_python

pytestmark = pytest.mark.browser
COURSE = default_course_path()
VALUE_GRAPH = "/lessons/7.3-children-and-local-grads/"
SCRIPT_DIFF = "/lessons/7.1-what-gets-deleted/"
STEP_RACE = "/lessons/7.7-same-numbers-many-times-slower/"
RACE_S = 240  # Python starts, then 3 steps of each script, on a busy machine


def number(text: str) -> float:
    return float(text.replace("−", "-"))


# --- value-graph -------------------------------------------------------------------------------

def by_hand(a: float, b: float, c: float):
    """out = (a * b - c).exp() + a, as Value builds it: the local grads of each operation, and
    d(out)/d(each input) by the chain rule written out here."""
    ab = a * b
    shifted = ab + (-c)  # a * b + (c * -1)
    e = math.exp(shifted)
    locals_ = {"mul a b": (b, a), "mul c -1": (-1.0, c), "add": (1, 1), "exp": (e,), "out": (1, 1)}
    slopes = {"a": e * b + 1, "b": e * a, "c": -e}
    return locals_, slopes


def nudged(name: str, values: dict[str, float], h: float = 1e-6) -> float:
    def out(v):
        return math.exp(v["a"] * v["b"] - v["c"]) + v["a"]
    up, down = dict(values), dict(values)
    up[name] += h
    down[name] -= h
    return (out(up) - out(down)) / (2 * h)


@pytest.mark.no_python
def test_value_graph_shows_each_local_grad_and_both_slopes(server, page: Page):
    page.goto(server.url + VALUE_GRAPH)
    widget = page.locator('[data-widget="value-graph"]')
    widget.get_by_label("Expression").fill("(a * b - c).exp() + a")
    values = {"a": 1.0, "b": 2.0, "c": 3.0}
    locals_, slopes = by_hand(**values)
    # The starting expression agrees too: wait for the typed one's nodes before reading them.
    operations = widget.locator("[data-nodes] li[data-local]:not([data-kind=leaf]):not([data-kind=wrapped])")
    expect(operations).to_have_count(len(locals_))
    expect(widget.locator("[data-status]")).to_contain_text("Every slope through the graph agrees")
    recorded = [item.get_attribute("data-local") for item in operations.all()]
    got = sorted(tuple(round(float(x), 9) for x in text.split(",")) for text in recorded)
    want = sorted(tuple(round(float(x), 9) for x in grads) for grads in locals_.values())
    assert got == want
    for name, slope in slopes.items():
        row = widget.locator(f'[data-slopes] tr[data-name="{name}"]')
        assert math.isclose(float(row.get_attribute("data-graph")), slope, rel_tol=1e-12)
        assert math.isclose(float(row.get_attribute("data-nudged")), nudged(name, values),
                            rel_tol=1e-6)
        expect(row).to_have_attribute("data-agree", "true")

    # exp on a plain number: the output still holds the same number, but a, b and c now reach
    # it only through the final + a: their slopes through the graph part from nudging
    widget.locator(".vg-toggle input").check()
    status = widget.locator("[data-status]")
    expect(status).to_contain_text("part for a, b, c")
    expect(widget.locator('[data-slopes] tr[data-name="b"]')).to_have_attribute("data-graph", "0")
    expect(widget.locator('[data-slopes] tr[data-name="a"]')).to_have_attribute("data-graph", "1")
    expect(widget.locator(".vg-cut")).to_have_count(1)


@pytest.mark.no_python
def test_value_graph_explains_what_it_cannot_draw(server, page: Page):
    page.goto(server.url + VALUE_GRAPH)
    widget = page.locator('[data-widget="value-graph"]')
    field = widget.get_by_label("Expression")
    for typed, said in [("(a - 5).log()", "log is only defined above 0"),
                        ("a ** b", "takes a plain number as the power"),
                        ("1 + 2", "no graph at all"),
                        ("z + 1", "z is not one of the given Values")]:
        field.fill(typed)
        expect(widget.locator("[data-status]")).to_contain_text(said)
        expect(field).to_have_attribute("aria-invalid", "true")


# --- script-diff -------------------------------------------------------------------------------

def common_lines(a: list[str], b: list[str]) -> int:
    """The length of the longest run of lines the two texts share, in order (the diff keeps it)."""
    previous = [0] * (len(b) + 1)
    for line in a:
        current = [0]
        for j, other in enumerate(b):
            current.append(previous[j] + 1 if line == other else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def printed_losses(script: str, steps: int, folder: Path) -> list[str]:
    """What the course's script prints as its losses, run here with num_steps = steps."""
    text = (COURSE / script).read_text(encoding="utf-8").replace("num_steps = 1000",
                                                                 f"num_steps = {steps}")
    text = text.split("# --- sampling")[0]
    (folder / "input.txt").write_bytes(names_file().read_bytes())
    (folder / script).write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, script], cwd=folder, capture_output=True, text=True,
                          timeout=300, check=True)
    return [line.rsplit(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith("step")]


def test_script_diff_counts_the_lines_and_lines_up_the_losses(server, page: Page, tmp_path):
    page.goto(server.url + SCRIPT_DIFF)
    widget = page.locator('[data-widget="script-diff"]')
    summary = widget.locator('[data-readout="diff"]')
    expect(summary).to_contain_text("lines stay as they were")
    one = (COURSE / "train1.py").read_text(encoding="utf-8").splitlines()
    two = (COURSE / "train2.py").read_text(encoding="utf-8").splitlines()
    shared = common_lines(one, two)
    assert int(summary.get_attribute("data-gone-all")) == len(one) - shared
    assert int(summary.get_attribute("data-added-all")) == len(two) - shared
    # the deleted calculus is listed, struck out, and the one call that replaces it is added
    gone = widget.locator('[data-kind="gone"] code').all_inner_texts()
    added = widget.locator('[data-kind="new"] code').all_inner_texts()
    assert "def position_loss(token, target, n):" in gone
    assert any("loss.backward()" in line for line in added)
    widget.get_by_text("the whole file").click()
    expect(widget.locator(".sd-line")).to_have_count(len(one) - shared + len(two))

    # both columns print alike, and the first step (before any update) is what train1.py run
    # here prints for its first step
    rows = widget.locator("[data-losses] tbody tr")
    expect(rows).to_have_count(10)
    for row in rows.all():
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == cells[1]
    assert rows.first.locator("td").first.inner_text() == printed_losses("train1.py", 1, tmp_path)[0]
    verdict = widget.locator('[data-readout="verdict"]')
    expect(verdict).to_contain_text("All 10 printed losses are the same")
    widget.locator(".sd-toggle input").check()
    expect(verdict).to_contain_text("The printed losses part from step 2")
    expect(widget.locator("[data-losses] tbody tr.sd-part")).to_have_count(9)


# --- step-race ---------------------------------------------------------------------------------

def first_step_values() -> tuple[str, int]:
    """train2.py's first name and how many Values its loss is built from, counted here: the
    script run up to its training loop, then one step's forward pass."""
    import contextlib
    import io
    source = (COURSE / "train2.py").read_text(encoding="utf-8").split("for step in range(")[0]
    source = source.replace("open('input.txt'", f"open({str(names_file())!r}")
    space: dict = {"__name__": "counting"}
    state = random.getstate()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(source, "train2.py", "exec"), space)
    finally:
        random.setstate(state)
    doc = space["docs"][0]
    tokens = [space["BOS"]] + [space["chars"].index(ch) for ch in doc] + [space["BOS"]]
    n = min(space["block_size"], len(tokens) - 1)
    loss = (1 / n) * sum(-space["softmax"](space["mlp"](tokens[p]))[tokens[p + 1]].log()
                         for p in range(n))
    seen, stack = set(), [loss]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(node._children)
    return doc, len(seen)


def test_step_race_times_both_scripts_in_the_page_and_their_losses_match(
        server, page: Page, tmp_path):
    page.goto(server.url + STEP_RACE)
    widget = page.locator('[data-widget="step-race"]')
    doc, values = first_step_values()
    why = widget.locator("[data-why] li").first
    expect(why).to_contain_text(f'"{doc}"')
    expect(why).to_contain_text(f"{values:,} Values")

    wait_for_python(page)
    widget.get_by_label("Race for").select_option("3")
    widget.get_by_role("button", name="Race").click()
    expect(widget.locator('[data-readout="status"]')).to_contain_text("Done: 3 steps of each",
                                                                        timeout=RACE_S * 1000)
    want = printed_losses("train1.py", 3, tmp_path)
    rows = widget.locator("[data-losses] tbody tr")
    expect(rows).to_have_count(3)
    assert [row.locator("td").all_inner_texts() for row in rows.all()] == [[w, w] for w in want]
    fast_time, slow_time = (widget.locator(f'[data-readout="{which}"]') for which in ("fast", "slow"))
    fast, slow = (float(time.get_attribute("data-ms")) for time in (fast_time, slow_time))
    assert 0 < fast < slow
    # What the page shows is the measured time, rounded (one decimal for the fast script).
    assert number(fast_time.inner_text().split()[0]) == pytest.approx(fast, abs=0.05 + 1e-9)
    assert number(slow_time.inner_text().split()[0]) == pytest.approx(slow, abs=0.5 + 1e-9)
    verdict = widget.locator('[data-readout="verdict"]')
    expect(verdict).to_contain_text("3 of 3 losses print the same")
    assert float(verdict.get_attribute("data-ratio")) == pytest.approx(slow / fast)


@pytest.mark.no_python
@pytest.mark.parametrize("path, toggle", [(VALUE_GRAPH, ".vg-toggle input"),
                                          (SCRIPT_DIFF, ".sd-toggle input"),
                                          (STEP_RACE, ".sr-toggle input")])
def test_module_7_widgets_pass_axe_and_fit_a_phone(server, page: Page, path, toggle):
    def mistake_on(page: Page) -> None:
        page.locator(f"#explore {toggle}").check()

    busy_widget_passes_axe_and_fits_a_phone(page, server.url + path, mistake_on)
