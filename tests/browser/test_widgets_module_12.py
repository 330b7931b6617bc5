"""Module 12's widget kind in Chromium: experiment-lab (12.2), the learner's own experiments.

Every run is made in the page's Python; what the widget shows (each step's loss, the model's
size) is held against the lesson's experiment() run here, in CPython, on the same data and
settings, and the baseline (microgpt's settings on the names) to the losses microgpt.py itself
prints. Times cannot be held to a number, so only what they must be is checked: measured,
positive, and compared with the first run.
"""
from __future__ import annotations

import re
from functools import cache

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import default_course_path
from linebyline.course.dataset import names_file
from linebyline.mine.scripts import parse_step, run_source
from linebyline.runtime.library import CourseModules

from ..conftest import the_course
from .conftest import busy_widget_passes_axe_and_fits_a_phone, wait_for_python

pytestmark = pytest.mark.browser
RUN_S = 180  # a few steps of a small model, in Pyodide, on a busy machine
OWN_TEXT = "zoë\nanna\n\n  bob  \nsupercalifragilisticexpialidocious\n"  # a blank line, spaces, a long one


@cache
def lesson():
    return the_course().lesson("12.2")


def url() -> str:
    return f"/lessons/12.2-{lesson().slug}/"


@cache
def experiment():
    namespace = {"__name__": "reference"}
    with CourseModules(lesson().exercise.library):  # the parts it imports from given.*
        exec(compile(lesson().exercise.solution, "experiment.py", "exec"), namespace)
    return namespace["experiment"]


def names() -> list[str]:
    """The names as input.txt holds them: experiment() shuffles them as microgpt.py does."""
    with open(names_file(), encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


@cache
def microgpt_losses(steps: int) -> list[str]:
    """The losses microgpt.py itself prints, run for `steps` steps on the names."""
    source = (default_course_path() / "microgpt.py").read_text(encoding="utf-8")
    return [step.loss for line in run_source(source, "microgpt.py", names_file(), steps, samples=0)
            if (step := parse_step(line))]


def run(page: Page, slot: int, data: str, steps: int, **settings: int) -> None:
    widget = page.locator("[data-widget='experiment-lab']")
    widget.locator("[data-lab='data']").select_option(data)
    widget.locator("[data-lab='steps']").select_option(str(steps))
    for name, value in settings.items():
        widget.locator(f"[data-lab='{name}']").select_option(str(value))
    widget.locator("[data-action='run-experiment']").click()
    expect(widget.locator(f"tr[data-run='{slot}']")).to_be_visible(timeout=RUN_S * 1000)


def shown_losses(page: Page, slot: int) -> list[float]:
    table = page.locator("[data-readout='losses']")
    column = table.locator("thead th").all_text_contents().index(f"run {slot}")
    cells = table.locator("tbody tr").evaluate_all(
        f"rows => rows.map(row => row.children[{column}].textContent)")
    return [float(cell.replace("−", "-")) for cell in cells if cell]


def row(page: Page, slot: int) -> dict[str, str]:
    cells = page.locator(f"tr[data-run='{slot}'] td[data-cell]")
    return dict(zip(cells.evaluate_all("cells => cells.map(c => c.dataset.cell)"), cells.all_inner_texts()))


def test_runs_made_in_the_page_are_the_lessons_experiments_and_share_one_chart(server, page: Page):
    page.goto(server.url + url())
    wait_for_python(page)
    widget = page.locator("[data-widget='experiment-lab']")
    expected = {
        1: (names(), {}),
        2: ([name[::-1] for name in names()], {"n_layer": 2, "n_embd": 8}),
        3: (["zoë", "anna", "bob", "supercalifragilisticexpialidocious"], {}),
    }
    run(page, 1, "names", 5)
    run(page, 2, "backwards", 5, n_layer=2, n_embd=8)
    # Data of one's own: nothing to train on is said so, and nothing runs.
    widget.locator("[data-lab='n_layer']").select_option("1")
    widget.locator("[data-lab='n_embd']").select_option("16")
    widget.locator("[data-lab='data']").select_option("own")
    widget.locator("[data-action='run-experiment']").click()
    expect(widget.locator("[data-readout='status']")).to_contain_text("no documents yet")
    widget.locator("[data-lab='own-text']").fill(OWN_TEXT)
    own = expected[3][0]
    characters = len(set("".join(own)))
    expect(widget.locator("[data-readout='own-data']")).to_have_text(
        f"4 documents, {characters} different characters (so vocab_size {characters + 1}), "
        f"the longest {max(map(len, own))} characters.")
    run(page, 3, "own", 5)  # 34 letters: past block_size 16, the run must cap its positions

    for slot, (docs, settings) in expected.items():
        reference = experiment()(docs, num_steps=5, **settings)
        assert shown_losses(page, slot) == pytest.approx(reference["losses"], abs=6e-5), slot
        if slot == 1:  # microgpt's settings on the names: the baseline is microgpt.py's own run
            assert [f"{loss:.4f}" for loss in reference["losses"]] == microgpt_losses(5)
            assert shown_losses(page, slot) == [float(loss) for loss in microgpt_losses(5)]
        shown = row(page, slot)
        assert shown["params"] == f"{reference['params']:,}"
        assert shown["data"].endswith(f"({len(docs):,} documents, vocab_size {reference['vocab_size']})")
        assert shown["steps"] == "5"
        assert float(shown["seconds"]) > 0
        assert shown["cost"] == "the baseline" if slot == 1 else shown["cost"].endswith("× run 1's")
    chart = widget.locator(".el-figure svg")
    for slot in (1, 2, 3):
        expect(chart.locator(f"path.lc-run{slot}")).to_have_count(1)
    expect(widget.locator("[data-readout='legend'] li")).to_have_count(3)
    expect(widget.locator(".el-title")).to_contain_text("Run 3:")

    # A run removed frees its place; the next run takes it, and the first stays the baseline.
    widget.get_by_role("button", name="Remove run 2").click()
    expect(widget.locator("tr[data-run]")).to_have_count(2)
    expect(chart.locator("path.lc-run2")).to_have_count(0)
    run(page, 2, "names", 5, n_layer=1)
    assert shown_losses(page, 2) == shown_losses(page, 1)  # same seed, same data, same settings
    assert row(page, 2)["cost"].endswith("× run 1's")


def test_a_stopped_run_is_left_off_and_python_runs_the_next(server, page: Page):
    page.goto(server.url + url())
    wait_for_python(page)
    widget = page.locator("[data-widget='experiment-lab']")
    widget.locator("[data-lab='steps']").select_option("200")
    widget.locator("[data-action='run-experiment']").click()
    # Some steps in (the status shows only the latest, and a busy machine may skip past one).
    expect(widget.locator("[data-readout='status']")).to_contain_text(
        re.compile(r"step ([2-9]|\d\d) / 200"), timeout=RUN_S * 1000)
    widget.locator("[data-action='stop-experiment']").click()
    expect(widget.locator("[data-readout='status']")).to_contain_text("stopped at step", timeout=30_000)
    expect(widget.locator("tr[data-run]")).to_have_count(0)
    expect(widget.locator(".el-figure svg")).to_have_count(0)
    run(page, 1, "names", 5, n_embd=8)
    assert row(page, 1)["cost"] == "the baseline"


def test_the_lab_with_runs_passes_axe_and_fits_a_phone(server, page: Page):
    def two_runs(page: Page) -> None:
        wait_for_python(page)
        run(page, 1, "names", 5, n_embd=8)
        page.locator("[data-lab='data']").select_option("own")
        page.locator("[data-lab='own-text']").fill(OWN_TEXT)
        run(page, 2, "own", 5)
        page.locator(".el-losses summary").click()

    busy_widget_passes_axe_and_fits_a_phone(page, server.url + url(), two_runs)
