"""At a phone's width (390 px) nothing a lesson shows is out of reach: a table's columns, a
widget's numbers, the rows under the offline bar (issue 29)."""
from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from ..conftest import the_course
from .conftest import service_workers

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
COURSE = the_course()
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Browser, request: pytest.FixtureRequest):
    context = browser.new_context(viewport=PHONE, service_workers=service_workers(request))
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def path(number: str) -> str:
    lesson = COURSE.lesson(number)
    return f"/lessons/{lesson.number}-{lesson.slug}/"


def test_a_watch_table_fits_or_scrolls_by_keyboard(server, phone: Page):
    # 12.3's comparison fits a phone; a wider table (code in its cells) scrolls sideways, and
    # takes focus so that it scrolls by keyboard too.
    lessons = [lesson for lesson in COURSE.lessons() if "|---" in lesson.watch]
    assert any(lesson.number == "12.3" for lesson in lessons)
    # Only the layout matters here: no Python is started on the 28 pages (CI has two cores).
    phone.route("**/dist/worker.js", lambda route: route.abort())
    for lesson in lessons:
        phone.goto(server.url + path(lesson.number))
        tables = phone.evaluate("""() => [...document.querySelectorAll('.prose table')].map(t => ({
            wide: t.scrollWidth > t.clientWidth + 1, scrolls: getComputedStyle(t).overflowX === 'auto',
            focusable: t.tabIndex === 0, head: t.rows[0].textContent.trim().slice(0, 40)}))""")
        assert tables, lesson.number
        for table in tables:
            assert not table["wide"] or (table["scrolls"] and table["focusable"]), (lesson.number, table)
            if lesson.number == "12.3":
                assert not table["wide"], f"12.3's table hides columns at 390 px: {table}"


def test_10_4s_numbers_all_stand_on_the_screen(server, phone: Page):
    phone.goto(server.url + path("10.4"))
    cells = phone.locator(".bc-table td")
    expect(cells.first).to_be_visible()
    outside = phone.evaluate("""() => [...document.querySelectorAll('.bc-table td')]
        .filter(td => td.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map(td => td.dataset.col)""")
    assert outside == []
    # Each number says what it is, as the column headings do on a wide screen.
    labels = phone.evaluate("""() => [...document.querySelectorAll('.bc-table td')]
        .map(td => getComputedStyle(td, '::before').content)""")
    assert all(label not in ("none", '""') for label in labels)


@pytest.mark.service_worker
def test_the_offline_bar_leaves_room_for_the_end_of_the_page(server, phone: Page):
    phone.goto(server.url + "/")
    bar = phone.locator("[data-offline-bar]")
    expect(bar).to_be_visible(timeout=120_000)  # the first visit downloads the course
    room = phone.evaluate("parseFloat(getComputedStyle(document.body).paddingBottom)")
    assert room >= bar.bounding_box()["height"]
