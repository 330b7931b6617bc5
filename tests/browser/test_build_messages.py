"""Build's messages in stages, in Chromium on lesson 7.5: a failed check says what it measured at
once; the literal line comes only after the same check failed three checked runs in a row, or
once every hint is open. A check broken by the learner's own error shows their traceback in the
Output panel, its line a link into the editor."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import axe_violations, wait_for_python
from .test_lesson_walk import LESSON, check_and_wait, replace_todo, type_at_end

pytestmark = pytest.mark.browser
CHECK = "the example's gradients"


def write_the_assign_mistake(page: Page) -> None:
    """7.5 with `=` where `+=` belongs: the known mistake whose fix is held back."""
    replace_todo(page, "# TODO (one line): `node` takes its place", "order.append(node)")
    replace_todo(page, "# TODO (one line): the chain rule", "child.grad = local_grad * node.grad")


def the_check(page: Page):
    return page.locator(".check", has=page.locator("summary", has_text=CHECK))


def test_the_fix_waits_for_three_failures_in_a_row(server, page: Page, course):
    mistake = next(m for m in course.lesson("7.5").exercise.mistakes if m.fix)
    page.goto(server.url + LESSON)
    wait_for_python(page)
    write_the_assign_mistake(page)
    for run in (1, 2):
        check_and_wait(page)
        expect(the_check(page)).to_have_attribute("data-check-status", "fail")
        expect(the_check(page).locator(".check-message")).to_contain_text("e.grad is -6 but should be -2")
        expect(the_check(page).locator("[data-check-fix]")).to_be_hidden()
        assert "child.grad +=" not in page.locator("[data-checks]").inner_text(), f"run {run}"
    check_and_wait(page)
    fix = the_check(page).locator("[data-check-fix]")
    expect(fix).to_be_visible()
    expect(fix).to_have_text(re.compile(r"^What to write: "))
    expect(fix.locator("code")).to_have_text("child.grad += local_grad * node.grad")
    assert mistake.fix.replace("`", "") in fix.inner_text()
    for scheme in ("light", "dark"):  # the checks with their fix shown pass axe
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page, "#build") == [], scheme
    # The count is this device's: a reload keeps it (and a fourth failure shows the fix too).
    page.reload()
    wait_for_python(page)
    check_and_wait(page)
    expect(the_check(page).locator("[data-check-fix]")).to_be_visible()
    # Fixed: the check passes and no fix is shown anywhere.
    replace_todo(page, "child.grad = local_grad * node.grad", "child.grad += local_grad * node.grad")
    assert check_and_wait(page).startswith("All ")
    expect(page.locator("[data-check-fix]")).to_have_count(0)


def test_the_last_hint_opens_the_fix_at_once(server, page: Page, course):
    hints = len(course.lesson("7.5").exercise.hints)
    page.goto(server.url + LESSON)
    wait_for_python(page)
    write_the_assign_mistake(page)
    check_and_wait(page)
    fix = the_check(page).locator("[data-check-fix]")
    expect(fix).to_be_hidden()
    for shown in range(1, hints + 1):
        page.click('[data-action="hint"]')
        expect(page.locator("[data-hints] li")).to_have_count(shown)
        if shown < hints:
            expect(fix).to_be_hidden()
    expect(fix).to_be_visible()  # without checking again


def test_a_check_broken_by_the_learners_error_shows_their_traceback(server, page: Page):
    page.goto(server.url + LESSON)
    wait_for_python(page)
    replace_todo(page, "# TODO (one line): `node` takes its place", "order.append(node)")
    replace_todo(page, "# TODO (one line): the chain rule", "child.grad += local_grad * node.grad")
    type_at_end(page, "Value(1.0) + nope")
    check_and_wait(page)
    expect(the_check(page)).to_have_attribute("data-check-status", "error")
    output = page.locator("[data-output]")
    expect(output.locator(".stderr")).to_contain_text("NameError: name 'nope' is not defined")
    link = output.locator(".line-link")
    expect(link).to_have_text(re.compile(r'^File "backward\.py", line \d+$'))
    line = int(re.search(r"\d+$", link.inner_text()).group())
    link.click()
    expect(page.locator(".cm-activeLine")).to_contain_text("Value(1.0) + nope")
    assert int(page.locator(".cm-activeLineGutter").inner_text()) == line
