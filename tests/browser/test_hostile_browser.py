"""The hostile learner files (tests/hostile/) through the page's Check button, in Pyodide.

One page for all of them, as a learner who keeps trying things would have: each file is pasted
into the editor and checked, and must get exactly its verdict and message. Python stays up
between checks in the browser, so this also shows that one file's patches do not reach the next.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..hostile_files import LESSON, hostile_files
from .conftest import set_editor_text, wait_for_python
from .test_content_security_policy import LISTEN

pytestmark = pytest.mark.browser
RESTARTED = ("Python crashed and was restarted", "Your code ended Python itself")
# Files that end Python go last: a new Python takes seconds to start.
FILES = sorted((f for f in hostile_files() if f.expected("browser")),
               key=lambda f: (f.expected("browser").says.startswith(RESTARTED), f.id))


@pytest.fixture(scope="module")
def lesson_page(server, browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(LISTEN)  # and Python runs under the Content-Security-Policy
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{server.url}/lessons/7.5-backward/")
    wait_for_python(page)
    yield page
    context.close()


@pytest.mark.parametrize("hostile", FILES, ids=[f.id for f in FILES])
def test_hostile_file_gets_its_verdict_in_the_browser(hostile, lesson_page: Page, course):
    page = lesson_page
    expected = hostile.expected("browser")
    wait_for_python(page)  # a file before may have ended Python: a new one is on its way
    set_editor_text(page, hostile.source(course))
    page.click('[data-action="check"]')
    summary = page.locator("[data-checks-summary]")
    expect(summary).not_to_have_text("Checking…", timeout=30_000)
    said = summary.inner_text()
    if said.startswith(RESTARTED):
        status, message = "error", said
    else:
        status = summary.get_attribute("data-status")
        checks = page.locator(".check")
        assert checks.count() == len(course.lesson(LESSON).exercise.check_names)
        failing = page.locator('.check:not([data-check-status="pass"]) .check-message')
        # The page shows `code` in a message as code, without its backticks: put them back.
        message = failing.first.evaluate(
            "p => Array.from(p.childNodes, n => n.nodeName === 'CODE' ? '`' + n.textContent + '`'"
            " : n.textContent).join('')") if failing.count() else ""
    assert status == expected.status, message
    if expected.status == "pass":
        assert expected.found_in(page.locator("[data-output]").inner_text())
    else:
        assert expected.found_in(message), message


def test_python_ran_them_all_within_the_content_security_policy(lesson_page: Page):
    assert lesson_page.evaluate("window.__violations") == []
