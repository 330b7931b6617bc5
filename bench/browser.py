"""How heavy and how fast a lesson page is, in headless Chromium against `linebyline serve`.

    .venv/bin/python bench/browser.py [--lesson /lessons/7.5-backward/] [--runs 5]

Measures, on this machine:
- bytes transferred for the lesson page before Pyodide (the page, its CSS and JS; compressed,
  headers included), and separately Python's own files (Pyodide, the worker, the runtime);
- time from opening the page to the first check result, with a cold and with a warm cache;
- the time of one warm check of the lesson's solution, with CPython's time for the same
  checks in this process as the baseline (the ratio is what to compare across machines).
Not part of CI: it prints a table and never fails on a time.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from linebyline.course import default_course_path, load_course  # noqa: E402
from linebyline.runtime import run_checks  # noqa: E402
from tests.browser.conftest import CHROMIUM_FLAGS, Server, chromium_path  # noqa: E402

PYTHON_FILES = ("/static/pyodide/", "/dist/worker", "/runtime.json", "/data/input.txt")


def transferred(page: Page, url: str) -> dict[str, int]:
    """Bytes on the wire per request of one page load (compressed body plus headers).

    Playwright reports the Python worker's requests too, so both halves are counted.
    """
    sizes: dict[str, int] = {}

    def finished(request) -> None:
        size = request.sizes()
        sizes[request.url] = size["responseBodySize"] + size["responseHeadersSize"]

    page.context.on("requestfinished", finished)
    page.goto(url)
    page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=120_000)
    page.wait_for_load_state("networkidle")
    return sizes


def first_check(page: Page, url: str) -> float:
    """Seconds from opening the page to the first check result (Check clicked at once)."""
    started = time.perf_counter()
    page.goto(url, wait_until="domcontentloaded")
    page.click('[data-action="check"]')
    page.wait_for_function(
        "() => { const s = document.querySelector('[data-checks-summary]');"
        " return s && s.dataset.status; }", timeout=120_000)
    return time.perf_counter() - started


def warm_check(page: Page, solution: str) -> float:
    """Seconds for one Check of the solution, Python already loaded."""
    page.evaluate("""solution => {
        const summary = document.querySelector('[data-checks-summary]');
        delete summary.dataset.status;
    }""", solution)
    started = time.perf_counter()
    page.click('[data-action="check"]')
    page.wait_for_function(
        "() => document.querySelector('[data-checks-summary]').dataset.status", timeout=60_000)
    return time.perf_counter() - started


def put_solution(page: Page) -> None:
    """Through the Stuck? ladder, as a learner would: hints, then the solution, copied in."""
    while page.locator('[data-action="hint"]').is_visible():
        page.click('[data-action="hint"]')
    page.click('[data-action="solution"]')
    page.click("[data-confirm-solution]")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="use-solution"]')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lesson", default="/lessons/7.5-backward/")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    course = load_course(default_course_path())
    number = args.lesson.strip("/").split("/")[-1].split("-")[0]
    lesson = course.lesson(number)

    server = Server(Path(tempfile.mkdtemp(prefix="linebyline-bench-")))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            url = server.url + args.lesson

            context = browser.new_context()
            sizes = transferred(context.new_page(), url)
            context.close()
            page_bytes = sum(s for u, s in sizes.items() if not any(p in u for p in PYTHON_FILES))
            python_bytes = sum(s for u, s in sizes.items() if any(p in u for p in PYTHON_FILES))

            colds, warms = [], []
            for _ in range(args.runs):
                context = browser.new_context()  # a new context has an empty cache
                page = context.new_page()
                colds.append(first_check(page, url))
                warms.append(first_check(page, url))  # same context: cache warm
                context.close()

            context = browser.new_context()
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=120_000)
            put_solution(page)
            checks = [warm_check(page, lesson.exercise.solution) for _ in range(args.runs)]
            status = page.locator("[data-checks-summary]").get_attribute("data-status")
            context.close()
            browser.close()
    finally:
        server.stop()

    baseline = []
    for _ in range(args.runs):
        started = time.perf_counter()
        result = run_checks(lesson.exercise.solution, lesson.exercise.checks_source)
        baseline.append(time.perf_counter() - started)
    assert result.status == "pass" and status == "pass", (result.status, status)

    median = statistics.median
    print(f"lesson {lesson.number} {lesson.title}, {args.runs} runs, medians\n")
    print(f"{'measure':<58} {'value':>12}")
    print(f"{'page before Pyodide: bytes transferred (target <= 150 KB)':<58} {page_bytes / 1024:>9.1f} KB")
    print(f"{'Python itself: Pyodide, worker, runtime, names':<58} {python_bytes / 1024:>9.1f} KB")
    print(f"{'open page -> first check result, cold cache':<58} {median(colds):>10.2f} s")
    print(f"{'open page -> first check result, warm cache':<58} {median(warms):>10.2f} s")
    print(f"{'one warm check of the solution, in the browser':<58} {median(checks) * 1000:>9.0f} ms")
    print(f"{'the same checks in CPython (baseline, this process)':<58} {median(baseline) * 1000:>9.0f} ms")
    print(f"{'ratio browser / CPython':<58} {median(checks) / median(baseline):>11.1f}x")
    print(f"{'ratio cold / warm first check':<58} {median(colds) / median(warms):>11.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
