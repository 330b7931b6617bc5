"""A module's recall exercise on its review page, as a learner meets it: the module's code to
write again from memory, its untouched starter not attempted, a known mistake told with the
lesson's own message, hints that send the learner back to a lesson, and a pass that marks it
done, kept in the progress after a reload."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import apply_edits

from ..conftest import the_course
from .conftest import (
    assert_axe_clean_light_and_dark,
    check_in_a_worker,
    set_editor_text,
    wait_for_python,
)

pytestmark = pytest.mark.browser
RECALL = the_course().item("review-7")


def check(page: Page) -> str:
    page.click('[data-action="check"]')
    summary = page.locator("[data-checks-summary]")
    expect(summary).not_to_have_text("Checking…", timeout=60_000)
    return summary.inner_text()


def test_module_7_from_memory_on_its_review_page(server, page: Page):
    exercise = RECALL.exercise
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/modules/7/review/")
    section = page.locator("section.recall")
    expect(section.locator("h2")).to_have_text("Module 7 from memory")
    expect(section.locator(f'[data-status-of="{RECALL.number}"]')).to_have_text("Not started")
    expect(section.locator(".check")).to_have_count(len(exercise.check_names))
    assert_axe_clean_light_and_dark(page, "section.recall")
    wait_for_python(page)

    assert check(page).startswith("Not attempted yet")
    mistake = exercise.mistakes[0]
    set_editor_text(page, apply_edits(exercise.solution, mistake.edits))
    check(page)
    failed = section.locator('.check[data-check-status="fail"]').first
    expect(failed).to_contain_text(mistake.check)
    expect(failed.locator(".check-message")).to_contain_text(" ".join(mistake.message.split()[:12]))

    page.click('[data-action="hint"]')
    first_hint = section.locator("[data-hints] li").first
    expect(first_hint.locator('a[href*="/lessons/7.2-"]')).to_have_count(1)  # back to the lesson

    set_editor_text(page, exercise.solution)
    assert check(page).startswith(f"All {len(exercise.check_names)} checks pass")
    expect(section.locator(f'[data-status-of="{RECALL.number}"]')).to_have_text("Done")
    page.reload()
    expect(page.locator(f'section.recall [data-status-of="{RECALL.number}"]')).to_have_text("Done")
    assert not errors, errors



def test_every_recall_is_judged_in_the_browsers_python_as_lint_judges_it(server, page: Page):
    """All twelve, in Pyodide: the solution passes, the untouched starter is not attempted, and
    the first known mistake is caught by its check with its message."""
    page.goto(f"{server.url}/")  # the course home starts no Python of its own
    recalls = list(the_course().recalls())
    builds = [(f"/modules/{recall.module}/review/",
               [recall.exercise.solution, recall.exercise.starter,
                apply_edits(recall.exercise.solution, recall.exercise.mistakes[0].edits)])
              for recall in recalls]
    for recall, (solution, starter, wrong) in zip(recalls, check_in_a_worker(page, server.url,
                                                                              builds)):
        mistake = recall.exercise.mistakes[0]
        assert solution["status"] == "pass", (recall.number, solution)
        assert starter["status"] == "not-attempted", (recall.number, starter["status"])
        first = next(check for check in wrong["checks"] if check["status"] != "pass")
        assert (first["name"], first["message"]) == (mistake.check, mistake.message), recall.number
