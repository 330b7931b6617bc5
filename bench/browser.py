"""How heavy and how fast a lesson page is, in headless Chromium against `linebyline serve`.

    .venv/bin/python bench/browser.py [--lesson /lessons/7.5-backward/] [--runs 5]
                                      [--before 146e001] [--port 8640]

Measures, on this machine:
- bytes transferred for the lesson page before Pyodide (the page, its CSS and JS; compressed,
  headers included), and separately Python's own files (Pyodide, the worker, the runtime);
- time from opening the page to the first check result, with a cold and with a warm cache, and
  of the cold one, when Python was ready and how long that first check took in the worker;
- the cold first visit again with /sw.js refused (interleaved with the others): what keeping the
  course for offline use costs the first check;
- the same for a second visit with the network cut, once the service worker kept the course
  (the time it took to keep it, from opening the first page, is printed too);
- one warm check of the lesson's solution: from the click to the result on screen, timed in the
  page; of that, Python's own time in the worker and the rest (messages, showing the result);
  and the same click as Playwright sees it (its actionability checks and polling included: what
  this bench used to report). CPython's time for the same checks in this process is the
  baseline (the ratio is what to compare across machines).
The times come from the page's performance timeline ("linebyline: python job", python.ts).
With --before REVISION, the same run also measures the browser's Python as it was: the check
runtime at that git revision and npm Pyodide's uncompiled standard library, served in place of
today's (the variants take turns, so both see the same load on this shared machine).
Not part of CI: it prints a table and never fails on a time.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402

from linebyline.course import default_course_path, load_course  # noqa: E402
from linebyline.runtime import run_checks  # noqa: E402
from tests.browser.conftest import CHROMIUM_FLAGS, Server, chromium_path  # noqa: E402

# What only Python uses: Pyodide, the worker, the check runtime, the names, the lesson's checks.py.
PYTHON_FILES = ("/static/pyodide/", "/dist/worker", "/runtime.json", "/data/input.txt", "/checks.json")


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


def first_check(page: Page, url: str) -> dict[str, float]:
    """From opening the page to the first check result (Check clicked at once), in seconds:
    the total, when Python was ready, and the first check's own time in the worker."""
    started = time.perf_counter()
    page.goto(url, wait_until="domcontentloaded")
    page.click('[data-action="check"]')
    page.wait_for_function(
        "() => { const s = document.querySelector('[data-checks-summary]');"
        " return s && s.dataset.status; }", timeout=120_000)
    total = time.perf_counter() - started
    job = page.evaluate(JOB_TIMING)
    return {"total": total, "ready": job["submitted"] / 1000, "python": job["python"] / 1000}


# The last Python job on the page's performance timeline: when it was posted (ms since the page
# opened; a check waits for Python to be ready), the round trip and Python's part of it.
JOB_TIMING = """() => {
    const jobs = performance.getEntriesByName('linebyline: python job');
    const last = jobs[jobs.length - 1];
    return {submitted: last.startTime, roundTrip: last.duration, python: last.detail.pythonMs};
}"""

# One Check clicked in the page, timed there: from the click until the result is on screen
# (the summary's status set, then the next frame drawn).
CHECK_IN_PAGE = """async () => {
    const summary = document.querySelector('[data-checks-summary]');
    delete summary.dataset.status;
    const started = performance.now();
    document.querySelector('[data-action="check"]').click();
    await new Promise(done => {
        const watch = new MutationObserver(() => {
            if (summary.dataset.status) { watch.disconnect(); done(); }
        });
        watch.observe(summary, {attributes: true});
    });
    await new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
    return performance.now() - started;
}"""


def warm_check(page: Page) -> dict[str, float]:
    """One Check of the solution, Python already loaded, in ms: timed in the page, with the
    worker's Python time and the round trip of that job."""
    shown = page.evaluate(CHECK_IN_PAGE)
    job = page.evaluate(JOB_TIMING)
    return {"shown": shown, "python": job["python"], "roundTrip": job["roundTrip"]}


def warm_check_playwright(page: Page) -> float:
    """The same, clicked and awaited through Playwright, in ms (harness overhead included)."""
    page.evaluate("() => { delete document.querySelector('[data-checks-summary]').dataset.status; }")
    started = time.perf_counter()
    page.click('[data-action="check"]')
    page.wait_for_function(
        "() => document.querySelector('[data-checks-summary]').dataset.status", timeout=60_000)
    return (time.perf_counter() - started) * 1000


def offline_checks(browser: Browser, url: str, runs: int) -> tuple[float, list[float]]:
    """A first visit, until the service worker has kept the course (seconds from opening the
    page), then `runs` visits with the network cut: each one's open page -> first check result."""
    context = browser.new_context()
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=300_000)
    kept = time.perf_counter() - started
    page.close()
    context.set_offline(True)
    times = []
    for _ in range(runs):
        page = context.new_page()
        times.append(first_check(page, url)["total"])
        page.close()
    context.close()
    return kept, times


def put_solution(page: Page) -> None:
    """Through the Stuck? ladder, as a learner would: hints, then the solution, copied in."""
    while page.locator('[data-action="hint"]').is_visible():
        page.click('[data-action="hint"]')
    page.click('[data-action="solution"]')
    page.click("[data-confirm-solution]")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('[data-action="use-solution"]')


def before_files(revision: str) -> tuple[bytes, bytes]:
    """What the browser's Python got before: the body of runtime.json with the check runtime as
    it was at `revision`, and npm Pyodide's own standard library (sources, as the build copied
    it before frontend/compile-stdlib.mjs)."""
    folder = "src/linebyline/runtime/"
    names = subprocess.run(["git", "ls-tree", "--name-only", revision, folder], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout.split()
    files = {"linebyline/__init__.py": ""}
    for path in names:
        if path.endswith(".py"):
            files[f"linebyline/runtime/{Path(path).name}"] = subprocess.run(
                ["git", "show", f"{revision}:{path}"], cwd=ROOT, check=True,
                capture_output=True, text=True).stdout
    stdlib = (ROOT / "frontend" / "node_modules" / "pyodide" / "python_stdlib.zip").read_bytes()
    return json.dumps({"files": files}).encode(), stdlib


def open_context(browser: Browser, before: tuple[bytes, bytes] | None) -> BrowserContext:
    """A new context (so an empty cache); for `before`, serving its runtime and stdlib instead."""
    context = browser.new_context()
    if before is not None:
        runtime, stdlib = before
        context.route(re.compile(r"/runtime\.json"), lambda route: route.fulfill(
            body=runtime, content_type="application/json"))
        context.route(re.compile(r"/python_stdlib\.zip$"), lambda route: route.fulfill(
            body=stdlib, content_type="application/zip"))
    return context


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lesson", default="/lessons/7.5-backward/")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--port", type=int, default=8640, help="the server's port (default 8640)")
    parser.add_argument("--before", metavar="REVISION",
                        help="also measure, in the same run, the check runtime as it was at this "
                             "git revision with npm Pyodide's uncompiled standard library")
    args = parser.parse_args()
    course = load_course(default_course_path())
    number = args.lesson.strip("/").split("/")[-1].split("-")[0]
    lesson = course.lesson(number)
    variants: dict[str, tuple[bytes, bytes] | None] = {"now": None}
    if args.before:
        variants = {"before": before_files(args.before), "now": None}

    server = Server(Path(tempfile.mkdtemp(prefix="linebyline-bench-")), args.port)
    colds: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
    checks: dict[str, list[dict[str, float]]] = {name: [] for name in variants}
    warms: list[float] = []
    without_worker: list[float] = []
    clicked: list[float] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            url = server.url + args.lesson

            context = browser.new_context()
            sizes = transferred(context.new_page(), url)
            context.close()
            page_bytes = sum(s for u, s in sizes.items() if not any(p in u for p in PYTHON_FILES))
            python_bytes = sum(s for u, s in sizes.items() if any(p in u for p in PYTHON_FILES))

            for _ in range(args.runs):  # variants interleaved: each sees the same load
                for name, files in variants.items():
                    context = open_context(browser, files)
                    page = context.new_page()
                    colds[name].append(first_check(page, url))
                    if files is None:
                        warms.append(first_check(page, url)["total"])  # same context: cache warm
                    context.close()
                # The same first visit with the service worker refused: what keeping the course
                # for offline use costs the first check.
                context = browser.new_context()
                context.route(re.compile(r"/sw\.js$"), lambda route: route.abort())
                without_worker.append(first_check(context.new_page(), url)["total"])
                context.close()

            kept, offline = offline_checks(browser, url, args.runs)

            pages = {}
            for name, files in variants.items():
                page = open_context(browser, files).new_page()
                page.goto(url)
                page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=120_000)
                put_solution(page)
                page.evaluate(CHECK_IN_PAGE)  # the first check compiles checks.py: not a warm one
                pages[name] = page
            for _ in range(args.runs):
                for name, page in pages.items():
                    checks[name].append(warm_check(page))
                clicked.append(warm_check_playwright(pages["now"]))
            statuses = {page.locator("[data-checks-summary]").get_attribute("data-status")
                        for page in pages.values()}
            browser.close()
    finally:
        server.stop()

    baseline = []
    for _ in range(args.runs):
        started = time.perf_counter()
        result = run_checks(lesson.exercise.solution, lesson.exercise.checks_source,
                            reference=lesson.exercise.solution)
        baseline.append((time.perf_counter() - started) * 1000)
    assert result.status == "pass" and statuses == {"pass"}, (result.status, statuses)

    median = statistics.median
    columns = [f"{name} median" for name in variants] + ["now min"]
    if args.before:
        columns.append("now/before")
    print(f"lesson {lesson.number} {lesson.title}, {args.runs} runs"
          + (f"; 'before' is the runtime at {args.before} with the uncompiled stdlib" if args.before
             else "") + "\n")
    print(f"{'measure':<58}" + "".join(f"{column:>13}" for column in columns))

    def row(label: str, values: dict[str, list[float]], unit: str) -> None:
        digits = 2 if unit == "s" else 0
        cells = [f"{median(values[name]):.{digits}f} {unit}" for name in variants]
        cells.append(f"{min(values['now']):.{digits}f} {unit}")
        if args.before:
            cells.append(f"{median(values['now']) / median(values['before']):.2f}x")
        print(f"{label:<58}" + "".join(f"{cell:>13}" for cell in cells))

    def part(key: str, table: dict[str, list[dict[str, float]]]) -> dict[str, list[float]]:
        return {name: [item[key] for item in items] for name, items in table.items()}

    print(f"{'page before Pyodide: bytes transferred (target <= 150 KB)':<58}"
          f"{page_bytes / 1024:>11.1f} KB")
    print(f"{'Python itself: Pyodide, worker, runtime, names, checks':<58}{python_bytes / 1024:>11.0f} KB")
    row("open page -> first check result, cold cache (<= 3 s)", part("total", colds), "s")
    row("  of which: open page -> Python ready", part("ready", colds), "s")
    row("  of which: the first check, in the worker", part("python", colds), "s")
    cold_now = median(item["total"] for item in colds["now"])
    print(f"{'  the same, the service worker refused (now)':<58}{median(without_worker):>11.2f} s"
          f"   now/refused {cold_now / median(without_worker):.2f}x")
    print(f"{'open page -> first check result, warm cache (now)':<58}{median(warms):>11.2f} s")
    print(f"{'first visit -> the course kept for offline use (now)':<58}{kept:>11.2f} s")
    print(f"{'open page -> first check result, second visit offline':<58}{median(offline):>11.2f} s")
    row("warm check: click -> result on screen (<= 50 ms)", part("shown", checks), "ms")
    row("  of which: Python in the worker", part("python", checks), "ms")
    row("  of which: messages, showing the result", {
        name: [c["shown"] - c["python"] for c in items] for name, items in checks.items()}, "ms")
    print(f"{'warm check as Playwright sees it (click, polling; now)':<58}"
          f"{median(clicked):>10.0f} ms")
    print(f"{'the same checks in CPython (baseline, this process)':<58}"
          f"{median(baseline):>10.1f} ms")
    for name in variants:
        shown = median([c["shown"] for c in checks[name]])
        python = median([c["python"] for c in checks[name]])
        print(f"{f'ratio to CPython ({name}): click -> on screen, Python only':<58}"
              f"{shown / median(baseline):>10.1f}x {python / median(baseline):>6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
