"""Lesson 7.5 walked with the keyboard only, as a learner who uses no mouse (or a screen reader).

The focus never falls to <body> when Run, Check or Stop is pressed; the editor says how to leave
it (Esc, then Tab) and that works; the program listing is one tab stop, left with one key press;
a Watch chapter link lands on the code-along's Play button; and the page's live regions (read
aloud at each change) are written only when what they say changes.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import wait_for_python

pytestmark = pytest.mark.browser
LESSON = "/lessons/7.5-backward/"

# Watches every live region of the page: a write that leaves a region's text as it was counts
# as a repeat (a screen reader reads the region again, for nothing).
WATCH_LIVE_REGIONS = """() => {
    const live = '[aria-live], [role=status], [role=alert], [role=log]';
    const said = new Map();
    for (const region of document.querySelectorAll(live)) said.set(region, region.textContent);
    window.liveRepeats = [];
    window.liveChanges = 0;
    new MutationObserver((records) => {
        const touched = new Set();
        for (const record of records) {
            const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
            const region = node && node.closest(live);
            if (region) touched.add(region);
        }
        for (const region of touched) {
            const text = region.textContent;
            if (said.has(region) && said.get(region) === text) {
                const name = region.dataset.replay || region.className || region.tagName;
                window.liveRepeats.push(name + ': ' + text.slice(0, 60));
            } else {
                window.liveChanges += 1;
            }
            said.set(region, text);
        }
    }).observe(document.body, {childList: true, characterData: true, subtree: true});
}"""


def focused(page: Page) -> str:
    """What has the keyboard focus, in a few words (tag, data-action, text)."""
    return page.evaluate("""() => {
        const e = document.activeElement;
        if (!e || e === document.body) return 'BODY';
        const text = (e.textContent || '').trim().slice(0, 40);
        return `${e.tagName.toLowerCase()} ${e.dataset.action || e.dataset.replay || ''} ${text}`;
    }""")


def press_until_focused(page: Page, selector: str, key: str = "Tab", limit: int = 60) -> int:
    """Press `key` until the element `selector` has the focus; how many presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press(key)
        if page.evaluate("(s) => document.activeElement === document.querySelector(s)", selector):
            return presses
    raise AssertionError(f"{selector} never got the focus with {key} (last: {focused(page)})")


def test_lesson_7_5_by_keyboard_alone(server, page: Page):
    page.goto(server.url + LESSON)
    wait_for_python(page)
    page.evaluate(WATCH_LIVE_REGIONS)
    run = '[data-action="run"]'
    check = '[data-action="check"]'
    stop = '[data-action="stop"]'

    # The editor says how to leave it, in words on the page and as its accessible description.
    content = page.locator(".cm-content")
    described = content.get_attribute("aria-describedby")
    assert described, "the editor has no accessible description"
    keys = page.locator(f"#{described}")
    expect(keys).to_be_visible()
    expect(keys).to_contain_text("Esc")
    expect(keys).to_contain_text("Tab")
    # ... and it is true: Esc, then Tab, leaves the editor for the Run button.
    content.focus()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("(s) => document.activeElement === document.querySelector(s)", run), focused(page)

    # Run with Enter: the focus stays on Run while it runs and after.
    page.keyboard.press("Enter")
    expect(page.locator("[data-output]")).to_contain_text("x.grad = 0", timeout=30_000)
    expect(page.locator(run)).to_be_enabled()
    assert focused(page) != "BODY" and "run" in focused(page), focused(page)
    expect(page.locator("[data-run-status]")).to_contain_text("Ran")

    # Check with Enter: the focus stays on Check.
    press_until_focused(page, check)
    page.keyboard.press("Enter")
    expect(page.locator("[data-checks-summary]")).to_contain_text("Not attempted yet", timeout=30_000)
    expect(page.locator(check)).to_be_enabled()
    assert "check" in focused(page), focused(page)

    # A loop that never ends, typed in the editor and run with Ctrl+Enter; then Stop, by keyboard.
    content.focus()
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    for _ in range(5):
        page.keyboard.press("Shift+Tab")
    page.keyboard.type("while True: pass")
    page.keyboard.press("Control+Enter")
    expect(page.locator(stop)).to_be_enabled()
    page.keyboard.press("Escape")
    press_until_focused(page, stop)
    page.keyboard.press("Enter")
    expect(page.locator("[data-output]")).to_contain_text("Stopped", timeout=6_000)
    expect(page.locator(run)).to_be_enabled()
    assert "stop" in focused(page), focused(page)
    # Pressing the stopped Stop again does nothing and keeps the focus.
    page.keyboard.press("Enter")
    assert "stop" in focused(page), focused(page)

    # A chapter link in Watch leads to the code-along's Play button, which plays it by keyboard.
    page.locator("[data-chapter-link]").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator('[data-replay="play"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator('[data-replay="screen"]')).to_contain_text("order.append(node)", timeout=15_000)
    page.keyboard.press("Enter")  # pause

    # The listing is one tab stop: Tab from the quiz reaches it past the links above it (to the
    # original's lines), and one more Tab leaves it for the page's footer.
    links = page.locator("#unlocked [data-program] a")
    assert links.count() > 20
    tabbable = links.evaluate_all("links => links.filter(a => a.tabIndex >= 0).length")
    assert tabbable == 1, f"{tabbable} tab stops in the listing"
    page.locator("#quiz button[type=submit]").last.focus()
    in_listing = "(s) => !!document.activeElement.closest(s)"
    before = page.locator("#unlocked a").count() - links.count()
    for _ in range(before + 1):
        page.keyboard.press("Tab")
    assert page.evaluate(in_listing, "#unlocked [data-program]"), focused(page)
    page.keyboard.press("ArrowDown")  # the arrows move inside it
    assert page.evaluate(in_listing, "#unlocked [data-program]"), focused(page)
    page.keyboard.press("Tab")
    assert not page.evaluate(in_listing, "#unlocked"), focused(page)
    assert page.evaluate(in_listing, ".lesson-footer"), focused(page)

    # Through all of it, each live region was written only when its words changed.
    assert page.evaluate("window.liveChanges") > 5
    assert page.evaluate("window.liveRepeats") == []
