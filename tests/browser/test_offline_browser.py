"""The course offline after a first visit (issue 24): the service worker keeps every page, Pyodide
and the checks; with the network cut a signed-in learner opens lessons and a review, checks a
solution, trains in My microgpt and reloads; back online, what they did reaches their account.
A new version of the course replaces the kept one in the background and the page offers "Reload".
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from linebyline.course import default_course_path, load_course

from .conftest import Server, eventually, wait_for_python
from .test_accounts_browser import new_username, sign_up
from .test_lesson_walk import check_and_wait
from .test_my_microgpt import TRAIN_S
from .test_progress_kept import KEY
from .test_sync_browser import synced, type_draft

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]
KEEP_S = 180  # every page of the course and Pyodide, from the local server, on a busy machine


def lesson_path(lesson) -> str:
    return f"/lessons/{lesson.number}-{lesson.slug}/"


def wait_until_kept(page: Page) -> list[str]:
    """Until the service worker has kept the whole course and controls the page: its cache."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=KEEP_S * 1000)
    return kept_caches(page)


def kept_caches(page: Page) -> list[str]:
    return page.evaluate("""async () => (await caches.keys()).filter(
        name => name.startsWith('linebyline-offline-'))""")


def go_offline(context: BrowserContext, page: Page) -> None:
    context.set_offline(True)
    page.evaluate("window.dispatchEvent(new Event('offline'))")


def test_a_signed_in_learner_works_offline_and_the_work_reaches_the_account(
        server: Server, context: BrowserContext, page: Page, course):
    first = course.lesson("7.5")
    others = [course.lesson(number) for number in ("7.1", "7.2", "7.4")]
    checked = others[-1]
    review = next(module for module in course.modules if module.number == 7)
    sign_up(page, server, new_username())

    page.goto(server.url + "/")
    page.goto(server.url + lesson_path(first))
    wait_for_python(page)
    caches = wait_until_kept(page)
    assert len(caches) == 1
    kept = page.evaluate(f"""async () => (await (await caches.open({json.dumps(caches[0])}))
        .keys()).map(request => new URL(request.url).pathname)""")
    assert lesson_path(checked) in kept and f"/modules/{review.number}/review/" in kept
    assert not [path for path in kept if path.startswith(("/api/", "/accounts/", "/teach/"))]
    # Chromium would offer "Install": the manifest, its icons and the worker are all it needs
    # (but a window that is not incognito: Playwright's contexts are).
    errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error["errorId"] for error in errors] in ([], ["in-incognito"]), errors

    go_offline(context, page)
    for lesson in others:
        page.goto(server.url + lesson_path(lesson))
        expect(page.locator("h1")).to_contain_text(lesson.title)
    # Served from the cache with the headers Pyodide's interrupt buffer needs.
    assert page.evaluate("crossOriginIsolated") is True
    page.goto(server.url + f"/modules/{review.number}/review/")
    expect(page.locator("h1")).to_contain_text("Module review")
    expect(page.locator("main")).to_contain_text(review.title)

    page.goto(server.url + lesson_path(checked))
    expect(page.locator("[data-signed-in-as]")).to_be_visible()  # the account this browser knows
    wait_for_python(page)
    type_draft(page, checked.exercise.solution)
    assert check_and_wait(page).startswith("All")
    expect(page.locator(".lesson-header .status")).to_have_text("Done")

    page.goto(server.url + "/my-microgpt/")
    expect(page.locator("[data-mine-status]")).to_contain_text("Assembled in this browser",
                                                               timeout=TRAIN_S * 1000)
    wait_for_python(page)
    page.fill("[data-steps]", "10")
    page.click("[data-action='train']")
    expect(page.locator("[data-readout='progress']")).to_contain_text("Done: 10 steps",
                                                                       timeout=TRAIN_S * 1000)

    page.goto(server.url + "/accounts/")  # needs the server: says so, not the browser's error
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page.locator("[data-offline-page][data-listening]")).to_be_attached()
    # Browsers say "online" when a network comes up (Chromium now and then for nothing): while
    # the server cannot be reached the page stays as it is.
    # (The page asks the server with a HEAD request first: once that has failed, it has decided.)
    with page.expect_event("requestfailed", lambda request: request.method == "HEAD"):
        page.evaluate("window.stillHere = true; window.dispatchEvent(new Event('online'))")
    assert page.evaluate("window.stillHere") is True
    # The installed app opens at /next/: on to the first lesson not done yet.
    page.goto(server.url + "/next/")
    not_done = next(lesson for lesson in course.lessons() if lesson.number != checked.number)
    page.wait_for_url(server.url + lesson_path(not_done))
    page.goto(server.url + "/teach/")
    expect(page.locator("[data-offline-what]")).to_contain_text("The teacher's pages need the server")
    expect(page.locator("h1")).to_have_text("You are offline")

    page.goto(server.url + lesson_path(checked))
    expect(page.locator("h1")).to_contain_text(checked.title)  # from the cache, offline
    page.reload()
    expect(page.locator("h1")).to_contain_text(checked.title)
    expect(page.locator(".lesson-header .status")).to_have_text("Done")
    stored = json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))
    assert stored["lessons"][checked.number]["status"] == "done"

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    synced(page)
    account = page.request.get(server.url + "/api/progress/?course=microgpt").json()
    assert account["lessons"][checked.number]["status"] == "done"
    assert account["lessons"][checked.number]["draft"] == checked.exercise.solution

    # A page that needs the server opens by itself once the server answers again.
    go_offline(context, page)
    page.goto(server.url + "/accounts/")
    expect(page.locator("h1")).to_have_text("You are offline")
    # The heading is there before the page's script: wait until it listens for the network.
    expect(page.locator("[data-offline-page][data-listening]")).to_be_attached()
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    # (It asks the server first, then reloads: a page load, slower on a busy machine.)
    expect(page.locator("h1")).to_have_text("Your account", timeout=20_000)


@pytest.fixture
def course_copy_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path / "course"
    shutil.copytree(default_course_path(), folder)
    monkeypatch.setitem(os.environ, "LINEBYLINE_COURSE", str(folder))
    running = Server(tmp_path / "data")
    yield running, folder
    running.stop()


def test_a_new_version_replaces_the_kept_course_and_the_page_offers_reload(
        course_copy_server, page: Page):
    server, folder = course_copy_server
    course = load_course(folder)
    lesson = course.lesson("7.1")
    page.goto(server.url + lesson_path(lesson))
    old = wait_until_kept(page)
    assert len(old) == 1

    # A new deployment: the lesson's lead changes, so does the course version.
    yaml = next(folder.glob(f"lessons/{lesson.number}-*/lesson.yaml"))
    text, changed = re.subn(r"^lead: >-\n  ", "lead: >-\n  A new lead. ", yaml.read_text(encoding="utf-8"),
                            count=1, flags=re.MULTILINE)
    assert changed == 1
    worker = page.request.get(server.url + "/sw.js").text()
    yaml.write_text(text, encoding="utf-8")
    # The page asks for /sw.js on its own every half hour and when back online; here, as soon as
    # the server has seen the change (it looks at the course folder once a second).
    # (The first /sw.js of a new version waits for the course's figures to be computed again.)
    eventually(lambda: page.request.get(server.url + "/sw.js", timeout=KEEP_S * 1000).text()
               != worker, "the server serves a new /sw.js for the changed course",
               timeout_s=KEEP_S)
    page.evaluate("navigator.serviceWorker.getRegistration().then(found => found.update())")
    bar = page.locator("[data-offline-bar][data-state='update']")
    expect(bar).to_contain_text("A new version of the course is ready", timeout=KEEP_S * 1000)
    bar.get_by_role("button", name="Reload").click()
    expect(page.locator("main")).to_contain_text("A new lead.")
    eventually(lambda: len(kept := kept_caches(page)) == 1 and kept != old,
               "the new version's cache replaces the old one", timeout_s=30)

    # The course home turns offline use off (what was kept goes) and on again.
    page.goto(server.url + "/")
    toggle = page.locator("[data-offline-toggle]")
    expect(toggle).to_have_text("Turn offline use off")
    toggle.click()
    expect(page.locator("[data-offline-state]")).to_contain_text("Offline use is off")
    assert page.evaluate("""async () => [(await navigator.serviceWorker.getRegistrations()).length,
        (await caches.keys()).length]""") == [0, 0]
    page.reload()
    expect(toggle).to_have_text("Turn offline use on")  # the choice lasts
    toggle.click()
    eventually(lambda: page.evaluate(
        "async () => (await navigator.serviceWorker.getRegistrations()).length") == 1,
        "offline use is on again: one service worker")
