"""The two levels of TODO comments in Chromium: chosen once on the course home (kept in the
progress), a lesson's Build opens at that level and its toolbar switches one lesson, rewriting
only the TODO blocks still as a starter had them; either untouched starter is not attempted and
the solution passes at both levels."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server, axe_violations, set_editor_text, wait_for_python
from .test_lesson_walk import LESSON, check_and_wait, replace_todo, show_end_of_editor

pytestmark = pytest.mark.browser
KEY = "linebyline:progress:microgpt"


def stored(page: Page) -> dict:
    return json.loads(page.evaluate(f"localStorage.getItem('{KEY}') || '{{}}'"))


def saved_draft(page: Page, text: str) -> None:
    """Wait until the editor has saved `text` as the draft of 7.5."""
    page.wait_for_function(
        "([key, text]) => ((JSON.parse(localStorage.getItem(key) || '{}').lessons || {})['7.5']"
        " || {}).draft === text", arg=[KEY, text])


def test_on_my_own_from_the_course_home_to_a_passing_build(server, page: Page, course):
    exercise = course.lesson("7.5").exercise
    own_first = exercise.own_starter.split("\n")[48].strip()  # the first on-my-own TODO line
    guided_first = exercise.starter.split("\n")[48].strip()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # The course home: a labelled radio group, guided until the learner picks.
    page.goto(server.url + "/")
    setting = page.get_by_role("group", name="TODO comments in the Builds")
    guided = setting.get_by_role("radio", name="Guided")
    own = setting.get_by_role("radio", name="On my own")
    expect(guided).to_be_checked()
    own.check()
    expect(page.locator("[data-level-message]")).to_contain_text("on-my-own TODO comments")
    assert stored(page)["settings"]["todoLevel"]["value"] == "own"
    assert axe_violations(page, ".level-tools") == []
    page.reload()  # kept in the progress
    expect(page.get_by_role("radio", name="On my own")).to_be_checked()

    # A fresh Build opens with the on-my-own starter, and its switch says so.
    page.goto(server.url + LESSON)
    wait_for_python(page)
    switch = page.get_by_role("group", name="TODO comments")
    expect(switch).to_be_visible()
    expect(switch.get_by_role("radio", name="On my own")).to_be_checked()
    show_end_of_editor(page)
    expect(page.locator(".cm-content")).to_contain_text(own_first)
    expect(page.locator(".cm-content")).not_to_contain_text(guided_first)
    assert check_and_wait(page).startswith("Not attempted yet")  # untouched, at this level too
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page, "#build") == [], scheme
    page.emulate_media(color_scheme="light")

    # To Guided and back, by keyboard: the whole starter switches, and it is said aloud.
    switch.get_by_role("radio", name="On my own").focus()
    page.keyboard.press("ArrowLeft")
    expect(switch.get_by_role("radio", name="Guided")).to_be_checked()
    status = page.locator("[data-level-status]")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_have_text("TODO comments: guided. 2 TODO blocks of 2 rewritten; your code "
                                "is unchanged.")
    saved_draft(page, exercise.starter)
    switch.get_by_role("radio", name="On my own").check()
    saved_draft(page, exercise.own_starter)

    # The learner writes code over one TODO: switching rewrites only the other block.
    replace_todo(page, own_first[:40], "order.append(node)")
    page.wait_for_function(
        "key => (JSON.parse(localStorage.getItem(key)).lessons['7.5'].draft || '')"
        ".includes('order.append(node)')", arg=KEY)
    switch.get_by_role("radio", name="Guided").check()
    expect(status).to_have_text("TODO comments: guided. 1 TODO block of 2 rewritten; your code is "
                                "unchanged. 1 you changed or removed stays as it is.")
    page.wait_for_function(
        "key => (JSON.parse(localStorage.getItem(key)).lessons['7.5'].draft || '')"
        ".includes('# TODO (one line): the chain rule. Pass node')", arg=KEY)
    draft = stored(page)["lessons"]["7.5"]["draft"]
    assert "order.append(node)" in draft  # their line, kept
    assert exercise.level_pairs()[1][0] in draft and exercise.level_pairs()[1][1] not in draft
    assert own_first not in draft  # the block they typed over: not put back

    # The solution passes, whatever level the switch is at.
    set_editor_text(page, exercise.solution)
    assert check_and_wait(page).startswith(f"All {len(exercise.check_names)} checks pass")
    switch.get_by_role("radio", name="On my own").check()
    expect(status).to_contain_text("No TODO comment was rewritten")
    assert check_and_wait(page).startswith(f"All {len(exercise.check_names)} checks pass")
    assert errors == []


@pytest.mark.no_python
def test_a_lesson_without_on_my_own_shows_no_switch(tmp_path, monkeypatch, page: Page):
    """Every lesson of the course has both levels: a course whose 7.4 lacks its texts offers
    that lesson at one level, with no switch."""
    from linebyline.course import default_course_path, load_course

    from ..test_levels import without_own_texts

    folder = without_own_texts(Path(shutil.copytree(default_course_path(), tmp_path / "course")),
                               "7.4")
    lesson = load_course(folder).lesson("7.4")
    assert not lesson.exercise.own_starter
    monkeypatch.setitem(os.environ, "LINEBYLINE_COURSE", str(folder))
    server = Server(tmp_path / "data")
    try:
        page.goto(f"{server.url}/lessons/7.4-{lesson.slug}/")
        expect(page.locator("h1")).to_contain_text(lesson.title)
        expect(page.locator("[data-level-switch]")).to_be_hidden()
        expect(page.get_by_role("group", name="TODO comments")).to_have_count(0)
    finally:
        server.stop()


@pytest.mark.no_python
def test_the_choice_follows_the_learner_to_another_device(server, browser: Browser):
    from .test_accounts_browser import new_username, sign_in, sign_up
    from .test_sync_browser import synced

    devices = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(2)]
    try:
        laptop, phone = (context.new_page() for context in devices)
        username = new_username()
        sign_up(laptop, server, username)
        laptop.goto(server.url + "/")
        synced(laptop)
        laptop.get_by_role("radio", name="On my own").check()
        synced(laptop)
        account = laptop.evaluate(
            "async () => (await fetch('/api/progress/?course=microgpt')).json()")
        assert account["settings"]["todoLevel"]["value"] == "own"
        sign_in(phone, server, username)
        phone.goto(server.url + "/")
        synced(phone)
        expect(phone.get_by_role("radio", name="On my own")).to_be_checked()
    finally:
        for context in devices:
            context.close()
