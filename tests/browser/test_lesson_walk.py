"""A new learner walks lesson 7.5 in a real browser, with Python running in the page."""
from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from linebyline.authoring.computed import compute_lesson

from .conftest import next_frames, wait_for_python

pytestmark = pytest.mark.browser
LESSON = "/lessons/7.5-backward/"


def show_end_of_editor(page: Page) -> None:
    """The editor draws only the lines in view: bring it into view, scrolled to its end."""
    page.locator(".cm-editor").scroll_into_view_if_needed()
    page.locator(".cm-scroller").evaluate("element => element.scrollTop = element.scrollHeight")


def click_line(page: Page, text: str) -> None:
    """Click the editor line holding `text`, making sure the cursor really landed there.

    CodeMirror draws only the lines in view, and redraws them a moment after a scroll: a line
    can vanish or move under the mouse. So try to click it; if it is not drawn (or the click
    lands on a neighbour), scroll a little from the top and try again.
    """
    scroller = page.locator(".cm-scroller")
    line = page.locator(".cm-line", has_text=text).last
    for attempt in range(60):
        if line.count():
            try:
                line.click(timeout=1_000)
                if text in page.locator(".cm-activeLine").inner_text():
                    return
            except PlaywrightTimeout:
                pass
        if attempt == 0:
            scroller.evaluate("element => element.scrollTop = 0")
        else:
            scroller.evaluate("element => element.scrollTop += element.clientHeight / 3")
        next_frames(page)  # the scrolled lines are drawn
    raise AssertionError(f"could not put the cursor on the line with {text!r}")


def replace_todo(page: Page, todo_text: str, code: str) -> None:
    """Put the cursor on a TODO comment line and type the code over the comment, as a learner does."""
    show_end_of_editor(page)
    click_line(page, todo_text)
    page.keyboard.press("End")
    page.keyboard.press("Shift+Home")  # to the end of the indentation, keeping it
    page.keyboard.type(code)


def check_and_wait(page: Page) -> str:
    page.click('[data-action="check"]')
    summary = page.locator("[data-checks-summary]")
    expect(summary).not_to_have_text("Checking…", timeout=30_000)
    return summary.inner_text()


def lines_learned(page: Page) -> int:
    return int(page.locator("header.site [data-lines-learned]").inner_text())


def test_a_new_learner_walks_lesson_7_5(server, page: Page, course):
    lesson = course.lesson("7.5")
    page.goto(server.url + LESSON)
    expect(page.locator("h1")).to_contain_text("backward(): let the graph do calculus")
    assert lines_learned(page) == 0
    wait_for_python(page)

    # The untouched starter: not attempted.
    assert check_and_wait(page).startswith("Not attempted yet")
    expect(page.locator('.check[data-check-status="not-attempted"]')).to_have_count(len(lesson.exercise.check_names))

    # Run it: the starter's demo prints at once, showing that nothing reaches x.grad yet.
    page.click('[data-action="run"]')
    expect(page.locator("[data-output]")).to_contain_text("x.grad = 0", timeout=30_000)

    # Write the two lines, then check: every check passes, the lesson is done.
    replace_todo(page, "# TODO (one line): `node` takes its place", "order.append(node)")
    replace_todo(page, "# TODO (one line): the chain rule", "child.grad += local_grad * node.grad")
    assert check_and_wait(page).startswith(f"All {len(lesson.exercise.check_names)} checks pass")
    expect(page.locator('.check[data-check-status="pass"]')).to_have_count(len(lesson.exercise.check_names))
    expect(page.locator(".lesson-header .status")).to_have_text("Done")

    # Lines learned rise by exactly the lines this lesson teaches.
    taught = len(lesson.unlocked_lines() & course.countable_lines())
    assert lines_learned(page) == taught
    expect(page.locator("#unlocked [data-lines-learned]")).to_have_text(str(taught))

    # Answer the quiz: the right choice, the predicted numbers.
    quiz = json.loads(page.locator("#quiz-data").text_content())
    answers = compute_lesson(lesson).answers
    for index, (question, data) in enumerate(zip(lesson.quiz, quiz)):
        form = page.locator(f'form[data-question="{data["id"]}"]')
        if question.kind == "choice":
            right = next(i for i, c in enumerate(question.choices) if c.correct)
            form.locator(f'input[value="{right}"]').check()
        else:
            form.locator("input[type=text]").fill(f"{answers[index]:g}".replace("-", "−"))
        form.locator("button[type=submit]").click()
        expect(form.locator(".verdict")).to_have_text("Right.")

    # A wrong prediction is told so, and can be retried.
    predict = page.locator("form[data-question]").filter(has=page.locator("input[type=text]")).first
    first = next(index for index, question in enumerate(lesson.quiz) if question.kind == "predict")
    predict.locator("input").fill("12345")
    predict.locator("button[type=submit]").click()
    expect(predict.locator(".verdict")).to_have_text("Not quite.")
    predict.locator("input").fill(f"{answers[first]:g}".replace("-", "−"))
    predict.locator("button[type=submit]").click()
    expect(predict.locator(".verdict")).to_have_text("Right.")

    # Reload: the code, the status, the quiz answers and the count are all kept.
    page.reload()
    show_end_of_editor(page)
    expect(page.locator(".cm-content")).to_contain_text("order.append(node)")
    expect(page.locator(".cm-content")).to_contain_text("child.grad += local_grad * node.grad")
    expect(page.locator(".lesson-header .status")).to_have_text("Done")
    assert lines_learned(page) == taught
    expect(page.locator(".verdict").first).to_have_text("Right.")

    # The course home shows it too.
    page.goto(server.url + "/")
    expect(page.locator('[data-status-of="7.5"]')).to_have_text("Done")
    module = next(m for m in course.modules if m.number == 7)
    expect(page.locator('[data-module-progress="7"]')).to_have_text(
        f"1 / {len(module.lessons)} lessons done")


def test_an_infinite_loop_is_stopped_and_the_page_stays_usable(server, page: Page):
    page.goto(server.url + LESSON)
    wait_for_python(page)
    replace_todo(page, "# TODO (one line): `node` takes its place", "while True: pass")

    # Check: the 10 s time limit stops it, with a message naming the limit.
    started = time.monotonic()
    summary = check_and_wait(page)
    elapsed = time.monotonic() - started
    assert elapsed < 10 + 3 + 5, f"took {elapsed:.1f} s"
    messages = page.locator(".check-message").all_inner_texts()
    assert any("10 s time limit" in m for m in messages), (summary, messages)

    # A loop at the top level, run with Run and stopped with Stop: it ends at once.
    type_at_end(page, "while True: pass")
    page.click('[data-action="run"]')
    expect(page.locator('[data-action="stop"]')).to_be_enabled()
    expect(page.locator("[data-python-status]")).to_have_text("Python: running…")
    started = time.monotonic()
    page.click('[data-action="stop"]')
    expect(page.locator("[data-output]")).to_contain_text("Stopped.", timeout=6_000)
    assert time.monotonic() - started < 3
    expect(page.locator('[data-action="run"]')).to_be_enabled()

    # The page and Python are usable again: fix the code and run it with Ctrl+Enter (the
    # last loop first, then the one in visit(), which the starter's demo would run into).
    replace_todo(page, "while True: pass", "print('alive again')")
    replace_todo(page, "while True: pass", "order.append(node)")
    page.keyboard.press("Control+Enter")
    expect(page.locator("[data-output]")).to_contain_text("alive again", timeout=15_000)


def type_at_end(page: Page, line: str) -> None:
    """A new top-level line at the end of the file (Shift+Tab takes the indentation away)."""
    show_end_of_editor(page)
    page.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    for _ in range(5):
        page.keyboard.press("Shift+Tab")
    page.keyboard.type(line)


def test_a_traceback_points_into_the_editor(server, page: Page):
    page.goto(server.url + LESSON)
    wait_for_python(page)
    replace_todo(page, "# TODO (one line): `node` takes its place", "order.append(node)")
    type_at_end(page, "Value(1.0) + nope")
    page.click('[data-action="run"]')
    output = page.locator("[data-output]")
    expect(output).to_contain_text("NameError: name 'nope' is not defined", timeout=30_000)
    text = output.inner_text()
    assert "runtime" not in text and "<exec>" not in text  # only the learner's own frames
    line = int(re.search(r'File "backward\.py", line (\d+)', text).group(1))
    page.locator(".line-link").first.click()
    active = page.locator(".cm-activeLineGutter").inner_text()
    assert int(active) == line


def test_stuck_ladder_hints_then_codealong_then_solution(server, page: Page, course):
    exercise = course.lesson("7.5").exercise
    page.goto(server.url + LESSON)
    hint_button = page.locator('[data-action="hint"]')
    for shown in range(1, len(exercise.hints) + 1):
        hint_button.click()
        expect(page.locator("[data-hints] li")).to_have_count(shown)
    expect(hint_button).to_be_hidden()

    page.click('[data-action="codealong"]')
    screen = page.locator('[data-replay="screen"]')
    expect(page.locator('[data-replay="position"]')).to_have_text(f"chapter 1 / {len(exercise.codealong)}")
    page.select_option('[data-replay="speed"]', "4")
    page.click('[data-replay="play"]')
    expect(screen).to_contain_text("order.append(node)", timeout=15_000)
    page.click('[data-replay="play"]')  # pause
    page.locator('[data-replay="chapters"] button').last.click()
    caption = exercise.codealong[-1].caption.replace("`", "")  # Markdown: `+=` shows as code
    expect(page.locator('[data-replay="caption"]')).to_have_text(caption)
    expect(page.locator('[data-replay="caption"] code').first).to_have_text("+=")
    # Chapter marks carry their times; the scrubber moves by keyboard like a video's.
    marks = page.locator('[data-replay="chapters"] button').all_inner_texts()
    assert marks[0].startswith("1. ") and re.search(r"· 0:0\d$", marks[0]), marks
    scrubber = page.locator('[data-replay="scrubber"]')
    scrubber.focus()
    page.keyboard.press("Home")
    expect(page.locator('[data-replay="caption"]')).to_have_text("The starter, before any line is typed.")
    page.keyboard.press("End")
    time_text = page.locator('[data-replay="time"]').inner_text()
    played, length = time_text.split(" / ")
    assert played == length != "0:00", time_text
    # "Edit from here" hands the code-along's text to the learner's editor, cursor where it typed.
    page.click('[data-replay="edit"]')
    show_end_of_editor(page)
    expect(page.locator(".cm-content")).to_contain_text("child.grad += local_grad * node.grad")
    assert check_and_wait(page).startswith(f"All {len(exercise.check_names)} checks pass")

    page.click('[data-action="solution"]')
    dialog = page.locator("[data-solution-dialog]")
    expect(dialog).to_be_visible()
    dialog.locator("button[value=cancel]").click()
    expect(page.locator("[data-solution]")).to_be_hidden()
    page.click('[data-action="solution"]')
    page.locator("[data-confirm-solution]").click()
    expect(page.locator("[data-solution-code]")).to_have_text(exercise.solution)

    page.reload()  # hints shown are remembered
    expect(page.locator("[data-hints] li")).to_have_count(len(exercise.hints))


def test_a_known_mistake_gets_its_message_in_the_browser_too(server, page: Page, course):
    """The pow mistake recurses forever: Python in the browser must survive it and explain it."""
    lesson = course.lesson("7.4")
    mistake = next(m for m in lesson.exercise.mistakes if "recursion" in m.message.lower()
                   or "RecursionError" in m.message)
    page.goto(server.url + "/lessons/7.4-building-value/")
    wait_for_python(page)
    show_end_of_editor(page)
    for line in ("return Value(self.data * other.data, (self, other), ())",
                 "return Value(self.data ** n, (self,), ())"):
        click_line(page, line)
        page.keyboard.press("End")
        page.keyboard.press("Shift+Home")
        page.keyboard.type(line.replace("())", "(other.data, self.data))") if "other" in line
                           else "return Value(self.data ** n, (self,), (n * self ** (n - 1),))")
    check_and_wait(page)
    failing = page.locator('.check[data-check-status="fail"]').first
    expect(failing.locator("summary")).to_contain_text(mistake.check)
    # `code` in a message shows as code, without its backticks.
    expect(failing.locator(".check-message")).to_have_text(mistake.message.replace("`", ""))
    expect(failing.locator("details")).to_have_attribute("open", "")


def test_code_that_crashes_python_itself_gets_a_new_python(server, page: Page, course):
    """Raising the recursion limit lets operator recursion overflow the worker's stack."""
    page.goto(server.url + "/lessons/7.4-building-value/")
    wait_for_python(page)
    type_at_end(page, "import sys; sys.setrecursionlimit(100000)")
    type_at_end(page, 'Deep = type("Deep", (), {"__pow__": lambda self, n: self ** n})')
    type_at_end(page, "Deep() ** 2")
    page.click('[data-action="run"]')
    expect(page.locator("[data-output]")).to_contain_text("Python crashed and was restarted",
                                                         timeout=30_000)
    wait_for_python(page)
    page.click('[data-action="check"]')
    expect(page.locator("[data-checks-summary]")).not_to_have_text("Checking…", timeout=30_000)
    assert page.locator(".check").count() == len(course.lesson("7.4").exercise.check_names)
