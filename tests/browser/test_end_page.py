"""The course's end page: a learner whose imported progress passes every published lesson sees
their microgpt.py, whole, their figures as the progress file and the course give them, and the
reference run's curve and names; the last published lesson leads there."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from linebyline.authoring.lesson_standard import learner_lines
from linebyline.course import default_course_path

from ..conftest import the_course
from .test_my_microgpt import bring_progress, done, solution

pytestmark = pytest.mark.browser
COURSE = the_course()
LESSONS = list(COURSE.lessons())


def expected_figures(numbers: list[str]) -> dict[str, int]:
    """What the page must say for a learner who finished `numbers`, worked out from the course."""
    finished = [lesson for lesson in LESSONS if lesson.number in numbers]
    countable = COURSE.countable_lines()
    lines = set().union(*(lesson.unlocked_lines() & countable for lesson in finished))
    return {"lessons": len(finished), "lines": len(lines),
            "written": sum(len(learner_lines(lesson)) for lesson in finished),
            "checks": sum(len(lesson.exercise.check_names) for lesson in finished)}


def figure(page: Page, name: str) -> int:
    return int(page.locator(f"[data-figure='{name}']").inner_text().replace(",", ""))


def test_every_lesson_passed_shows_the_learners_whole_program_and_figures(
        server, page: Page, tmp_path: Path):
    progress = {lesson.number: done(solution(lesson.number)) for lesson in LESSONS}
    bring_progress(page, server, tmp_path, progress)

    # The last published lesson's "next" is the end page.
    page.goto(server.url + "/")
    page.locator(f"a[href*='/{LESSONS[-1].number}-']").first.click()
    page.locator("[data-course-end]").click()
    expect(page.locator("[data-end-file-status]")).to_contain_text("All of it is yours", timeout=60_000)

    want = expected_figures(list(progress))
    for name, value in want.items():
        assert figure(page, name) == value, name
    assert want["lessons"] == len(LESSONS) and want["checks"] > 0
    expect(page.locator("[data-end-reference]")).to_be_hidden()
    expect(page.locator("[data-download]")).to_have_text(f"Download my_{COURSE.program_name}")

    # No run of theirs in this fresh browser: the reference run's curve and its names.
    run = json.loads((default_course_path() / "runs" / "microgpt.json").read_text())
    expect(page.locator("[data-end-run]")).to_contain_text("You have not trained your")
    expect(page.locator("[data-chart-label]")).to_contain_text(f"{len(run['losses'])} steps")
    names = page.locator("[data-end-names] li")
    expect(names).to_have_count(len(run["samples"]))
    assert names.all_inner_texts() == [name or "(an empty name)" for name in run["samples"]]

    # The home page says the course is complete once every planned lesson is published.
    page.goto(server.url + "/")
    complete = all(len(module.lessons) >= len(module.planned) for module in COURSE.modules)
    expect(page.locator("[data-course-complete]")).to_be_visible() if complete else \
        expect(page.locator("[data-course-complete]")).to_be_hidden()


@pytest.mark.no_python
def test_half_done_names_the_lessons_that_still_give_the_reference(server, page: Page, tmp_path: Path):
    first_half = [lesson.number for lesson in LESSONS[: len(LESSONS) // 2]]
    bring_progress(page, server, tmp_path, {n: done(solution(n)) for n in first_half})
    page.goto(server.url + "/the-end/")
    expect(page.locator("[data-end-file-status]")).to_contain_text("The rest is still the reference",
                                                                   timeout=60_000)
    for name, value in expected_figures(first_half).items():
        assert figure(page, name) == value, name
    expect(page.locator("[data-end-title]")).to_have_text("What you have built so far")
    expect(page.locator("[data-end-next]")).to_contain_text(
        f"{len(LESSONS) - len(first_half)} lessons still to do")
    still = page.locator("[data-end-reference] li a")
    assert still.count() > 0
    assert all(text.split(" ")[0] not in first_half for text in still.all_inner_texts())
    numbers = [tuple(map(int, text.split(" ")[0].split("."))) for text in still.all_inner_texts()]
    assert numbers == sorted(numbers)  # in course order, not the order of the file's regions


def test_offline_the_page_assembles_the_learners_program_in_the_browser(
        server, page: Page, tmp_path: Path):
    # The server cannot be reached for the assembly (as offline, where the service worker keeps
    # the page, Pyodide and the course's assembler, but cannot answer a POST): the page's own
    # Python assembles the same file from the learner's passing code.
    first_half = [lesson.number for lesson in LESSONS[: len(LESSONS) // 2]]
    bring_progress(page, server, tmp_path, {n: done(solution(n)) for n in first_half})
    page.goto(server.url + "/the-end/")
    expect(page.locator("[data-end-file-status]")).to_contain_text("The rest is still the reference",
                                                                   timeout=60_000)
    online_file = page.locator("[data-mine-file]").inner_text()
    page.route("**/my-microgpt/assemble", lambda route: route.abort("internetdisconnected"))
    page.reload()
    status = page.locator("[data-end-file-status]")
    expect(status).to_contain_text("Assembled in this browser: you are offline", timeout=120_000)
    expect(status).to_contain_text("The rest is still the reference")
    assert page.locator("[data-mine-file]").inner_text() == online_file
