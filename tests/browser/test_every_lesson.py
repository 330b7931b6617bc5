"""Every published lesson, opened in Chromium as a learner would: its widget comes alive, the
page passes axe in light and dark colours and fits a phone's width, and its Build lists its
checks; and every lesson's reference solution passes every check in the browser's Python, its
untouched starter not attempted.

One page per lesson, in a context of its own (as a new learner has), one browser for all. The
pages hold Python's download (no_python): the solutions of a module are checked together, in one
Python worker of the pages' own kind, with what each lesson's page sends it. Clicking Check on a
page, and the page's verdict, are tested in test_lesson_walk.py and test_build_messages.py.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..conftest import the_course
from .conftest import assert_axe_clean_light_and_dark, check_in_a_worker

pytestmark = pytest.mark.browser
LESSONS = list(the_course().lessons())
MODULES = [module for module in the_course().modules if module.lessons]


@pytest.mark.no_python
@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.number for lesson in LESSONS])
def test_lesson_in_the_browser(server, page: Page, lesson):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/lessons/{lesson.number}-{lesson.slug}/")
    expect(page.locator("h1")).to_contain_text(lesson.title)
    widget = page.locator(f'[data-widget="{lesson.explore.kind}"]')
    expect(widget).to_have_attribute("data-mounted", "")
    expect(widget.locator(".noscript-note")).to_have_count(0)
    expect(page.locator("#build .check")).to_have_count(len(lesson.exercise.check_names))
    expect(page.locator("#build .cm-content")).to_contain_text(
        next(line for line in lesson.exercise.starter.splitlines() if line.strip()).strip())
    assert_axe_clean_light_and_dark(page)
    page.set_viewport_size({"width": 360, "height": 800})  # a phone: nothing scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not errors, errors


@pytest.mark.parametrize("module", MODULES, ids=[f"module {m.number}" for m in MODULES])
def test_every_solution_passes_in_the_browsers_python(server, page: Page, module):
    page.goto(f"{server.url}/")  # the course home starts no Python of its own
    builds = [(f"/lessons/{lesson.number}-{lesson.slug}/",
               [lesson.exercise.solution, *lesson.exercise.starters.values()])
              for lesson in module.lessons]
    for lesson, results in zip(module.lessons, check_in_a_worker(page, server.url, builds)):
        solution, *starters = results
        failing = [check for check in solution["checks"] if check["status"] != "pass"]
        assert solution["status"] == "pass" and not failing, (lesson.number, failing)
        assert len(solution["checks"]) == len(lesson.exercise.check_names), lesson.number
        assert [s["status"] for s in starters] == ["not-attempted"] * len(starters), lesson.number
