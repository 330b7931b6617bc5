"""Two browser contexts act as two devices of one learner: progress made on each, part of it
offline, ends up on both; a draft that lost to a newer one is offered back and can be restored;
what the learner did before making the account comes along. No Python is needed on the pages."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import axe_violations, eventually
from .test_accounts_browser import new_username, sign_in, sign_out, sign_up
from .test_progress_kept import KEY, LESSON_74, LESSON_75, done, import_progress

pytestmark = [pytest.mark.browser, pytest.mark.no_python]


@pytest.fixture
def devices(browser: Browser):
    made = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    yield made
    for context in made:
        context.close()


def synced(page: Page) -> None:
    expect(page.locator("[data-sync-status]")).to_have_attribute("data-state", "saved", timeout=20_000)


def type_draft(page: Page, text: str) -> None:
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)
    # The editor saves a moment after the last key (later on a busy machine): until it has.
    page.wait_for_function("""([key, text]) => Object.values(
        JSON.parse(localStorage.getItem(key) || '{"lessons": {}}').lessons || {})
        .some((lesson) => lesson.draft === text)""", arg=[KEY, text])


def account_has_draft(page: Page, lesson: str, text: str) -> None:
    """Wait until the account (asked by the page, signed in) holds `text` as the lesson's draft:
    a sync that starts after the editor saved has to have gone and come back."""
    def held() -> bool:
        answer = page.evaluate("async () => (await fetch('/api/progress/?course=microgpt')).json()")
        return (answer["lessons"].get(lesson) or {}).get("draft") == text
    eventually(held, f"the account holds lesson {lesson}'s draft {text!r}")


def stored(page: Page) -> dict:
    return json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))


def test_two_devices_share_progress_offline_work_and_conflicting_drafts(
        server, devices: list[BrowserContext], tmp_path):
    laptop, phone = (context.new_page() for context in devices)
    for page in (laptop, phone):
        page.set_default_timeout(20_000)
    username = new_username()

    # Before the account exists: lesson 7.4 done in this browser. Signing up keeps it.
    import_progress(laptop, server, tmp_path, {"7.4": done()})
    sign_up(laptop, server, username)
    synced(laptop)

    # The phone signs in and sees it; then works on 7.5 offline, and syncs when back online.
    sign_in(phone, server, username)
    synced(phone)
    expect(phone.locator('[data-status-of="7.4"]')).to_have_text("Done")
    phone.goto(server.url + LESSON_75)
    synced(phone)
    devices[1].set_offline(True)
    type_draft(phone, "# typed on the phone, offline\n")
    phone.evaluate("window.dispatchEvent(new Event('offline'))")
    expect(phone.locator("[data-sync-status]")).to_have_attribute("data-state", "offline")
    assert stored(phone)["lessons"]["7.5"]["draft"] == "# typed on the phone, offline\n"
    devices[1].set_offline(False)
    synced(phone)

    # The laptop opens 7.5: the phone's draft, and the lesson in progress.
    laptop.goto(server.url + LESSON_75)
    synced(laptop)
    expect(laptop.locator(".cm-content")).to_contain_text("typed on the phone, offline")
    expect(laptop.locator(".lesson-header .status")).to_have_text("In progress")

    # Both change 7.5 while the laptop is offline; the phone's change is the newer one.
    devices[0].set_offline(True)
    type_draft(laptop, "# the laptop's version\n")
    type_draft(phone, "# the phone's newer version\n")
    synced(phone)
    devices[0].set_offline(False)
    laptop.evaluate("window.dispatchEvent(new Event('online'))")
    synced(laptop)

    # Opened again, each shows the newest draft, and the laptop's is offered back, not lost.
    for page in (laptop, phone):
        page.goto(server.url + LESSON_75)
        synced(page)
        expect(page.locator(".cm-content")).to_contain_text("the phone's newer version")
        earlier = page.locator("[data-earlier-versions]")
        expect(earlier).to_be_visible()
        expect(earlier).to_contain_text("1 line")
        earlier.locator("summary").first.click()
        expect(earlier.locator("pre").first).to_contain_text("# the laptop's version")

    laptop.set_viewport_size({"width": 360, "height": 800})
    assert laptop.evaluate("document.documentElement.scrollWidth") <= 360
    for scheme in ("light", "dark"):
        laptop.emulate_media(color_scheme=scheme)
        assert axe_violations(laptop, "[data-earlier-versions]") == [], scheme
        assert axe_violations(laptop, "header.site") == [], scheme
    laptop.get_by_role("button", name="Restore this version").first.click()
    expect(laptop.locator(".cm-content")).to_contain_text("the laptop's version")
    eventually(lambda: "the laptop's version" in json.dumps(account_progress(laptop)),
               "the restored version reaches the account")
    synced(laptop)
    phone.goto(server.url + LESSON_75)
    synced(phone)
    expect(phone.locator(".cm-content")).to_contain_text("the laptop's version")
    # The draft the restore replaced is offered back in its turn.
    expect(phone.locator("[data-earlier-versions]")).to_contain_text("From this browser")
    phone.locator("[data-earlier-versions] summary").first.click()
    expect(phone.locator("[data-earlier-versions] pre").first).to_contain_text("the phone's newer version")

    # The account holds the merge: both lessons, as each device sees them.
    for page in (laptop, phone):
        page.goto(server.url + "/")
        synced(page)
        expect(page.locator('[data-status-of="7.4"]')).to_have_text("Done")
        expect(page.locator('[data-status-of="7.5"]')).to_have_text("In progress")


def test_two_tabs_do_not_fight(server, devices: list[BrowserContext]):
    first = devices[0].new_page()
    sign_up(first, server, new_username())
    second = devices[0].new_page()
    first.goto(server.url + LESSON_74)
    second.goto(server.url + LESSON_75)
    synced(first)
    synced(second)
    type_draft(first, "# in the first tab\n")
    type_draft(second, "# in the second tab\n")
    account_has_draft(first, "7.4", "# in the first tab\n")
    account_has_draft(first, "7.5", "# in the second tab\n")
    for page in (first, second):
        synced(page)
    lessons = stored(first)["lessons"]
    assert lessons["7.4"]["draft"] == "# in the first tab\n"
    assert lessons["7.5"]["draft"] == "# in the second tab\n"
    account = first.evaluate("async () => (await fetch('/api/progress/?course=microgpt')).json()")
    assert account["lessons"]["7.4"]["draft"] == "# in the first tab\n"
    assert account["lessons"]["7.5"]["draft"] == "# in the second tab\n"


def account_progress(page: Page) -> dict:
    return page.evaluate("async () => (await fetch('/api/progress/?course=microgpt')).json()")["lessons"]


def kept_copies(page: Page) -> list[str]:
    return page.evaluate(f"Object.keys(localStorage).filter(k => k.startsWith('{KEY}:kept-for:'))")


def test_a_shared_browser_keeps_each_accounts_progress_apart(server, page: Page, context: BrowserContext,
                                                             tmp_path):
    """A classroom computer: one learner signs out, another signs in. Neither sees nor receives the
    other's progress, and each gets their own back on signing in again here."""
    page.set_default_timeout(20_000)
    ada, bob = new_username(), new_username()
    import_progress(page, server, tmp_path, {"7.4": done()})  # before signing up: it comes along
    sign_up(page, server, ada)
    synced(page)

    # Signing out puts Ada's progress away: the next learner starts from nothing.
    sign_out(page)
    page.goto(server.url + "/")
    expect(page.locator('[data-status-of="7.4"]')).to_have_text("Not started")
    assert page.evaluate(f"localStorage.getItem('{KEY}')") in (None, "") or \
        "7.4" not in stored(page)["lessons"]
    assert kept_copies(page) == []  # all of it was synced: the account has it, no copy stays here

    # Bob signs up here: his account does not get Ada's lesson. He does 7.5.
    sign_up(page, server, bob)
    synced(page)
    expect(page.locator('[data-status-of="7.4"]')).to_have_text("Not started")
    import_progress(page, server, tmp_path, {"7.5": done()})
    eventually(lambda: set(account_progress(page)) == {"7.5"}, "Bob's 7.5 reaches his account")
    synced(page)

    # Bob's session ends without the sign-out button (cookies cleared). Ada signs in here: she
    # sees her own lesson, not Bob's, and Bob's is not sent to her account.
    context.clear_cookies()
    sign_in(page, server, ada)
    page.goto(server.url + "/")
    synced(page)
    expect(page.locator('[data-status-of="7.4"]')).to_have_text("Done")
    expect(page.locator('[data-status-of="7.5"]')).to_have_text("Not started")
    assert set(account_progress(page)) == {"7.4"}
    assert len(kept_copies(page)) == 1  # Bob's, set aside here until he signs in again

    # And Bob, back on this browser, finds his lesson where he left it.
    sign_out(page)
    sign_in(page, server, bob)
    page.goto(server.url + "/")
    synced(page)
    expect(page.locator('[data-status-of="7.5"]')).to_have_text("Done")
    expect(page.locator('[data-status-of="7.4"]')).to_have_text("Not started")
    assert set(account_progress(page)) == {"7.5"}
    assert kept_copies(page) == []  # taken back


def test_what_was_set_aside_leaves_with_its_account(server, page: Page, tmp_path):
    """Parts of a learner's progress that could not be read were never synced: on a shared browser
    they leave with that learner at sign-out (the next one does not see them) and come back when
    the same learner signs in here again."""
    page.set_default_timeout(20_000)
    ada, bob = new_username(), new_username()
    sign_up(page, server, ada)
    synced(page)
    part = {"lesson": "7.5", "part": "its draft", "reason": "it is too long", "value": "ada's draft",
            "when": "2026-11-30T10:00:00Z"}
    page.evaluate("([key, text]) => localStorage.setItem(key, text)",
                  [f"{KEY}:set-aside", json.dumps({"format": "linebyline-set-aside", "course": "microgpt",
                                                   "parts": [part]})])
    page.goto(server.url + "/")
    alert = page.locator("[data-progress-alert] [data-set-aside]")
    expect(alert).to_contain_text("lesson 7.5, its draft: it is too long")

    def parked() -> list[str]:
        return page.evaluate(f"Object.keys(localStorage).filter(k => k.startsWith('{KEY}:set-aside'))")

    sign_out(page)
    page.goto(server.url + "/")
    expect(page.locator("[data-status-of='7.4']")).to_be_visible()
    expect(alert).to_have_count(0)
    assert [key.rsplit(":", 1)[0] for key in parked()] == [f"{KEY}:set-aside-for"]

    sign_up(page, server, bob)  # the next learner: nothing of Ada's is shown to him
    synced(page)
    expect(alert).to_have_count(0)
    sign_out(page)

    sign_in(page, server, ada)
    page.goto(server.url + "/")
    synced(page)
    expect(alert).to_contain_text("lesson 7.5, its draft: it is too long")
    assert parked() == [f"{KEY}:set-aside"]
    kept = json.loads(page.evaluate(f"localStorage.getItem('{KEY}:set-aside')"))
    assert [p["value"] for p in kept["parts"]] == ["ada's draft"]


def test_a_lesson_the_course_does_not_have_stays_here_and_the_rest_syncs(server, page: Page, tmp_path):
    """A progress file from another version of the course holds a lesson this server's course does
    not have. The server refuses a document naming it, so the browser sends the course's lessons
    only (sync goes on), and keeps the other one, also across a sign-out."""
    page.set_default_timeout(20_000)
    username = new_username()
    import_progress(page, server, tmp_path, {"7.4": done(), "99.1": done()})
    sign_up(page, server, username)
    synced(page)
    assert set(account_progress(page)) == {"7.4"}
    assert "99.1" in stored(page)["lessons"]
    import_progress(page, server, tmp_path, {"7.5": done()})
    eventually(lambda: set(account_progress(page)) == {"7.4", "7.5"},
               "Ada's 7.5 joins her 7.4 in her account")
    synced(page)

    sign_out(page)
    sign_in(page, server, username)
    page.goto(server.url + "/")
    synced(page)
    assert {"7.4", "7.5", "99.1"} <= set(stored(page)["lessons"])
