"""The last recall on the end page: microgpt.py written from a blank editor, run in the page's
Python, judged by its first steps in the words `linebyline check microgpt` prints; the page never
holds the program's text, and the draft outlives a reload."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from linebyline.course.dataset import names_file
from linebyline.mine.blank import KEPT, Watched, judge, lessons_teaching, regions, watch

from ..conftest import the_course
from .conftest import assert_axe_clean_light_and_dark

pytestmark = pytest.mark.browser
COURSE = the_course()
PROGRAM = (COURSE.path / COURSE.program_name).read_text(encoding="utf-8")
UPDATE = "m[i] = beta1 * m[i] + (1 - beta1) * p.grad"
WRONG = PROGRAM.replace(UPDATE, UPDATE + " * 1.01")
RUN_S = 240  # 30 steps of microgpt in Pyodide on a busy machine, with Python's start


def cpythons_words(source: str, folder: Path) -> str:
    """What `linebyline check microgpt` says of `source` (run here, in CPython)."""
    reference = Watched.from_json((COURSE.path / KEPT).read_text(encoding="utf-8"))
    (folder / "input.txt").write_bytes(names_file().read_bytes())
    here = os.getcwd()
    os.chdir(folder)
    try:
        mine = watch(source, COURSE.program_name, reference=reference.losses)
    finally:
        os.chdir(here)
    teaches = lessons_teaching({lesson.number: list(lesson.unlocks) for lesson in COURSE.lessons()})
    return judge(mine, reference, regions(PROGRAM), COURSE.program_name, teaches).text


def write(page: Page, text: str) -> None:
    """Replace the editor's text at once, as a paste does."""
    page.locator("[data-blank-editor] .cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)


def run(page: Page) -> str:
    page.locator("[data-blank-run]").click()
    expect(page.locator("[data-blank-run]")).to_have_attribute("aria-disabled", "false",
                                                              timeout=RUN_S * 1000)
    return page.locator("[data-blank-verdict]").inner_text()


def test_a_program_from_a_blank_page_is_judged_as_the_terminal_judges_it(
        server, page: Page, tmp_path: Path):
    page.goto(server.url + "/the-end/")
    section = page.locator("[data-blank]")
    expect(section).to_be_visible()
    expect(section.locator("[data-blank-command]")).to_have_text("linebyline start microgpt")
    assert UPDATE not in page.content()  # no copy of the program waits on the page
    assert page.locator("[data-blank-editor] .cm-content").inner_text().strip() == ""
    assert_axe_clean_light_and_dark(page, "[data-blank]")

    write(page, WRONG)
    said = run(page)
    assert said == cpythons_words(WRONG, tmp_path)
    assert said.startswith("Parts from the reference at step 2") and "update parts" in said
    expect(page.locator("[data-blank-status]")).to_have_text("Done: not yet.")
    expect(page.locator("[data-blank-verdict]")).to_have_attribute("data-passed", "false")

    page.reload()  # the draft is kept in this browser, and comes back into the editor
    kept = page.evaluate("localStorage.getItem('linebyline:blank-page:' + 'microgpt.py')")
    assert kept == WRONG
    first = next(line for line in WRONG.splitlines() if line.startswith("import"))
    expect(page.locator("[data-blank-editor] .cm-content")).to_contain_text(first)

    write(page, PROGRAM)
    said = run(page)
    # The page's Python (3.12 or later) sums floats exactly, CPython 3.11 not: the last digits
    # may differ, which the verdict says is rounding; everything else is the terminal's words.
    rounding = "to the last digit", "at every printed digit (the last digits differ only by rounding)"
    # The program itself runs as the kept run did: the terminal's words for it are the judge's
    # of the kept run against itself (no second 30-step run needed here).
    reference = Watched.from_json((COURSE.path / KEPT).read_text(encoding="utf-8"))
    terminal = judge(reference, reference, regions(PROGRAM), COURSE.program_name).text
    assert said in {terminal, terminal.replace(*rounding)}
    assert said.endswith(f"You wrote {COURSE.program_name} from a blank page.")
    expect(page.locator("[data-blank-verdict]")).to_have_attribute("data-passed", "true")
    assert_axe_clean_light_and_dark(page, "[data-blank]")
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_run_that_never_prints_a_step_can_be_stopped(server, page: Page):
    page.goto(server.url + "/the-end/")
    write(page, "while True:\n    pass\n")
    page.locator("[data-blank-run]").click()
    stop = page.locator("[data-blank-stop]")
    expect(stop).to_be_visible(timeout=RUN_S * 1000)
    expect(page.locator("[data-blank-status]")).to_have_text("Running your microgpt.py…",
                                                            timeout=RUN_S * 1000)
    stop.click()
    expect(page.locator("[data-blank-status]")).to_have_text(
        "Stopped. Run it again when you are ready.")
    expect(page.locator("[data-blank-run]")).to_have_attribute("aria-disabled", "false")
    assert page.locator("[data-blank-verdict]").inner_text() == ""
