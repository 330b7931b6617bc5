"""Every published lesson, opened in Chromium as a learner would: its widget comes alive, the
page passes axe in light and dark colours and fits a phone's width, the untouched starter is not
attempted, and the reference solution passes every check in Pyodide.

One page per lesson, in a context of its own (as a new learner has), one browser for all.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..conftest import the_course
from .conftest import assert_axe_clean_light_and_dark, wait_for_python

pytestmark = pytest.mark.browser
LESSONS = list(the_course().lessons())


def set_editor_text(page: Page, text: str) -> None:
    """Replace everything in the editor at once, as a paste does (no auto-indent on the way)."""
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)


def check(page: Page) -> str:
    page.click('[data-action="check"]')
    summary = page.locator("[data-checks-summary]")
    expect(summary).not_to_have_text("Checking…", timeout=30_000)
    return summary.inner_text()


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.number for lesson in LESSONS])
def test_lesson_in_the_browser(server, page: Page, lesson):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/lessons/{lesson.number}-{lesson.slug}/")
    expect(page.locator("h1")).to_contain_text(lesson.title)
    widget = page.locator(f'[data-widget="{lesson.explore.kind}"]')
    expect(widget).to_have_attribute("data-mounted", "")
    expect(widget.locator(".noscript-note")).to_have_count(0)
    assert_axe_clean_light_and_dark(page)
    page.set_viewport_size({"width": 360, "height": 800})  # a phone: nothing scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.set_viewport_size({"width": 1200, "height": 900})
    wait_for_python(page)

    assert check(page).startswith("Not attempted yet"), lesson.number
    set_editor_text(page, lesson.exercise.solution)
    summary = check(page)
    messages = page.locator(".check-message").all_inner_texts()
    assert summary.startswith(f"All {len(lesson.exercise.check_names)} checks pass"), messages
    expect(page.locator(".lesson-header .status")).to_have_text("Done")
    assert not errors, errors
