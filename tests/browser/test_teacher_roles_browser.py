"""Roles without the admin, in Chromium: `linebyline teacher add` makes a teacher, who creates a
class, adds a co-teacher, renames it, removes a learner and adds them back (each after a
confirmation page), makes a new join code and undoes it, and archives the class. Every page on the
way passes axe, light and dark, and fits a phone."""
from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .classroom import PASSWORD, Background, make_sessions, sessions, signed_in_context, unique
from .test_teaching_in_browser import passes_axe_and_fits_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
MAKE_ACCOUNT = ("from django.contrib.auth.models import User; "
                "User.objects.create_user({name!r}, password={password!r})")


def page_of(context, timeout: float = 20_000) -> Page:
    page = context.new_page()
    page.set_default_timeout(timeout)
    return page


def test_a_teacher_made_by_the_cli_runs_a_class_without_the_admin(server, browser: Browser):
    teacher, co, learner = unique("tom"), unique("cora"), unique("lee")
    made = make_sessions(server, [co, learner])
    Background(server, "manage", "shell", "-c", MAKE_ACCOUNT.format(name=teacher, password=PASSWORD)).done()
    said = Background(server, "teacher", "add", teacher).done()
    assert f"{teacher} is a teacher now" in said
    keys = sessions(made)
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900})]
    contexts += [signed_in_context(browser, server, keys[name][0]) for name in (co, learner)]
    try:
        desk, co_desk, seat = (page_of(context) for context in contexts)
        desk.goto(server.url + "/accounts/login/")
        desk.get_by_label("Username").fill(teacher)
        desk.get_by_label("Password").fill(PASSWORD)
        desk.get_by_role("button", name="Sign in").click()
        desk.get_by_role("link", name="Teach", exact=True).click()
        desk.get_by_label("Class name").fill("Room 12")
        desk.get_by_role("button", name="Create the class").click()
        expect(desk.locator(".messages")).to_contain_text("Class “Room 12” created")
        class_url = desk.url
        code = desk.locator("[data-join-code]").inner_text()

        # A co-teacher, by user name; a new name.
        desk.get_by_role("link", name="Class settings").click()
        desk.get_by_label("Co-teacher's user name").fill(co.upper())  # as it was heard: any case
        desk.get_by_role("button", name="Add a co-teacher").click()
        expect(desk.locator(".messages")).to_contain_text(f"{co} now teaches “Room 12”")
        expect(desk.locator(f'[data-teacher="{co}"]')).to_be_visible()
        desk.get_by_label("Class name").fill("Room 12 · spring")
        desk.get_by_role("button", name="Save").click()
        expect(desk.locator(".messages")).to_contain_text("Renamed “Room 12” to “Room 12 · spring”")
        passes_axe_and_fits_a_phone(desk)
        co_desk.goto(server.url + "/teach/")
        expect(co_desk.locator('[data-class="Room 12 · spring"]')).to_be_visible()
        co_desk.goto(server.url + "/accounts/")
        expect(co_desk.locator('[data-teaches="Room 12 · spring"]')).to_be_visible()

        # The learner joins with the code, typed as heard.
        seat.goto(server.url + "/accounts/")
        seat.get_by_label("Join code").fill(code.lower())
        seat.get_by_role("button", name="Join", exact=True).click()
        expect(seat.locator('[data-class="Room 12 · spring"]')).to_be_visible()

        # Removing asks first; the learner is then "left", and can be added back.
        desk.goto(class_url)
        desk.locator(f'[data-learner="{learner}"] th a').click()
        desk.get_by_role("link", name=f"Remove {learner} from the class…").click()
        expect(desk.locator("h1")).to_have_text(f"Remove {learner} from “Room 12 · spring”?")
        passes_axe_and_fits_a_phone(desk)
        desk.get_by_role("link", name="No, go back").click()
        expect(desk.locator(f'[data-learner="{learner}"] [data-left]')).to_have_count(0)
        desk.locator(f'[data-learner="{learner}"] th a').click()
        desk.get_by_role("link", name=f"Remove {learner} from the class…").click()
        desk.get_by_role("button", name=f"Remove {learner}").click()
        expect(desk.locator("[data-undo-removed]")).to_contain_text(f"{learner} is shown as “left”")
        expect(desk.locator(f'[data-learner="{learner}"] [data-left]')).to_have_text("left")
        passes_axe_and_fits_a_phone(desk)
        seat.goto(server.url + "/accounts/")
        expect(seat.locator("[data-removed]")).to_be_visible()
        desk.get_by_role("button", name=f"Undo: add {learner} back").click()
        expect(desk.locator(".messages")).to_contain_text(f"{learner} is back in “Room 12 · spring”")
        expect(desk.locator(f'[data-learner="{learner}"] [data-left]')).to_have_count(0)

        # A new join code asks first, and can be undone.
        desk.locator("[data-new-code]").click()
        desk.get_by_role("button", name="Make a new join code").click()
        expect(desk.locator("[data-join-code]")).not_to_have_text(code)
        expect(desk.locator("[data-undo-code]")).to_contain_text(f"The old join code, {code}")
        desk.get_by_role("button", name=f"Undo: bring back {code}").click()
        expect(desk.locator("[data-join-code]")).to_have_text(code)

        # Archived: no one new joins; it moves to the archived classes.
        desk.get_by_role("link", name="Class settings").click()
        desk.get_by_role("button", name="Archive the class").click()
        expect(desk.locator("[data-archived]")).to_be_visible()
        passes_axe_and_fits_a_phone(desk)
        late = signed_in_context(browser, server, keys[co][0])  # the co-teacher tries to join as a learner
        contexts.append(late)
        latecomer = page_of(late)
        latecomer.goto(server.url + "/accounts/")
        latecomer.get_by_label("Join code").fill(code)
        latecomer.get_by_role("button", name="Join", exact=True).click()
        expect(latecomer.locator(".error, .errorlist")).to_contain_text("is archived")
        desk.goto(server.url + "/teach/")
        expect(desk.locator("details.archived summary")).to_have_text("Archived classes (1)")
    finally:
        for context in contexts:
            context.close()
