"""How the Build's Graph tab holds the page's main thread, in headless Chromium.

    .venv/bin/python bench/graph_tab.py [--nodes 500] [--runs 3]

On lesson 7.5, a learner's file builds a graph of about --nodes Values and calls backward(); the
bench presses Run, opens the Graph tab, waits for the drawing, then steps through backward()
(Step ten times, the slider to the end, "First wrong step"). A PerformanceObserver in the page
records every main-thread task over 50 ms (the browser's "long task") from opening the tab to the
last step. The baseline, measured in the same page and the same run: the same file with 5
Values. The issue's target is no long task at all with 500 nodes; the ratio of the longest tasks
(or of the drawing times) is what to compare across machines.
Not part of CI: it prints a table and never fails on a time.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from linebyline.course import default_course_path  # noqa: E402
from tests.browser.conftest import CHROMIUM_FLAGS, Server, chromium_path, set_editor_text  # noqa: E402

LESSON = "/lessons/7.5-backward/"
OBSERVE = """() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: "longtask", buffered: false });
}"""


def learner_file(nodes: int) -> str:
    """7.5's solution with a demo that sums `pairs` products: 3 nodes per pair, plus the start."""
    solution = (next((default_course_path() / "lessons").glob("7.5-*")) / "solution.py").read_text()
    head = solution.split('if __name__ == "__main__":')[0]
    pairs = max(1, (nodes - 1) // 3)
    return head + (
        'if __name__ == "__main__":\n'
        "    total = Value(0.0)\n"
        f"    for i in range({pairs}):\n"
        "        total = total + Value(i / 10) * Value(0.5)\n"
        "    total.backward()\n"
        "    print(total.data)\n")


def measure(page: Page, nodes: int) -> dict[str, float]:
    set_editor_text(page, learner_file(nodes))
    page.click('[data-action="run"]')
    expect(page.locator("[data-run-status]")).to_contain_text("Ran", timeout=120_000)
    page.get_by_role("tab", name="Output").click()
    page.evaluate(OBSERVE)
    started = page.evaluate("performance.now()")
    page.get_by_role("tab", name="Graph").click()
    expect(page.locator("[data-graph-view]")).to_have_attribute("data-state", "drawn", timeout=120_000)
    page.wait_for_function("document.querySelectorAll('.graph-node').length > 0")
    drawn = page.evaluate("performance.now()") - started
    slider = page.locator("[data-graph-slider]")
    slider.press("Home")
    for _ in range(min(10, int(slider.get_attribute("max") or 0))):
        page.click("[data-graph-step]")
    slider.press("End")
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    tasks = page.evaluate("window.__longTasks")
    return {"nodes": page.locator(".graph-node").count(), "drawn_ms": drawn,
            "long_tasks": len(tasks), "longest_ms": max(tasks, default=0.0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = Server(Path(data))
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page()
            page.goto(server.url + LESSON)
            expect(page.locator("[data-python-status]")).to_have_text("Python: ready", timeout=180_000)
            rows: dict[str, list[dict[str, float]]] = {"baseline (5 nodes)": [], f"{args.nodes} nodes": []}
            for _ in range(args.runs):  # the two take turns, so both see the same load
                rows["baseline (5 nodes)"].append(measure(page, 5))
                rows[f"{args.nodes} nodes"].append(measure(page, args.nodes))
        finally:
            browser.close()
            server.stop()
    base = statistics.median(r["drawn_ms"] for r in rows["baseline (5 nodes)"])
    print(f"{'graph':<20}{'nodes drawn':>12}{'open→drawn ms':>15}{'× baseline':>12}"
          f"{'long tasks':>12}{'longest ms':>12}")
    for name, runs in rows.items():
        drawn = statistics.median(r["drawn_ms"] for r in runs)
        print(f"{name:<20}{int(runs[0]['nodes']):>12}{drawn:>15.0f}{drawn / base:>12.2f}"
              f"{sum(r['long_tasks'] for r in runs):>12}{max(r['longest_ms'] for r in runs):>12.0f}")


if __name__ == "__main__":
    main()
