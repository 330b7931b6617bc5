"""Deleting an account clears this browser of it, as signing out does: its progress and drafts,
and the learning events still waiting to be sent. A deletion that did not go through (a wrong
password) clears nothing. And the lesson page says where progress is kept, signed in or not."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_accounts_browser import PASSWORD, new_username, sign_up
from .test_progress_kept import KEY, LESSON_75
from .test_sync_browser import synced, type_draft

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
EVENTS = "linebyline-events:microgpt"


def kept_here(page: Page) -> list[str]:
    """What this browser keeps of the course's progress and events."""
    return page.evaluate("""([progress, events]) => Object.keys(localStorage)
        .filter(k => (k.startsWith(progress) || k.startsWith(events)) && localStorage.getItem(k) !== '[]')
        .sort()""", [KEY, EVENTS])


def test_deleting_the_account_clears_this_browser_of_it(server, page: Page):
    page.goto(server.url + LESSON_75)
    expect(page.locator("[data-progress-note=browser]")).to_be_visible()
    expect(page.locator("[data-progress-note=account]")).to_be_hidden()
    sign_up(page, server, new_username())
    page.goto(server.url + LESSON_75)
    expect(page.locator("[data-progress-note=account]")).to_be_visible()
    expect(page.locator("[data-progress-note=browser]")).to_be_hidden()
    type_draft(page, "my secret draft = 1\n")
    synced(page)
    # An event that has not gone yet (the server is made to refuse it for now): kept for later.
    page.route("**/events/", lambda route: route.fulfill(status=503, body="{}"))
    page.click('[data-action="hint"]')
    page.wait_for_function(f"(localStorage.getItem('{EVENTS}') || '').includes('hint')")
    assert KEY in kept_here(page) and EVENTS in kept_here(page)

    page.goto(server.url + "/accounts/delete/")
    page.get_by_label("Your password").fill("wrong")
    page.get_by_role("button", name="Delete my account and my data").click()
    expect(page.locator(".error")).to_contain_text("nothing was deleted")
    page.goto(server.url + "/")  # (goto waits for the page's scripts)
    assert KEY in kept_here(page) and EVENTS in kept_here(page)  # nothing was deleted: nothing goes

    page.goto(server.url + "/accounts/delete/")
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account and my data").click()
    expect(page.locator(".messages")).to_contain_text("deleted")
    page.wait_for_load_state("load")  # the page's script has run
    assert kept_here(page) == []
    page.goto(server.url + LESSON_75)
    assert "my secret draft" not in page.locator(".cm-content").inner_text()
