"""Widgets, progress files, feedback, themes, small screens and accessibility, in Chromium."""
from __future__ import annotations

import json
import math
import re
import sqlite3

import pytest
from playwright.sync_api import Browser, Page, expect

from ..conftest import the_course
from .conftest import CHROMIUM_FLAGS, axe_violations, chromium_path, next_frames

pytestmark = pytest.mark.browser
PAGES = ["/", "/lessons/7.4-building-value/", "/lessons/7.5-backward/", "/program/", "/modules/2/review/",
         "/modules/7/review/"]


def number(text: str) -> float:
    return float(text.replace("−", "-"))


@pytest.mark.no_python
def test_graph_widget_steps_in_reverse_order_and_shows_the_mistake(server, page: Page):
    page.goto(server.url + "/lessons/7.5-backward/")
    widget = page.locator('[data-widget="graph-backward"]')
    counter = widget.locator("[data-step-counter]")
    expect(counter).to_have_text("step 0 / 6")
    step = widget.get_by_role("button", name="Step")
    step.click()
    expect(counter).to_have_text("step 1 / 6")
    assert widget.locator('[data-grad="e"]').inner_text() == "4"  # L hands e its first share
    for _ in range(5):
        step.click()
    expect(counter).to_have_text("step 6 / 6")
    grads = {name: number(widget.locator(f'[data-grad="{name}"]').inner_text())
             for name in "Ldecab"}
    assert grads == {"L": 1, "d": -6, "e": -2, "c": -6, "a": 6, "b": -4}

    widget.get_by_label("Try = instead of +=").check()
    expect(widget.locator('[data-grad="e"]')).to_have_text("−6")
    assert [number(widget.locator(f'[data-grad="{n}"]').inner_text()) for n in "ab"] == [18, -12]

    widget.get_by_label("Try = instead of +=").uncheck()
    widget.get_by_role("button", name="Reset").click()
    expect(counter).to_have_text("step 0 / 6")
    widget.get_by_role("button", name="Step").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("step 2 / 6")
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text("step 1 / 6")


@pytest.mark.no_python
def test_local_gradient_widget_matches_nudging(server, page: Page, course):
    params = course.lesson("7.4").explore.params
    h = params["h"]
    functions = {"mul": lambda x, o: x * o["c"], "add": lambda x, o: x + o["c"],
                 "pow": lambda x, o: x ** o["n"], "log": lambda x, o: math.log(x),
                 "exp": lambda x, o: math.exp(x), "relu": lambda x, o: max(0.0, x)}
    page.goto(server.url + "/lessons/7.4-building-value/")
    widget = page.locator('[data-widget="local-gradient"]')
    slider = widget.locator("input[type=range]")
    radios = widget.locator("input[type=radio]")
    assert radios.count() == len(params["operations"])
    for index, operation in enumerate(params["operations"]):
        radios.nth(index).check()
        for x in (0.5, 1.5, 2.5):
            slider.fill(str(x))
            f = functions[operation["op"]]
            assert float(widget.locator('[data-readout="h"]').get_attribute("data-value")) == h
            nudged = (f(x + h, operation) - f(x - h, operation)) / (2 * h)
            shown_nudge = number(widget.locator('[data-readout="nudge"]').inner_text())
            shown_rule = number(widget.locator('[data-readout="rule"]').inner_text())
            assert shown_nudge == pytest.approx(nudged, abs=1e-4), (operation, x)
            assert shown_rule == pytest.approx(nudged, rel=1e-3, abs=1e-3), (operation, x)
            assert number(widget.locator('[data-readout="x"]').inner_text()) == x
    # Keyboard: the slider moves with the arrow keys.
    slider.fill("1")
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert number(widget.locator('[data-readout="x"]').inner_text()) == pytest.approx(
        1 + params["x"]["step"])


@pytest.mark.no_python
def test_local_gradient_widget_agrees_wherever_it_says_so(server, page: Page, course):
    """At every x the slider offers, the verdict is "agree" (except on relu's kink and where log
    is undefined), and the numbers shown really agree, nudged with the h the widget shows."""
    params = course.lesson("7.4").explore.params
    functions = {"mul": lambda x, o: x * o["c"], "pow": lambda x, o: x ** o["n"],
                 "log": lambda x, o: math.log(x) if x > 0 else math.nan,
                 "exp": lambda x, o: math.exp(x), "relu": lambda x, o: max(0.0, x)}
    page.goto(server.url + "/lessons/7.4-building-value/")
    widget = page.locator('[data-widget="local-gradient"]')
    slider = widget.locator("input[type=range]")
    low, high, step = params["x"]["min"], params["x"]["max"], params["x"]["step"]
    xs = [round(low + i * step, 6) for i in range(int(round((high - low) / step)) + 1)]
    sweep = """(slider, xs) => xs.map((x) => {
        slider.value = String(x);
        slider.dispatchEvent(new Event("input", {bubbles: true}));
        const root = slider.closest("[data-widget]");
        const read = (name) => root.querySelector(`[data-readout="${name}"]`);
        return [read("verdict").textContent, read("h").dataset.value, read("rule").textContent];
    })"""
    for index, operation in enumerate(params["operations"]):
        widget.locator("input[type=radio]").nth(index).check()
        for x, (verdict, used, rule) in zip(xs, slider.evaluate(sweep, xs)):
            if (operation["op"] == "log" and x <= 0) or (operation["op"] == "relu" and x == 0):
                assert verdict != "The rule and the nudge agree.", (operation, x)
                continue
            assert verdict == "The rule and the nudge agree.", (operation, x, verdict)
            f = functions[operation["op"]]
            used = float(used)
            nudged = (f(x + used, operation) - f(x - used, operation)) / (2 * used)
            assert number(rule) == pytest.approx(nudged, rel=2e-4, abs=2e-4), (operation, x, used)


@pytest.mark.no_python
def test_progress_survives_a_browser_restart(server, browser: Browser, tmp_path):
    profile = tmp_path / "profile"  # one profile folder, opened by two browsers in turn
    for visit in range(2):
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        page = context.new_page()
        page.goto(server.url + "/lessons/7.4-building-value/")
        form = page.locator("form[data-question]").first
        if visit == 0:
            form.locator("input[type=radio]").first.check()
            form.locator("button[type=submit]").click()
        else:
            expect(form.locator("input[type=radio]").first).to_be_checked()
        expect(page.locator(".lesson-header .status")).to_have_text("In progress")
        context.close()


@pytest.mark.no_python
def test_progress_exports_and_imports_and_refuses_bad_files(server, browser: Browser, tmp_path):
    first = browser.new_context()
    page = first.new_page()
    page.goto(server.url + "/lessons/7.4-building-value/")
    page.locator("form[data-question] input[type=radio]").first.check()
    page.locator("form[data-question] button[type=submit]").first.click()
    page.goto(server.url + "/")
    with page.expect_download() as download:
        page.click("[data-progress-export]")
    exported = tmp_path / "progress.json"
    download.value.save_as(exported)
    data = json.loads(exported.read_text())
    assert data["format"] == "linebyline-progress" and data["lessons"]["7.4"]["status"] == "in-progress"
    first.close()

    second = browser.new_context()
    page = second.new_page()
    page.goto(server.url + "/")
    expect(page.locator('[data-status-of="7.4"]')).to_have_text("Not started")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "linebyline-progress", "version": 1, "course": "other", "lessons": {}}')
    page.set_input_files("[data-progress-import]", bad)
    expect(page.locator("[data-progress-message]")).to_contain_text('for the course "other"')
    expect(page.locator('[data-status-of="7.4"]')).to_have_text("Not started")
    page.set_input_files("[data-progress-import]", exported)
    expect(page.locator("[data-progress-message]")).to_have_text(
        "Imported progress for 1 lesson. Nothing you had here was lost.")
    expect(page.locator('[data-status-of="7.4"]')).to_have_text("In progress")
    second.close()


def test_feedback_from_the_page_reaches_the_database(server, page: Page):
    page.goto(server.url + "/lessons/7.4-building-value/")
    form = page.locator("form[data-feedback]")
    form.locator("button[type=submit]").click()
    expect(form.locator("[data-feedback-result]")).to_have_text("Choose yes or no first.")
    form.get_by_label("Yes").check()
    form.get_by_label("Anything to add? (optional)").fill("The table of rates helped.")
    form.locator("button[type=submit]").click()
    expect(form.locator("[data-feedback-result]")).to_contain_text("Thank you")
    with sqlite3.connect(server.data_dir / "linebyline.sqlite3") as db:
        rows = db.execute("select lesson, clear, comment from linebyline_lessonfeedback").fetchall()
    assert ("7.4", 1, "The table of rates helped.") in rows


def drawn(page: Page) -> None:
    """The page as a reader first sees it: loaded, its widget (if it has one) mounted, and two
    frames drawn. (Python is held in these tests: the page shows it downloading.)"""
    if page.locator("[data-widget]").count():
        page.wait_for_selector("[data-widget][data-mounted]")
    next_frames(page)


@pytest.mark.no_python
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", PAGES)
def test_pages_pass_axe_accessibility_checks(server, browser: Browser, path, scheme):
    # axe is added as an inline script, which the pages' Content-Security-Policy forbids.
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(server.url + path)
    drawn(page)
    result = axe_violations(page)
    context.close()
    assert result == [], json.dumps(result, indent=1)


@pytest.mark.no_python
def test_dark_theme_follows_the_system(server, browser: Browser):
    colors = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(server.url + "/")
        colors[scheme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
        context.close()
    assert colors == {"light": "rgb(255, 255, 255)", "dark": "rgb(21, 23, 27)"}


@pytest.mark.no_python
@pytest.mark.parametrize("path", PAGES)
def test_pages_fit_a_phone_without_sideways_scrolling(server, browser: Browser, path):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto(server.url + path)
    drawn(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= 360


@pytest.mark.no_python
def test_keyboard_focus_is_visible(server, page: Page):
    page.goto(server.url + "/lessons/7.5-backward/")
    page.keyboard.press("Tab")  # the skip link
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"


def test_without_the_interrupt_buffer_stop_replaces_python(server, browser: Browser):
    """Where SharedArrayBuffer is missing, Stop cannot interrupt: the worker is replaced."""
    from .test_lesson_walk import replace_todo, type_at_end

    context = browser.new_context()
    context.add_init_script("delete globalThis.SharedArrayBuffer;")
    page = context.new_page()
    page.goto(server.url + "/lessons/7.5-backward/")
    page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=90_000)
    type_at_end(page, "while True: pass")
    page.click('[data-action="run"]')
    expect(page.locator('[data-action="stop"]')).to_be_enabled()
    page.click('[data-action="stop"]')
    expect(page.locator("[data-output]")).to_contain_text("so it was restarted")
    page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=90_000)
    # The time limit takes the same way out.
    page.click('[data-action="check"]')
    expect(page.locator("[data-checks-summary]")).to_have_text(
        "Your code ran past the time limit and did not stop, so Python was restarted.",
        timeout=30_000)
    page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=90_000)
    replace_todo(page, "while True: pass", "print('back again')")
    page.click('[data-action="run"]')
    expect(page.locator("[data-output]")).to_contain_text("back again", timeout=15_000)
    context.close()


@pytest.mark.no_python
def test_static_files_are_fingerprinted_and_cached_for_a_long_time(server, page: Page):
    page.goto(server.url + "/lessons/7.5-backward/")
    script = page.locator("script[type=module]").first.get_attribute("src")
    assert re.search(r"/dist/app\.[0-9a-f]{12}\.js$", script), script
    for url in (script, page.evaluate("document.body.dataset.pyodideUrl") + "pyodide.asm.wasm"):
        response = page.request.get(server.url + url)
        assert response.ok
        assert "immutable" in response.headers["cache-control"]
        assert response.headers["cross-origin-embedder-policy"] == "require-corp"
    page_response = page.request.get(server.url + "/lessons/7.5-backward/")
    assert "immutable" not in page_response.headers.get("cache-control", "")


@pytest.mark.no_python
def test_program_page_highlights_learned_started_and_not_yet(server, page: Page):
    page.goto(server.url + "/lessons/7.4-building-value/")
    form = page.locator("form[data-question]").first
    form.locator("input[type=radio]").first.check()
    form.locator("button[type=submit]").click()  # 7.4 is now in progress
    page.goto(server.url + "/program/")
    expect(page.locator("#L41")).to_have_class(re.compile(r"\bstarted\b"))
    expect(page.locator("#L77")).to_have_class(re.compile(r"\blater\b"))
    link = page.locator("#L77 a")
    link.click()
    course = the_course()
    teacher = next(lesson for lesson in course.lessons() if 77 in lesson.unlocked_lines())
    expect(page).to_have_url(re.compile(rf"/lessons/{re.escape(teacher.number)}-{teacher.slug}/$"))
