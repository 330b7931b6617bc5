"""A class of 30 behind one school address, as its teacher sees it on a Monday morning.

A teacher (made with `linebyline teacher add`) and 30 learners, each in a browser context of
their own, all from one address. Three learners use the real pages: one imported work done before
making an account, signs up and joins by the link; one opens hints and answers "Was this lesson
clear?" twice; one checks lesson 1.2 in the browser's Python, wrong then right, with every batch
of events sent twice. The other 27 act through the same endpoints their pages use, with real
sessions: work in lessons 1.1-2.3 (failures, some that only follow an earlier failing check,
hints, code-along, solutions, passes), progress from before joining, a batch sent twice, repeated
answers. Every figure on the grid, the class's lesson pages and the CSV files is then compared
with what the learners did, and no learner's event or answer was refused.
"""
from __future__ import annotations

import csv
import io
import json
import os
import random
import statistics
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .classroom import Seat, make_sessions, sessions, sign_in_with, signed_in_context, unique
from .conftest import next_frames
from .test_accounts_browser import sign_up
from .test_sync_browser import synced, type_draft

pytestmark = pytest.mark.browser
LESSONS = ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "2.1", "2.2", "2.3"]
STUCK_AFTER = 3  # a class's default


@dataclass
class Work:
    """What one learner did in one lesson, in this order: start, a check of the untouched starter
    (maybe), failing runs (each named by its first failing check), hints, code-along, solution, a
    passing run (maybe)."""

    lesson: str
    fails: list[int]
    hints: int = 0
    codealong: bool = False
    solution: bool = False
    passed: bool = True
    starter_check: bool = False

    @property
    def stuck(self) -> bool:
        if self.passed or len(self.fails) < STUCK_AFTER:
            return False
        last = self.fails[-1]
        return all(check == last for check in self.fails[-STUCK_AFTER:])

    @property
    def state(self) -> str:
        return "solution" if self.solution else "done" if self.passed else "trying"

    @property
    def words(self) -> str:
        if self.solution:
            return "done with the solution" if self.passed else "saw the solution"
        return "done" if self.passed else "trying"

    @property
    def runs(self) -> int:
        return len(self.fails) + self.passed


@dataclass
class Learner:
    name: str
    before: dict[str, int] = field(default_factory=dict)  # done before joining: lesson -> hints
    work: dict[str, Work] = field(default_factory=dict)
    feedback: dict[str, list[bool]] = field(default_factory=dict)
    events: int = 0  # stored, counted as they are sent

    def done(self, lesson: str) -> bool:
        return self.work[lesson].passed if lesson in self.work else lesson in self.before

    def hints(self, lesson: str) -> int:
        return max(self.work[lesson].hints if lesson in self.work else 0, self.before.get(lesson, 0))

    def cell(self, lesson: str) -> tuple[str, str, int] | None:
        """(state, words, runs) as the grid should show it, or None: not started."""
        if lesson in self.work:
            work = self.work[lesson]
            return work.state, work.words, work.runs
        if lesson in self.before:
            return "done", "done before joining", 0
        return None


def plan(names: list[str], rng: random.Random, checks: dict[str, int],
         hints: dict[str, int]) -> list[Learner]:
    learners = []
    for name in names:
        learner = Learner(name)
        before = rng.choice([0, 0, 0, 1, 2])
        for lesson in LESSONS[:before]:
            learner.before[lesson] = rng.choice([0, 1])
        reach = rng.randint(before + 1, len(LESSONS))
        for index, lesson in enumerate(LESSONS[before:reach]):
            last = index == reach - before - 1
            fails = [rng.randrange(checks[lesson]) for _ in range(rng.choice([0, 0, 1, 2, 3]))]
            if last and rng.random() < 0.3:
                fails += [rng.randrange(checks[lesson])] * STUCK_AFTER  # stuck on one check
            learner.work[lesson] = Work(
                lesson, fails, hints=rng.choice([0, 0, 1, min(2, hints[lesson])]),
                codealong=rng.random() < 0.1, solution=rng.random() < 0.15,
                passed=not (last and rng.random() < 0.5), starter_check=rng.random() < 0.2)
        for lesson in rng.sample(sorted(learner.work), k=min(2, len(learner.work))):
            learner.feedback[lesson] = [rng.random() < 0.6 for _ in range(rng.randint(1, 3))]
        learners.append(learner)
    return learners


class Clock:
    """Milliseconds on a learner's browser clock: each event a little after the one before."""

    def __init__(self) -> None:
        self.now = int(time.time() * 1000) - 3_600_000

    def tick(self) -> int:
        self.now += 1000
        return self.now


def check_event(lesson: str, names: tuple[str, ...], failing: int | None, starter: bool = False) -> dict:
    """A checked run as the page sends it: with `failing`, that check fails first, and the next
    one fails after it ("fix the check above first"), as often happens."""
    if starter:
        untouched = [{"name": n, "status": "not-attempted", "message": "Not attempted yet."} for n in names]
        return {"lesson": lesson, "kind": "check", "status": "not-attempted", "code": "# starter",
                "checks": untouched}
    checks = []
    for index, name in enumerate(names):
        if failing is None or index < failing:
            checks.append({"name": name, "status": "pass", "message": ""})
        elif index == failing:
            message = f"{name}: not yet (run {uuid.uuid4().hex[:4]})"
            checks.append({"name": name, "status": "fail", "message": message})
        elif index == failing + 1:
            message = "This builds on the check above: fix the check above first."
            checks.append({"name": name, "status": "fail", "message": message})
        else:
            checks.append({"name": name, "status": "pass", "message": ""})
    what = "passing" if failing is None else f"failing at {failing}"
    return {"lesson": lesson, "kind": "check", "status": "pass" if failing is None else "fail",
            "checks": checks, "code": f"# {lesson}, {what}\n"}


def events_of(learner: Learner, names: dict[str, tuple[str, ...]], clock: Clock) -> list[dict]:
    found = []
    for work in learner.work.values():
        items = [{"lesson": work.lesson, "kind": "start"}]
        if work.starter_check:
            items.append(check_event(work.lesson, names[work.lesson], None, starter=True))
        items += [check_event(work.lesson, names[work.lesson], failing) for failing in work.fails]
        items += [{"lesson": work.lesson, "kind": "hint", "hint": n} for n in range(1, work.hints + 1)]
        if work.codealong:
            items.append({"lesson": work.lesson, "kind": "codealong"})
        if work.solution:
            items.append({"lesson": work.lesson, "kind": "solution"})
        if work.passed:
            items.append(check_event(work.lesson, names[work.lesson], None))
        found += [{"id": uuid.uuid4().hex, "at": clock.tick(), **item} for item in items]
    return found


def act_through_the_endpoints(seat: Seat, learner: Learner, code: str, names, duplicate: bool) -> None:
    clock = Clock()
    if learner.before:
        long_ago = clock.now - 5 * 86_400_000
        seat.progress({lesson: {"status": "done", "doneAt": long_ago, "hintsShown": hints}
                       for lesson, hints in learner.before.items()})
    seat.join(code)
    events = events_of(learner, names, clock)
    for start in range(0, len(events), 25):
        batch = events[start:start + 25]
        said = seat.send_events(batch, clock.now + 500)
        assert said == {"saved": len(batch), "already_saved": 0}
        if duplicate and start == 0:  # the answer was lost, say: the page sends it again
            assert seat.send_events(batch, clock.now + 900) == {"saved": 0, "already_saved": len(batch)}
    learner.events = len(events)
    for lesson, answers in learner.feedback.items():
        for clear in answers:
            said = "clear" if clear else "not clear"
            seat.answer(lesson, clear, comment=f"{learner.name} on {lesson}: {said}")


def expected_rows(learners: list[Learner]) -> dict[str, list[str]]:
    """Per lesson, the module table's row: started, done, median, hints, code-along, solution, clear."""
    rows = {}
    for lesson in LESSONS:
        cells = [(learner, learner.cell(lesson)) for learner in learners if learner.cell(lesson)]
        works = [learner.work[lesson] for learner, _ in cells if lesson in learner.work]
        to_pass = [work.runs for work in works if work.passed]
        hinted = sum(learner.hints(lesson) > 0 for learner, _ in cells)
        latest = [learner.feedback[lesson][-1] for learner in learners if lesson in learner.feedback]
        yes, no = latest.count(True), latest.count(False)
        median = statistics.median(to_pass) if to_pass else None
        rows[lesson] = [str(len(cells)), str(sum(learner.done(lesson) for learner, _ in cells)),
                        "–" if median is None else f"{median:g}", str(hinted),
                        str(sum(work.codealong for work in works)), str(sum(work.solution for work in works)),
                        f"{yes} / {no}" + (f" ({round(100 * yes / (yes + no))}% yes)" if yes + no else "")]
    return rows


def all_sent(page: Page) -> None:
    """Wait until the page has sent every event it recorded (and the server said it has them)."""
    page.wait_for_function(
        "() => !(localStorage.getItem('linebyline-events:microgpt') || '').includes('kind')", timeout=20_000)


GRID = """() => Object.fromEntries([...document.querySelectorAll('[data-grid] tbody tr')].map(row => [
    row.dataset.learner, {
        done: row.querySelector('[data-done]').textContent.trim(),
        cells: Object.fromEntries([...row.querySelectorAll('[data-cell]')].map(cell => [cell.dataset.cell, [
            cell.dataset.state, cell.querySelector('.visually-hidden').textContent.trim()]]))}]))"""
ROWS = """() => Object.fromEntries([...document.querySelectorAll('tr[data-lesson-row]')].map(row => [
    row.dataset.lessonRow, [...row.querySelectorAll('td')].map(td => td.textContent.trim())]))"""


def shown_cell(cell: tuple[str, str, int] | None, stuck: bool) -> list[str]:
    if cell is None:
        return ["not-started", "not started"]
    state, words, runs = cell
    text = words + (f", {runs} run{'s' if runs != 1 else ''}" if runs else "") + (", stuck" if stuck else "")
    return [state, text]


class Room:
    """The browsers of the test, closed at its end; and the refusals any of their pages saw."""

    def __init__(self, browser: Browser) -> None:
        self.browser, self.contexts, self.refused = browser, [], []

    def add(self, context) -> None:
        self.contexts.append(context)

    def page(self, timeout: float = 20_000) -> Page:
        context = self.browser.new_context(viewport={"width": 1200, "height": 900})
        self.add(context)
        page = context.new_page()
        page.set_default_timeout(timeout)
        page.on("response", lambda r: self.refused.append((r.url, r.status))
                if ("/events/" in r.url or "/feedback/" in r.url) and r.status >= 400 else None)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def import_earlier_work(page: Page, server) -> None:
    """What a learner did before making an account, brought in with the course home's Import."""
    page.goto(server.url + "/")
    long_ago = int(time.time() * 1000) - 3 * 86_400_000
    document = {"format": "linebyline-progress", "version": 2, "course": "microgpt", "lessons": {
        "1.1": {"status": "done", "doneAt": long_ago, "hintsShown": 2},
        "1.2": {"status": "done", "doneAt": long_ago + 60_000, "hintsShown": 0}}}
    page.locator("[data-progress-import]").set_input_files(files=[{
        "name": "progress.json", "mimeType": "application/json", "buffer": json.dumps(document).encode()}])
    expect(page.locator('[data-status-of="1.2"]').first).to_have_attribute("data-status", "done")


def join_by_link(page: Page, join_link: str) -> None:
    page.goto(join_link)
    page.get_by_role("button", name="Join Year 10 · Monday").click()
    expect(page.locator(".messages")).to_contain_text("You have joined")


def hints_and_two_answers(page: Page, server, code: str) -> None:
    # This learner needs no Python: the page's Python is kept from loading, to spare the machine.
    page.route("**/static/pyodide/**", lambda route: route.abort())
    page.goto(server.url + "/accounts/")
    page.get_by_label("Join code").fill(code)
    page.get_by_role("button", name="Join", exact=True).click()
    page.goto(server.url + "/lessons/1.3-documents-and-shuffling/")
    page.click('[data-action="hint"]')
    page.click('[data-action="hint"]')
    for clear, comment in (("no", "the shuffle lost me"), ("yes", "got it after hint 2")):
        page.locator(f"form[data-feedback] input[value={clear}]").check()
        page.locator("form[data-feedback] textarea").fill(comment)
        with page.expect_response(lambda r: "/feedback/" in r.url) as answer:
            page.locator("form[data-feedback] button[type=submit]").click()
        assert answer.value.status == 201
    all_sent(page)


def send_every_batch_twice(page: Page) -> list[dict]:
    """Every batch of events the page sends reaches the server twice; the answers to the copies."""
    copies = []

    def twice(route) -> None:
        route.fetch()
        again = route.fetch()
        copies.append(again.json())
        route.fulfill(response=again)

    page.route("**/events/", twice)
    return copies


def check_wrong_then_right(page: Page, solution: str) -> str:
    """Lesson 1.2 in the browser's Python: a wrong seed, then the solution; the first check that
    failed, as the learner saw it."""
    page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=90_000)
    type_draft(page, solution.replace("random.seed(42)", "random.seed(7)"))
    page.click('[data-action="check"]')
    expect(page.locator("[data-checks-summary]")).to_have_attribute("data-status", "fail", timeout=30_000)
    first = page.locator('.check[data-check-status="fail"] summary').first.evaluate(
        "s => s.lastChild.textContent.trim()")
    type_draft(page, solution)
    page.click('[data-action="check"]')
    expect(page.locator("[data-checks-summary]")).to_have_attribute("data-status", "pass", timeout=30_000)
    all_sent(page)
    return first


def assert_the_class_page(desk: Page, everyone: list[Learner]) -> None:
    expect(desk.locator("[data-learner-count]")).to_have_text("30 learners")
    grid = desk.evaluate(GRID)
    assert set(grid) == {learner.name for learner in everyone}
    for learner in everyone:
        stuck = {lesson for lesson, work in learner.work.items() if work.stuck}
        shown = {lesson: shown_cell(learner.cell(lesson), lesson in stuck) for lesson in LESSONS}
        assert {n: grid[learner.name]["cells"][n] for n in LESSONS} == shown, learner
        assert grid[learner.name]["done"] == str(sum(learner.done(n) for n in LESSONS)), learner.name
    stuck_list = desk.locator("[data-stuck-list] li").evaluate_all("items => items.map(i => i.dataset.stuck)")
    assert sorted(stuck_list) == sorted(f"{learner.name} {lesson}" for learner in everyone
                                        for lesson, work in learner.work.items() if work.stuck)
    rows = desk.evaluate(ROWS)
    assert {n: rows[n] for n in LESSONS} == expected_rows(everyone)


CHECKS_TABLE = """() => Object.fromEntries([...document.querySelectorAll('tr[data-check]')].map(row => [
    row.dataset.check, [row.querySelector('[data-runs-failed]').textContent.trim(),
                        row.querySelector('[data-learners]').textContent.trim()]]))"""


def assert_a_lesson_page(desk: Page, url: str, lesson: str, everyone: list[Learner], names) -> None:
    """Which check fails first, and for whom; help; feedback counted once per learner."""
    desk.goto(url)
    expect(desk.locator("h1")).to_contain_text(lesson)
    table = desk.evaluate(CHECKS_TABLE)
    for index, _ in enumerate(names[lesson]):
        who = [learner.name for learner in everyone if lesson in learner.work
               for check in learner.work[lesson].fails if check == index]
        assert table[str(index + 1)] == [str(len(who)), ", ".join(sorted(set(who)))], (lesson, index)
    latest = [answers[-1] for learner in everyone for n, answers in learner.feedback.items() if n == lesson]
    expect(desk.locator("[data-feedback-totals]")).to_contain_text(
        f"{latest.count(True)} yes, {latest.count(False)} no")
    hinted = sum(learner.hints(lesson) >= 1 for learner in everyone)
    learners = "learner" if hinted == 1 else "learners"
    expect(desk.locator("[data-hint='1']")).to_have_text(f"Hint 1: {hinted} {learners}")


def downloaded_csv(desk: Page, link: str) -> list[dict]:
    with desk.expect_download() as download:
        desk.locator(link).click()
    with open(download.value.path(), encoding="utf-8-sig") as handle:
        return list(csv.DictReader(io.StringIO(handle.read())))


def assert_the_csv_files(desk: Page, everyone: list[Learner]) -> None:
    grid = downloaded_csv(desk, "[data-grid-csv]")
    assert {line["learner"] for line in grid} == {learner.name for learner in everyone}
    for line in grid:
        learner = next(each for each in everyone if each.name == line["learner"])
        for lesson in LESSONS:
            cell = learner.cell(lesson)
            assert line[lesson].split(";")[0] == (cell[1] if cell else "not started"), (learner.name, lesson)
    attempts = Counter(line["learner"] for line in downloaded_csv(desk, "[data-attempts-csv]"))
    for learner in everyone:
        assert attempts[learner.name] == learner.events, learner.name  # a batch sent twice: once


def screenshots(desk: Page, class_url: str, folder: Path, stuck: str) -> None:
    """The teacher's pages as a teacher sees them, at a desk and on a phone, light and dark (for
    a person to look at: LINEBYLINE_SCREENSHOTS=FOLDER)."""
    folder.mkdir(parents=True, exist_ok=True)
    desk.goto(class_url)
    pages = {"class": class_url, "lesson": desk.locator('tr[data-lesson-row="1.5"] a').get_attribute("href"),
             "learner": desk.locator(f'[data-learner="{stuck}"] th a').get_attribute("href"),
             "settings": desk.get_by_role("link", name="Class settings").get_attribute("href"),
             "home": "/teach/", "account": "/accounts/"}
    for width, height, size in ((1280, 900, "desk"), (390, 844, "phone")):
        desk.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            desk.emulate_media(color_scheme=scheme)
            for name, url in pages.items():
                desk.goto(url if url.startswith("http") else class_url.split("/teach/")[0] + url)
                next_frames(desk)  # the charts draw
                tall = desk.evaluate("document.documentElement.scrollHeight")
                for part, top in enumerate(range(0, tall, 2 * height)):  # pieces a person can read
                    clip = {"x": 0, "y": top, "width": width, "height": min(2 * height, tall - top)}
                    desk.screenshot(path=str(folder / f"{name}-{size}-{scheme}-{part}.png"), full_page=True,
                                    clip=clip)
    desk.set_viewport_size({"width": 1280, "height": 900})
    desk.emulate_media(color_scheme="light")


def test_a_class_of_30_behind_one_address_is_counted_right(server, browser: Browser, course):
    started = time.monotonic()  # printed at the end (-s): a figure, never a gate
    names = {n: course.lesson(n).exercise.check_names for n in LESSONS}
    tag = uuid.uuid4().hex[:4]
    learners = plan([f"l{index:02d}-{tag}" for index in range(27)], random.Random(22),
                    {n: len(c) for n, c in names.items()},
                    {n: len(course.lesson(n).exercise.hints) for n in LESSONS})
    teacher = unique("teacher")
    room = Room(browser)
    try:
        # The accounts are made on the server while a learner imports earlier work and signs up.
        early, asker, coder = (Learner(unique(who)) for who in ("early", "asker", "coder"))
        made = make_sessions(server, [f"teacher:{teacher}", asker.name, coder.name]
                             + [learner.name for learner in learners])
        early.before = {"1.1": 2, "1.2": 0}
        asker.work = {"1.3": Work("1.3", [], hints=2, passed=False)}
        asker.feedback = {"1.3": [False, True]}
        asker.events, early.events = 2, 0
        seats = {who.name: room.page(timeout=30_000) for who in (early, asker, coder)}
        import_earlier_work(seats[early.name], server)
        sign_up(seats[early.name], server, early.name)
        keys = sessions(made)
        for who in (asker, coder):
            sign_in_with(seats[who.name].context, server, keys[who.name][0])

        desk = room.page()
        desk.context.add_cookies([{"name": "sessionid", "value": keys[teacher][0], "url": server.url}])
        desk.goto(server.url + "/")
        desk.get_by_role("link", name="Teach", exact=True).click()
        desk.get_by_label("Class name").fill("Year 10 · Monday")
        desk.get_by_role("button", name="Create the class").click()
        code = desk.locator("[data-join-code]").inner_text()
        join_link = desk.locator("a.join-link").get_attribute("href")
        class_url = desk.url

        # The coder's lesson starts its Python, which loads while the others work.
        copies = send_every_batch_twice(seats[coder.name])
        join_by_link(seats[coder.name], join_link)
        seats[coder.name].goto(server.url + "/lessons/1.2-imports-and-the-seed/")

        for index, learner in enumerate(learners):
            session, account = keys[learner.name]
            context = signed_in_context(browser, server, session)
            room.add(context)
            act_through_the_endpoints(Seat(context, server, account), learner, code, names,
                                      duplicate=index == 0)
        synced(seats[early.name])
        join_by_link(seats[early.name], join_link)
        hints_and_two_answers(seats[asker.name], server, code)
        first = check_wrong_then_right(seats[coder.name], course.lesson("1.2").exercise.solution)
        assert copies and all(answer["saved"] == 0 for answer in copies)  # the copies were not stored
        coder.work["1.2"] = Work("1.2", [names["1.2"].index(first)])
        coder.events = 3  # the start (their first edit), the failing run, the passing run
        everyone = learners + [early, asker, coder]
        assert len(everyone) == 30 and room.refused == []

        # The teacher's Monday morning.
        desk.goto(class_url)
        assert_the_class_page(desk, everyone)
        assert_the_csv_files(desk, everyone)
        links = {lesson: desk.locator(f'tr[data-lesson-row="{lesson}"] a').get_attribute("href")
                 for lesson in ("1.2", "1.3")}
        for lesson, link in links.items():  # a lesson's page, as the table links it
            assert_a_lesson_page(desk, server.url + link, lesson, everyone, names)
        if os.environ.get("LINEBYLINE_SCREENSHOTS"):
            stuck = next(learner for learner in learners if any(w.stuck for w in learner.work.values()))
            screenshots(desk, class_url, Path(os.environ["LINEBYLINE_SCREENSHOTS"]), stuck.name)
    finally:
        room.close()
    print(f"the class of 30: {time.monotonic() - started:.1f} s")
