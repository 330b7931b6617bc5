"""Progress is never lost or hidden by one bad part: huge pastes, unreadable parts, a full quota.

None of these needs Python in the page, so none waits for it.
"""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
KEY = "linebyline:progress:microgpt"
LESSON_74 = "/lessons/7.4-building-value/"
LESSON_75 = "/lessons/7.5-backward/"


def progress_file(lessons: dict) -> dict:
    return {"format": "linebyline-progress", "version": 1, "course": "microgpt", "lessons": lessons}


def done(draft: str | None = None) -> dict:
    lesson = {"status": "done", "quiz": {}, "hintsShown": 0, "checks": {"passed": 4, "total": 4}}
    if draft is not None:
        lesson["draft"] = draft
    return lesson


@pytest.fixture
def clipboard_context(browser: Browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    yield context
    context.close()


def import_progress(page: Page, server, tmp_path, lessons: dict) -> None:
    """Earn lessons the way a learner brings them from another browser: the import button."""
    path = tmp_path / "earned.json"
    path.write_text(json.dumps(progress_file(lessons)))
    page.goto(server.url + "/")
    page.set_input_files("[data-progress-import]", path)
    expect(page.locator("[data-progress-message]")).to_contain_text("Imported progress for")


def paste(page: Page, text: str) -> None:
    """A real paste: the text goes on the clipboard, then Ctrl+V in the editor."""
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Control+v")


def statuses(page: Page) -> dict[str, str]:
    page.goto(page.url.split("/lessons/")[0].rstrip("/") + "/")
    return {n: page.locator(f'[data-status-of="{n}"]').inner_text() for n in ("7.4", "7.5")}


def test_a_huge_paste_is_refused_at_the_editor_and_every_earned_lesson_stays_done(
        server, clipboard_context: BrowserContext, tmp_path):
    page = clipboard_context.new_page()
    import_progress(page, server, tmp_path, {"7.4": done(), "7.5": done()})
    page.goto(server.url + LESSON_75)

    paste(page, "ada\n" * 62_500)  # 250,000 characters: a names file, say
    note = page.locator("[data-editor-note]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("That change was not made: it would make your code 25")
    expect(note).to_contain_text("the editor holds at most 200,000")
    assert page.locator(".cm-line", has_text="ada").count() == 0  # the editor took none of it
    # A small edit after it: once the editor has saved that, it has saved all it will.
    page.keyboard.insert_text("\n# typed after the paste\n")
    page.wait_for_function("""key => (JSON.parse(localStorage.getItem(key)).lessons['7.5'].draft
        || '').includes('# typed after the paste')""", arg=KEY)
    stored = json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))
    assert "ada" not in stored["lessons"]["7.5"]["draft"]

    page.reload()
    expect(page.locator(".lesson-header .status")).to_have_text("Done")
    expect(page.locator("[data-progress-alert]")).to_be_hidden()
    assert statuses(page) == {"7.4": "Done", "7.5": "Done"}

    # A big paste that fits is kept, and still nothing is lost on reload.
    page.goto(server.url + LESSON_74)
    paste(page, "# " + "x" * 149_000 + "\n")
    expect(page.locator("[data-editor-note]")).to_be_hidden()
    page.reload()  # straight away: what was typed is saved as the page goes
    draft = page.evaluate(f"JSON.parse(localStorage.getItem('{KEY}')).lessons['7.4'].draft")
    assert "x" * 149_000 in draft
    assert statuses(page) == {"7.4": "Done", "7.5": "Done"}


def test_version_1_progress_in_this_browser_loads_and_is_kept_as_version_2(server, page: Page):
    """Progress the first version of the site stored (format version 1, no times, no device)."""
    in_progress = {"status": "in-progress", "quiz": {"7.5-q1": {"answer": "2", "correct": True}},
                   "hintsShown": 1, "draft": "# my draft from version 1\n"}
    page.goto(server.url + "/program/")
    page.evaluate("([key, stored]) => { localStorage.clear(); localStorage.setItem(key, stored); }",
                  [KEY, json.dumps(progress_file({"7.4": done(), "7.5": in_progress}))])
    page.goto(server.url + "/")
    assert statuses(page) == {"7.4": "Done", "7.5": "In progress"}
    expect(page.locator("[data-progress-alert]")).to_be_hidden()

    page.goto(server.url + LESSON_75)
    expect(page.locator(".cm-content")).to_contain_text("# my draft from version 1")
    page.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# and a line typed today\n")
    # The editor saves a moment after the last key (later on a busy machine): until it has.
    page.wait_for_function("key => (localStorage.getItem(key) || '').includes('a line typed today')",
                           arg=KEY)
    kept = json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))
    assert kept["version"] == 2
    assert kept["lessons"]["7.4"]["status"] == "done"
    assert kept["lessons"]["7.5"]["quiz"]["7.5-q1"]["answer"] == "2"
    assert kept["lessons"]["7.5"]["hintsShown"] == 1
    assert kept["lessons"]["7.5"]["draft"] == "# my draft from version 1\n# and a line typed today\n"


def test_an_unreadable_part_is_set_aside_once_and_can_be_downloaded(server, page: Page, tmp_path):
    """What the previous version left behind: an oversized draft in the file, and one copy of the
    whole file per load under :unreadable: keys. Everything readable comes back."""
    big = "ada\n" * 62_500  # 250,000 characters
    stored = json.dumps(progress_file({"7.4": done(), "7.5": done(big), "bad": {"status": "done"}}))
    page.goto(server.url + "/program/")
    page.evaluate("""([key, stored]) => {
        localStorage.clear();
        localStorage.setItem(key, stored);
        for (const when of [1, 2, 3]) localStorage.setItem(`${key}:unreadable:${when}`, stored);
    }""", [KEY, stored])

    page.goto(server.url + "/")
    alert = page.locator("[data-progress-alert]")
    expect(alert).to_contain_text("Part of your saved progress could not be read")
    expect(alert).to_contain_text("lesson 7.5, its draft: its draft is 250,000 characters")
    expect(alert).to_contain_text('lesson bad, the whole lesson: "bad" is not a lesson number')
    assert statuses(page) == {"7.4": "Done", "7.5": "Done"}

    def keys() -> list[str]:  # the progress's own keys (beside the device id, the account's)
        return page.evaluate(f"Object.keys(localStorage).filter(k => k.startsWith('{KEY}')).sort()")

    assert keys() == [KEY, f"{KEY}:set-aside"]  # the old copies are gone, one set-aside left
    aside = json.loads(page.evaluate(f"localStorage.getItem('{KEY}:set-aside')"))
    assert len(aside["parts"]) == 2
    page.reload()
    page.reload()
    assert keys() == [KEY, f"{KEY}:set-aside"]
    assert json.loads(page.evaluate(f"localStorage.getItem('{KEY}:set-aside')")) == aside

    with page.expect_download() as download:
        alert.get_by_role("button", name="Download what was set aside").click()
    saved = tmp_path / "aside.json"
    download.value.save_as(saved)
    assert big in [part["value"] for part in json.loads(saved.read_text())["parts"]]

    page.once("dialog", lambda dialog: dialog.accept())
    alert.get_by_role("button", name="Delete it").click()
    expect(alert).to_be_hidden()
    assert keys() == [KEY]
    assert statuses(page) == {"7.4": "Done", "7.5": "Done"}


FILL = """() => {
    // Fill this origin's storage until not one more character fits.
    let size = 1 << 22, index = 0;
    while (size >= 1) {
        try { localStorage.setItem(`filler-${index}`, "x".repeat(size)); index += 1; }
        catch { size = Math.floor(size / 2); }
    }
}"""


def test_a_full_quota_is_shown_and_an_import_that_does_not_fit_says_so(server, page: Page,
                                                                        tmp_path):
    import_progress(page, server, tmp_path, {"7.4": done()})
    page.goto(server.url + LESSON_75)
    page.evaluate(FILL)
    form = page.locator("form[data-question]").first
    form.locator("input[type=radio]").first.check()
    form.locator("button[type=submit]").click()
    alert = page.locator("[data-progress-alert]")
    expect(alert).to_contain_text("Your latest progress could not be saved: this browser's "
                                  "storage for this site is full")
    expect(page.locator(".lesson-header .status")).to_have_text("In progress")  # kept in memory

    exported = tmp_path / "more.json"
    exported.write_text(json.dumps(progress_file({"7.5": done("x = 1\n" * 1000)})))
    page.goto(server.url + "/")
    page.set_input_files("[data-progress-import]", exported)
    expect(page.locator("[data-progress-message]")).to_have_text(
        "Nothing was imported: this browser's storage for this site is full, so the merged "
        "progress could not be saved. Your progress here is as it was.")
    assert statuses(page) == {"7.4": "Done", "7.5": "Not started"}

    page.evaluate("() => { for (const key of Object.keys(localStorage)) "
                  "if (key.startsWith('filler-')) localStorage.removeItem(key); }")
    page.set_input_files("[data-progress-import]", exported)
    expect(page.locator("[data-progress-message]")).to_have_text(
        "Imported progress for 1 lesson. Nothing you had here was lost.")
    assert statuses(page) == {"7.4": "Done", "7.5": "Done"}
