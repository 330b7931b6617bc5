"""The train-run widget trains a course script in Pyodide and shows what CPython shows.

Lesson 1.1's widget trains microgpt.py (20 steps here, to stay quick) after train0.py for
comparison; the losses and names it reports must be exactly those of the same scripts run by
CPython on the same data: the browser's Python and ours agree to the last digit.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import default_course_path
from linebyline.course.dataset import names_file
from linebyline.mine.scripts import parse_step, run_script, run_source
from linebyline.mine.training import configure

from .conftest import axe_violations, wait_for_python

pytestmark = pytest.mark.browser
STEPS = 20


def cpython_run(script: str) -> tuple[list[float], list[str]]:
    losses, names = [], []
    for line in run_script(default_course_path() / script, names_file(), STEPS):
        step = parse_step(line)
        if step:
            losses.append(float(step.loss))
        elif line.startswith("sample"):
            names.append(line.split(": ", 1)[1])
    return losses, names


def test_train_run_matches_cpython_step_for_step(server, page: Page):
    micro_losses, micro_names = cpython_run("microgpt.py")
    table_losses, _ = cpython_run("train0.py")
    page.goto(server.url + "/lessons/1.1-the-demo/")
    widget = page.locator('[data-widget="train-run"]')
    wait_for_python(page)
    widget.locator("select").select_option(str(STEPS))
    widget.get_by_role("button", name="Train").click()
    expect(widget.get_by_role("button", name="Stop")).to_be_enabled()
    status = widget.locator('[data-readout="status"]')
    expect(status).to_have_text(f"Done: {STEPS} steps of microgpt.py.", timeout=120_000)

    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    expect(widget.locator('[data-readout="summary"]')).to_have_text(
        f"Mean loss over the last {STEPS} steps: microgpt.py {mean(micro_losses):.3f}, "
        f"train0.py {mean(table_losses):.3f}.")
    assert widget.locator('[data-readout="names"] li').all_inner_texts() == micro_names
    # Every step is a dot on the chart, for both scripts.
    dots = widget.locator("path.tr-dots").evaluate_all(
        "paths => paths.map(p => (p.getAttribute('d').match(/h0/g) || []).length)")
    assert dots == [STEPS, STEPS]
    expect(widget.get_by_role("button", name="Stop")).to_be_disabled()
    # The chart's text alternative gives its numbers: each script's first, last and lowest
    # loss, and a table of every step's loss (the dots), the same as CPython's.
    said = page.locator(f"#{widget.locator('svg.tr-chart').get_attribute('aria-labelledby')}").inner_text()
    for name, losses in (("train0.py", table_losses), ("microgpt.py", micro_losses)):
        assert (f"{name}: {STEPS} steps, loss {round(losses[0], 3):g} at step 1 and "
                f"{round(losses[-1], 3):g} at step {STEPS}, lowest {round(min(losses), 3):g}") in said, said
    widget.locator("summary", has_text="The numbers").click()
    rows = widget.locator(".tr-table tbody tr")
    expect(rows).to_have_count(STEPS)
    cells = [row.locator("td").all_inner_texts() for row in rows.all()]
    assert [float(c[0]) for c in cells] == pytest.approx(table_losses, abs=5e-5)
    assert [float(c[2]) for c in cells] == pytest.approx(micro_losses, abs=5e-5)


def test_12_1s_short_run_is_the_first_steps_of_the_whole_file(server, page: Page):
    """12.1's widget (first_steps) keeps num_steps at 1,000 and stops the loop early: its 20
    losses are the first 20 microgpt.py printed in its whole run (runs/microgpt.json), and its
    names those CPython samples from the file cut the same way."""
    kept = json.loads((default_course_path() / "runs" / "microgpt.json").read_text(encoding="utf-8"))
    cut = configure((default_course_path() / "microgpt.py").read_text(encoding="utf-8"), first=STEPS)
    names = [line.split(": ", 1)[1] or "(an empty name)"
             for line in run_source(cut, "microgpt.py", names_file()) if line.startswith("sample")]
    page.goto(server.url + "/lessons/12.1-read-microgpt-top-to-bottom/")
    widget = page.locator('[data-widget="train-run"]')
    wait_for_python(page)
    widget.locator("select").select_option(str(STEPS))
    widget.get_by_role("button", name="Train").click()
    expect(widget.locator('[data-readout="status"]')).to_have_text(
        f"Done: the first {STEPS} of the 1,000 steps of microgpt.py.", timeout=120_000)
    widget.locator("summary", has_text="The numbers").click()
    shown = [row.locator("td").first.inner_text() for row in widget.locator(".tr-table tbody tr").all()]
    assert [float(x) for x in shown] == [float(f"{loss:.4f}") for loss in kept["losses"][:STEPS]]
    assert widget.locator('[data-readout="names"] li').all_inner_texts() == names


def test_train_run_stops_when_asked(server, page: Page):
    page.goto(server.url + "/lessons/1.1-the-demo/")
    widget = page.locator('[data-widget="train-run"]')
    wait_for_python(page)
    widget.locator("select").select_option("1000")
    widget.get_by_role("button", name="Train").click()
    status = widget.locator('[data-readout="status"]')
    expect(status).to_contain_text("microgpt.py: step", timeout=60_000)
    widget.get_by_role("button", name="Stop").click()
    expect(status).to_have_text(re.compile(r"^Stopped at step \d+ of 1000\.$"),
                                timeout=10_000)
    expect(widget.get_by_role("button", name="Train")).to_be_enabled()
    # Python is free again for the learner's own code.
    expect(page.locator("[data-python-status]")).to_have_text("Python: ready")


def test_check_while_the_explore_training_runs_says_so_and_can_take_over(server, page: Page):
    """Python is one per page: while Explore trains, Check answers at once, and can stop it."""
    page.goto(server.url + "/lessons/1.1-the-demo/")
    widget = page.locator('[data-widget="train-run"]')
    wait_for_python(page)
    widget.locator("select").select_option("1000")
    widget.get_by_role("button", name="Train").click()
    status = widget.locator('[data-readout="status"]')
    expect(status).to_contain_text("step", timeout=60_000)

    page.click('[data-action="check"]')
    said = page.locator("[data-run-status]")
    expect(said).to_have_text(
        "Python is busy with the training in Explore, so your code has not been checked yet.", timeout=1_000)
    take = page.get_by_role("button", name="Stop the training and check my code")
    expect(take).to_be_visible(timeout=1_000)
    expect(page.locator("[data-checks-summary]")).to_have_text("Not checked yet.")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page, "#build") == [], scheme

    # Let it finish: the offer goes, the training goes on, the focus stays on Check.
    page.get_by_role("button", name="Let it finish").click()
    expect(take).to_be_hidden()
    expect(page.locator('[data-action="check"]')).to_be_focused()
    expect(status).to_contain_text("step")

    # Run is answered the same way; this time the learner takes Python over.
    page.click('[data-action="run"]')
    expect(said).to_contain_text("so your code has not run yet", timeout=1_000)
    page.get_by_role("button", name="Stop the training and run my code").click()
    expect(page.locator('[data-action="run"]')).to_be_focused()
    expect(status).to_have_text(re.compile(r"^Stopped at step \d+ of 1000\.$"), timeout=10_000)
    expect(page.locator("[data-output]")).to_contain_text("samples", timeout=60_000)
    expect(said).to_contain_text("Ran", timeout=60_000)
