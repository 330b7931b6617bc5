"""The Parsons rung of "Stuck?": after the last hint, the answer's lines shuffled with one known
mistake among them, put in order and indented by keyboard alone; in order, they fill the TODOs,
which counts as the solution shown and still has to pass the checks."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from linebyline.course.parsons import answer_lines, distractor

from ..conftest import the_course
from .conftest import assert_axe_clean_light_and_dark, wait_for_python

pytestmark = pytest.mark.browser
LESSON = the_course().lesson("9.3")  # a chapter types into a line an earlier one typed


def pieces(page: Page) -> list[dict]:
    items = page.locator("[data-parsons-lines] li")
    return [{"id": item.get_attribute("data-piece"), "text": item.locator("code").inner_text(),
             "level": int(item.locator("code").evaluate("e => e.style.getPropertyValue('--level')")),
             "out": item.get_attribute("data-out") == "true"} for item in items.all()]


def press(page: Page, piece_id: str, move: str) -> None:
    """A move by keyboard: focus the line's button, press Enter."""
    page.locator(f'[data-piece="{piece_id}"] [data-move="{move}"]').focus()
    page.keyboard.press("Enter")


def test_the_lines_put_in_order_by_keyboard_fill_the_todos(server, page: Page):
    exercise = LESSON.exercise
    answer = answer_lines(exercise)
    wrong = distractor(exercise)
    assert len(answer) >= 2 and wrong
    page.goto(f"{server.url}/lessons/{LESSON.number}-{LESSON.slug}/")
    wait_for_python(page)
    for _ in exercise.hints:
        page.click('[data-action="hint"]')
    page.locator('[data-action="parsons"]').focus()
    page.keyboard.press("Enter")
    panel = page.locator("[data-parsons]")
    expect(panel).to_be_visible()
    assert page.evaluate("document.activeElement.dataset.move") is not None  # focus is in it
    shown = pieces(page)
    assert sorted(p["text"] for p in shown) == sorted([line.strip() for line in answer] + [wrong])
    assert all(p["level"] == 0 for p in shown)
    assert_axe_clean_light_and_dark(page, "[data-parsons]")

    page.locator("[data-parsons-check]").click()
    expect(page.locator("[data-parsons-verdict]")).to_contain_text("a known mistake")

    # Leave the wrong line out, then bring each answer line to its place and indent.
    wrong_id = next(p["id"] for p in shown if p["text"] == wrong)
    press(page, wrong_id, "out")
    expect(page.locator("[data-parsons-status]")).to_contain_text("left out")
    for place, line in enumerate(answer):
        current = pieces(page)
        index = next(i for i, p in enumerate(current)
                     if p["text"] == line.strip() and i >= place and not p["out"])
        piece_id = current[index]["id"]
        for _ in range(index - place):
            press(page, piece_id, "up")
        level = (len(line) - len(line.lstrip())) // 4
        for _ in range(level):
            press(page, piece_id, "indent")
        expect(page.locator("[data-parsons-status]")).to_contain_text(
            f"line {place + 1} of {len(answer) + 1}, indented {level}")
        if place == 0 and len(answer) > 1:
            page.locator("[data-parsons-check]").click()
            expect(page.locator("[data-parsons-verdict]")).to_contain_text(
                "The first line is in place")

    page.locator("[data-parsons-check]").click()
    expect(page.locator("[data-parsons-verdict]")).to_contain_text("In order.")
    page.click('[data-action="check"]')
    summary = page.locator("[data-checks-summary]")
    expect(summary).not_to_have_text("Checking…", timeout=60_000)
    expect(summary).to_contain_text(f"All {len(exercise.check_names)} checks pass")
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
