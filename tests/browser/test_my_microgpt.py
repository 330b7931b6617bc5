"""The My microgpt page: a learner's own train2.py, assembled from their passing lessons (brought
in through the course home's import), trained here beside the reference, and downloaded.

Each learner is a fresh browser context, so the reference run is not kept from one to the next:
each test trains both sides, 20 steps, in real Pyodide.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import apply_edits, default_course_path
from linebyline.course.dataset import names_file

from ..conftest import the_course
from .conftest import wait_for_python

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
LESSONS = default_course_path() / "lessons"
TRAIN_S = 240  # two Pyodide workers start, then 20 steps each, on a busy machine


def solution(number: str) -> str:
    return next(LESSONS.glob(f"{number}-*")).joinpath("solution.py").read_text(encoding="utf-8")


def done(draft: str, passed: str | None = None) -> dict:
    """A lesson done: its code that passed (`passed`, else the draft) kept apart from the draft."""
    return {"status": "done", "quiz": {}, "hintsShown": 0, "checks": {"passed": 4, "total": 4},
            "draft": draft, "passedCode": passed or draft, "passedAt": 1}


def done_before(draft: str) -> dict:
    """A lesson done in progress saved before the code that passed was kept apart (version 1)."""
    return {"status": "done", "quiz": {}, "hintsShown": 0, "checks": {"passed": 4, "total": 4},
            "draft": draft}


def bring_progress(page: Page, server, tmp_path: Path, lessons: dict) -> None:
    """The learner's progress from another browser, through the course home's import button."""
    path = tmp_path / "progress.json"
    version = 2 if any("passedCode" in lesson for lesson in lessons.values()) else 1
    path.write_text(json.dumps({"format": "linebyline-progress", "version": version,
                                "course": "microgpt", "lessons": lessons}))
    page.goto(server.url + "/")
    page.set_input_files("[data-progress-import]", path)
    expect(page.locator("[data-progress-message]")).to_contain_text("Imported progress for")


def open_train2(page: Page, server) -> None:
    page.goto(server.url + "/my-microgpt/")
    page.select_option("[data-script-choice]", "train2.py")
    # Older progress is checked again first, in a Python of its own: that may take a while.
    expect(page.locator("[data-mine-status]")).to_contain_text("regions of train2.py are yours",
                                                               timeout=180_000)


def region(page: Page, lesson: str):
    return page.locator(f'[data-mine-file] [data-lesson="{lesson}"]')


def train(page: Page, steps: int = 20) -> None:
    wait_for_python(page)
    page.fill("[data-steps]", str(steps))
    page.click("[data-action='train']")
    expect(page.locator("[data-readout='progress']")).to_contain_text(
        f"Done: {steps} steps", timeout=TRAIN_S * 1000)


MODULE_7 = [f"7.{i}" for i in range(1, 8)]
# One other correct spelling per lesson of module 7 (7.5's sorts the graph another way).
OTHER_SPELLINGS = {"7.1": "alt_log_of_inverse.py", "7.2": "alt_bare_tuple.py",
                   "7.3": "alt_max_by_key.py", "7.4": "alt_math_pow.py", "7.5": "alt_users.py",
                   "7.6": "alt_loops.py", "7.7": "alt_map.py"}


def test_my_own_train2_matches_the_reference_samples_and_runs_with_python(
        server, page: Page, tmp_path: Path):
    """Every lesson of module 7 passed: all their regions of train2 are the learner's."""
    bring_progress(page, server, tmp_path, {number: done(solution(number)) for number in MODULE_7})
    open_train2(page, server)
    for lesson in MODULE_7:
        assert region(page, lesson).count() > 0
        for part in region(page, lesson).all():
            expect(part).to_have_attribute("data-origin", "yours")

    train(page)
    verdict = page.locator("[data-readout='verdict']")
    expect(verdict).to_contain_text("Matches the reference at every step", timeout=TRAIN_S * 1000)
    expect(verdict).to_contain_text("for all 20 steps")
    names = page.locator("[data-readout='names'] li")
    expect(names).to_have_count(20)

    with page.expect_download() as event:
        page.click("[data-download]")
    download = event.value
    assert download.suggested_filename.endswith(".py")
    folder = tmp_path / "run"
    folder.mkdir()
    script = folder / download.suggested_filename
    download.save_as(script)
    shutil.copy(names_file(), folder / "input.txt")  # what the page trained on
    # The file as downloaded, but for 20 steps (1000 take minutes on a busy machine): plain
    # python must print the very names the page sampled after its 20 steps.
    text = script.read_text(encoding="utf-8")
    assert text.count("num_steps = 1000\n") == 1
    script.write_text(text.replace("num_steps = 1000\n", "num_steps = 20\n"), encoding="utf-8")
    ran = subprocess.run([sys.executable, script.name], cwd=folder, capture_output=True,
                         text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    printed = ran.stdout.splitlines()
    assert printed[0].startswith("documents: ")
    assert any(line.startswith("step   20 / 20 | loss ") for line in printed), printed
    sampled = [line.split(": ", 1)[1] for line in printed if line.startswith("sample")]
    assert [name or "(an empty name)" for name in sampled] == names.all_inner_texts()


def test_another_correct_sort_is_told_its_curve_differs_only_by_rounding(
        server, page: Page, tmp_path: Path):
    """Module 7 done with other spellings of the learner's own: all placed, and the run is told
    apart from the reference only by rounding (7.5's other sort adds in another order). 7.5 comes
    from progress saved before the code that passed was kept apart: its draft is checked again."""
    others = {number: done((ROOT / "tests" / "lessons" / number / name).read_text(encoding="utf-8"))
              for number, name in OTHER_SPELLINGS.items()}
    others["7.5"] = done_before(others["7.5"]["draft"])
    bring_progress(page, server, tmp_path, others)
    open_train2(page, server)
    for lesson in MODULE_7:
        assert region(page, lesson).count() > 0
        for part in region(page, lesson).all():
            expect(part).to_have_attribute("data-origin", "yours")
    train(page)
    verdict = page.locator("[data-readout='verdict']")
    expect(verdict).to_have_attribute("data-kind", "rounding", timeout=TRAIN_S * 1000)
    expect(verdict).to_contain_text("adds the same numbers in another order")
    expect(verdict).to_contain_text("significant digits")
    expect(verdict).to_contain_text("That is rounding, not a bug.")


def edited(number: str, mistake: str) -> str:
    """The lesson's solution with one of its known mistakes in it (its checks fail)."""
    found = next(m for m in the_course().lesson(number).exercise.mistakes
                 if m.name == mistake)
    return apply_edits(solution(number), found.edits)


def test_failing_code_is_never_yours_even_when_the_lesson_is_done(
        server, page: Page, tmp_path: Path):
    """7.5 passed, then its draft was edited into a mistake: its code that passed is used. 7.4
    is done in an older file whose draft fails its checks: checked again here, it is not used."""
    failing_75 = edited("7.5", "= instead of +=")
    failing_74 = edited("7.4", "a Value stored as mul's local grads")
    bring_progress(page, server, tmp_path, {
        "7.4": done_before(failing_74), "7.5": done(failing_75, passed=solution("7.5"))})
    open_train2(page, server)
    expect(page.locator("[data-mine-file]")).to_contain_text("child.grad += local_grad * node.grad")
    for part in region(page, "7.5").all():
        expect(part).to_have_attribute("data-origin", "yours")
        expect(part.locator(".mine-label")).to_contain_text("Yours · from your Build in lesson 7.5")
        expect(part).not_to_contain_text("child.grad = ")
    assert region(page, "7.4").count() > 0
    for part in region(page, "7.4").all():
        expect(part).to_have_attribute("data-origin", "reference")
        expect(part.locator(".mine-label")).to_contain_text(
            "done, but the code saved with it does not pass its checks now")
    expect(page.locator("[data-mine-file]")).not_to_contain_text("(other, self)")


def test_without_a_passing_backward_the_reference_is_used_for_it_and_marked_and_microgpt_trains(
        server, page: Page, tmp_path: Path):
    """The reference's backward sorts the graph recursively: a full microgpt step (block size
    16) must train in the page's training worker without hitting its recursion limit. The
    backward's chain-rule line belongs to the lesson that teaches it first; that lesson is
    not passed yet, so the reference gives it."""
    course = the_course()
    owner = next(lesson for lesson in course.lessons()
                 if 77 in lesson.unlocked_lines())  # child.grad += local_grad * node.grad
    half = (ROOT / "tests" / "lessons" / "7.5" / "half_done.py").read_text(encoding="utf-8")
    bring_progress(page, server, tmp_path, {
        "7.4": done(solution("7.4")),
        owner.number: {"status": "in-progress", "quiz": {}, "hintsShown": 0, "draft": half}})
    open_train2(page, server)
    assert region(page, owner.number).count() > 0
    for part in region(page, owner.number).all():
        expect(part).to_have_attribute("data-origin", "reference")
        expect(part.locator(".mine-origin")).to_have_text("Reference")
        expect(part.locator(".mine-label a")).to_have_attribute(
            "href", f"/lessons/{owner.number}-{owner.slug}/")
        expect(part.locator(".mine-label")).to_contain_text(
            f"Reference · in place of your Build in lesson {owner.number}")
        expect(part.locator(".mine-label")).to_contain_text("its checks have not all passed yet")
    expect(region(page, "7.4").first).to_have_attribute("data-origin", "yours")

    page.select_option("[data-script-choice]", "microgpt.py")
    expect(page.locator("[data-mine-status]")).to_contain_text("regions of microgpt.py are yours")
    train(page, steps=2)
    expect(page.locator("[data-readout='error']")).to_be_hidden()
    expect(page.locator("[data-readout='verdict']")).to_contain_text(
        "Matches the reference at every step", timeout=TRAIN_S * 1000)


def lesson_key(number: str) -> tuple[int, int]:
    module, lesson = number.split(".")
    return int(module), int(lesson)


def test_every_lesson_up_to_10_5_passed_my_microgpt_trains_like_the_reference(
        server, page: Page, tmp_path: Path):
    """A learner who passed every published lesson up to 10.5 (as many as are published: the
    progress is made from the course as it stands) trains the microgpt.py assembled from their
    code for 20 steps: it matches the reference at every step."""

    course = the_course()
    passed = {lesson.number: done(lesson.exercise.solution) for lesson in course.lessons()
              if lesson_key(lesson.number) <= (10, 5)}
    assert {"10.1", "10.2", "10.3", "10.4", "10.5"} <= set(passed)
    bring_progress(page, server, tmp_path, passed)
    page.goto(server.url + "/my-microgpt/")
    page.select_option("[data-script-choice]", "microgpt.py")
    expect(page.locator("[data-mine-status]")).to_contain_text("regions of microgpt.py are yours")
    for lesson in ("10.3", "10.4"):  # m and v, and their corrections: the learner's
        assert region(page, lesson).count() > 0
        for part in region(page, lesson).all():
            expect(part).to_have_attribute("data-origin", "yours")
    # 10.6 is not done: the settings line, which only it teaches, is the reference's.
    for part in region(page, "10.6").all():
        expect(part).to_have_attribute("data-origin", "reference")
    train(page, steps=20)
    verdict = page.locator("[data-readout='verdict']")
    expect(verdict).to_contain_text("Matches the reference at every step", timeout=TRAIN_S * 1000)
    expect(verdict).to_contain_text("for all 20 steps")
