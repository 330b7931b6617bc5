"""Module 2's widgets in Chromium: bigram-table (2.1, 2.2), name-surprise (2.3, 2.5) and
sample-steps (2.4), driven by keyboard and clicks, every number checked against Python here,
and each page through axe in light and dark colours and at 360 px without sideways scrolling.
"""
from __future__ import annotations

import math
import random
import re
from functools import cache

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import default_course_path
from linebyline.course.dataset import names_file
from linebyline.mine.scripts import run_script

from .conftest import busy_widget_passes_axe_and_fits_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
PAGES = ["/lessons/2.1-the-27x27-table/", "/lessons/2.2-counts-to-probabilities/",
         "/lessons/2.3-loss-as-surprise/", "/lessons/2.4-sampling-until-bos/",
         "/lessons/2.5-what-one-letter-can-and-cannot-do/"]


def number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


@cache
def table():
    docs = [line.strip() for line in names_file().read_text(encoding="utf-8").splitlines()
            if line.strip()]
    random.seed(42)
    random.shuffle(docs)
    chars = sorted(set("".join(docs)))
    bos = len(chars)
    counts = [[1] * (bos + 1) for _ in range(bos + 1)]
    for doc in docs:
        ids = [bos] + [chars.index(ch) for ch in doc] + [bos]
        for a, b in zip(ids, ids[1:]):
            counts[a][b] += 1
    return chars, counts


def loss(name: str) -> float:
    chars, counts = table()
    bos = len(chars)
    ids = [bos] + [chars.index(ch) for ch in name] + [bos]
    return sum(-math.log(counts[a][b] / sum(counts[a])) for a, b in zip(ids, ids[1:])) / (len(ids) - 1)


def made_of(total: int, pairs: int, token: str) -> str:
    """The total line of a row whose 27 cells each started at 1: what its total is made of."""
    return (f"The row adds up to {total:,}: {pairs:,} pairs that start with {token}, "
            "plus the 27 ones its cells started with.")


def test_bigram_table_opens_rows_by_keyboard_and_click(server, page: Page):
    chars, counts = table()
    page.goto(server.url + PAGES[0])
    widget = page.locator('[data-widget="bigram-table"]')
    total = widget.locator('[data-readout="total"]')
    e = chars.index("e")
    expect(total).to_have_attribute("data-value", str(sum(counts[e])))
    # The total is the row's pairs plus the 1 each of its 27 cells started with, and says so.
    expect(total).to_have_text(made_of(sum(counts[e]), sum(counts[e]) - 27, "'e'"))
    expect(widget.locator(".bt-legend")).to_contain_text("Each count includes the 1 its cell started with.")
    # Keyboard: focus the map's cell, walk down two rows and right one column.
    widget.locator("td[tabindex='0']").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    expect(total).to_have_attribute("data-value", str(sum(counts[e + 2])))
    cell = widget.locator('[data-readout="cell"]')
    expect(cell).to_contain_text(f"counts[{e + 2}][1]")
    shown = re.search(r"count ([\d,]+) \(([\d,]+) pairs?, plus the 1 it started with\)$", cell.inner_text())
    assert shown and [number(n) for n in shown.groups()] == [counts[e + 2][1], counts[e + 2][1] - 1]
    # A click (or tap) on a cell opens its row; the list reads the counts.
    q, u = chars.index("q"), chars.index("u")
    widget.locator(f'td[data-row="{q}"][data-col="{u}"]').click()
    expect(total).to_have_attribute("data-value", str(sum(counts[q])))
    assert widget.locator('tr[data-next="u"] td[data-count]').inner_text() == str(counts[q][u])
    expect(total).to_have_text(made_of(sum(counts[q]), sum(counts[q]) - 27, "'q'"))
    # Row BOS: one pair per name, plus the 27 starting ones.
    widget.get_by_label("Open row").select_option(label="BOS (• in the map)")
    names = sum(1 for line in names_file().read_text(encoding="utf-8").splitlines() if line.strip())
    expect(total).to_have_text(made_of(sum(counts[-1]), names, "BOS"))
    # The mistake: counting from 0 leaves the never-seen pairs at 0, and a row's total is pairs.
    widget.get_by_label("Open row").select_option(label="'q'")
    widget.get_by_label("Try starting the counts at 0").check()
    zeros = sum(1 for row in counts for c in row if c == 1)
    legend = widget.locator(".bt-legend")
    expect(legend).to_have_attribute("data-zeros", str(zeros))
    expect(legend).not_to_contain_text("started with")
    assert widget.locator('tr[data-next="u"] td[data-count]').inner_text() == str(counts[q][u] - 1)
    expect(total).to_have_text(f"{sum(counts[q]) - 27:,} pairs start with 'q' (the row's total).")
    expect(total).to_have_attribute("data-value", str(sum(counts[q]) - 27))
    widget.locator(f'td[data-row="{q}"][data-col="{u}"]').click()
    expect(cell).to_have_text(re.compile(rf"count {counts[q][u] - 1}$"))


def test_bigram_table_rows_as_probabilities(server, page: Page):
    chars, counts = table()
    page.goto(server.url + PAGES[1])
    widget = page.locator('[data-widget="bigram-table"]')
    q, u = chars.index("q"), chars.index("u")
    prob = widget.locator('tr[data-next="u"] td[data-prob]')
    assert float(prob.get_attribute("data-prob")) == pytest.approx(counts[q][u] / sum(counts[q]))
    assert number(prob.inner_text()) == pytest.approx(counts[q][u] / sum(counts[q]), abs=5e-5)
    assert float(widget.locator('[data-readout="sum"]').get_attribute("data-value")) == pytest.approx(1)
    total = widget.locator('[data-readout="total"]')
    expect(total).to_have_text(made_of(sum(counts[q]), sum(counts[q]) - 27, "'q'"))
    widget.get_by_label("Open row").select_option(label="'a'")
    assert float(total.get_attribute("data-value")) == sum(counts[0])
    widget.get_by_label("Try dividing by the whole table's total").check()
    # Only the division is wrong: the counts, and what their total is made of, stay the same.
    expect(total).to_have_text(made_of(sum(counts[0]), sum(counts[0]) - 27, "'a'"))
    grand = sum(map(sum, counts))
    assert float(widget.locator('[data-readout="sum"]').get_attribute("data-value")) == pytest.approx(
        sum(counts[0]) / grand)


def test_name_surprise_scores_typed_names_and_mistakes(server, page: Page):
    page.goto(server.url + PAGES[2])
    widget = page.locator('[data-widget="name-surprise"]')
    out = widget.locator('[data-readout="loss-A"]')
    assert float(out.get_attribute("data-value")) == pytest.approx(loss("emma"))
    widget.get_by_label("Name").fill("olivia")
    expect(out).to_contain_text(f"{loss('olivia'):.4f}")
    widget.get_by_label("the sum instead of the mean").check()
    assert float(out.get_attribute("data-value")) == pytest.approx(loss("olivia") * 7)
    widget.get_by_label("forget the end pair (last letter, BOS)").check()
    chars, counts = table()
    ids = [26] + [chars.index(ch) for ch in "olivia"]
    want = sum(-math.log(counts[a][b] / sum(counts[a])) for a, b in zip(ids, ids[1:])) / 6
    assert float(out.get_attribute("data-value")) == pytest.approx(want)
    widget.get_by_label("log p without the minus").check()
    assert float(out.get_attribute("data-value")) == pytest.approx(-loss("olivia"))
    # The example buttons fill the name in.
    widget.get_by_role("button", name="xzqj").click()
    widget.get_by_label("the right loss: mean of −log p").check()
    assert float(out.get_attribute("data-value")) == pytest.approx(loss("xzqj"))


def test_name_surprise_compares_two_names(server, page: Page):
    page.goto(server.url + PAGES[4])
    widget = page.locator('[data-widget="name-surprise"]')
    a = float(widget.locator('[data-readout="loss-A"]').get_attribute("data-value"))
    b = float(widget.locator('[data-readout="loss-B"]').get_attribute("data-value"))
    assert (a, b) == (pytest.approx(loss("olivia")), pytest.approx(loss("anananananana")))
    assert b < a
    expect(widget.locator('[data-readout="note-B"]')).to_contain_text("comes 6 times")


@cache
def train0_names() -> list[str]:
    lines = run_script(default_course_path() / "train0.py", names_file())
    return [line.split(": ", 1)[1] for line in lines if line.startswith("sample ")]


def test_sample_steps_draws_train0s_names(server, page: Page):
    page.goto(server.url + PAGES[3])
    widget = page.locator('[data-widget="sample-steps"]')
    counter = widget.locator('[data-readout="counter"]')
    first = train0_names()[0]
    expect(counter).to_have_text(f"draw 0 / {len(first) + 1}")
    draw = widget.get_by_role("button", name="Draw the next token")
    draw.click()
    expect(widget.locator("[data-name]")).to_have_attribute("data-name", first[0])
    # The charts' text alternatives give every number they draw: all 27 probabilities of row
    # BOS, and the 27 segments of the strip from 0 to 1.
    chars, counts = table()
    row = [c / sum(counts[-1]) for c in counts[-1]]
    labels = [f"'{ch}'" for ch in chars] + ["BOS"]
    bars = widget.locator("svg.ss-bars")
    said = page.locator(f"#{bars.get_attribute('aria-describedby')}").inner_text()
    pairs = re.findall(r"('.'|BOS) ([\d.e−-]*\d)", said.split(": ", 1)[1])
    assert sorted(label for label, _ in pairs) == sorted(labels)
    for label, value in pairs:
        assert number(value) == pytest.approx(row[labels.index(label)], abs=5e-4), label
    strip = widget.locator("svg.ss-strip")
    said = page.locator(f"#{strip.get_attribute('aria-describedby')}").inner_text()
    ends = re.findall(r"('.'|BOS) ([\d.]*\d) to ([\d.]*\d)", said)
    assert [label for label, _, _ in ends] == labels
    assert number(ends[-1][2]) == pytest.approx(1.0) and number(ends[0][1]) == 0
    assert number(ends[1][1]) == pytest.approx(row[0], abs=5e-5)
    draw.focus()
    page.keyboard.press("ArrowRight")
    expect(widget.locator("[data-name]")).to_have_attribute("data-name", first[:2])
    expect(counter).to_have_text(f"draw 2 / {len(first) + 1}")
    widget.get_by_role("button", name="Whole name").click()
    expect(widget.locator("[data-name]")).to_have_attribute("data-name", first)
    expect(widget.locator('[data-readout="explain"]')).to_have_attribute("data-done", "true")
    # Another of the 20 names, then the mistake: the likeliest token every time.
    widget.get_by_label("Name").select_option(label="sample 5")
    widget.get_by_role("button", name="Whole name").click()
    expect(widget.locator("[data-name]")).to_have_attribute("data-name", train0_names()[4])
    widget.get_by_label("Try always taking the likeliest token").check()
    widget.get_by_role("button", name="Whole name").click()
    expect(widget.locator("[data-name]")).to_have_attribute("data-name", "a")


@pytest.mark.parametrize("path", PAGES)
def test_module_2_widgets_pass_axe_and_fit_a_phone(server, page: Page, path):
    busy_widget_passes_axe_and_fits_a_phone(page, server.url + path)
