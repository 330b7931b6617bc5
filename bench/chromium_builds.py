"""Debian's Chromium against its headless shell, on the browser tests' own path: a new context
opens a lesson, waits for "Python ready", then runs axe on the page.

    .venv/bin/python bench/chromium_builds.py [--lessons 6] [--rounds 2]

The two take turns, round after round, against one `linebyline serve`, so both see the same
load on this shared machine. Prints each one's seconds and the shell's ratio to Chromium (the
figure to compare across machines); tests/browser/conftest.py runs the tests in the shell when
it is installed. Not part of CI: it never fails on a time.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

from linebyline.course import default_course_path, load_course  # noqa: E402
from tests.browser.conftest import AXE, CHROMIUM_FLAGS, PYTHON_READY_S, Server  # noqa: E402

BUILDS = ("chromium", "chromium-headless-shell")


def one_round(browser: Browser, url: str, paths: list[str]) -> tuple[float, float]:
    """Seconds to "Python ready" and seconds of axe, summed over the lessons."""
    ready = axe = 0.0
    for path in paths:
        context = browser.new_context(service_workers="block")
        page = context.new_page()
        started = time.monotonic()
        page.goto(url + path)
        page.wait_for_selector('[data-python-status][data-state="ready"]',
                               timeout=PYTHON_READY_S * 1000)
        ready += time.monotonic() - started
        started = time.monotonic()
        page.evaluate(AXE.read_text())
        page.evaluate("async () => (await axe.run(document, "
                      "{runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa']})).violations.length")
        axe += time.monotonic() - started
        context.close()
    return ready, axe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, default=6, help="lessons per round (from 4.1 on)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    missing = [name for name in BUILDS if not shutil.which(name)]
    if missing:
        sys.exit(f"not installed: {', '.join(missing)} (scripts/system-deps.sh installs both)")
    lessons = list(load_course(default_course_path()).lessons())[20:20 + args.lessons]
    paths = [f"/lessons/{lesson.number}-{lesson.slug}/" for lesson in lessons]
    totals = {name: [0.0, 0.0] for name in BUILDS}
    server = Server(Path(tempfile.mkdtemp(prefix="bench-chromium-")))
    try:
        with sync_playwright() as playwright:
            browsers = {name: playwright.chromium.launch(executable_path=shutil.which(name),
                                                         args=CHROMIUM_FLAGS) for name in BUILDS}
            for number in range(args.rounds):
                for name, browser in browsers.items():
                    ready, axe = one_round(browser, server.url, paths)
                    totals[name][0] += ready
                    totals[name][1] += axe
                    print(f"round {number + 1}  {name:24} ready {ready:6.1f} s  axe {axe:5.1f} s",
                          flush=True)
    finally:
        server.stop()
    (base_ready, base_axe), (ready, axe) = totals[BUILDS[0]], totals[BUILDS[1]]
    print(f"{len(paths)} lessons × {args.rounds} rounds: the shell takes {ready / base_ready:.2f}× "
          f"Chromium's time to Python ready, {axe / base_axe:.2f}× its time for axe")


if __name__ == "__main__":
    main()
