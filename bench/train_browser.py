"""Training in the My microgpt page against bare Pyodide, in one headless Chromium run.

    .venv/bin/python bench/train_browser.py [--steps 1000] [--script microgpt.py] [--port 8630]

1. Bare: the same script (num_steps set to --steps) run by Pyodide alone in a module worker of
   the same browser, its printing discarded: the baseline.
2. The app, once to keep the reference run in the browser (the first run trains the reference
   beside yours, so two workers share the machine), then measured: Train pressed until the page
   says "Done", while a PerformanceObserver records every main-thread task over 50 ms.
Prints both times, their ratio (target: at most 1.1), and the longest main-thread task while
training. With --trace FILE it also records a Chrome trace of the measured run and prints what the
page's main thread spent on its tasks (the longest ones by part: script, layout, paint, the commit
to the compositor), to find what a long task was. Not part of CI: it never fails on a time.
"""
from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

from in_chromium import app_in_chromium
from playwright.sync_api import Page

from linebyline.course import default_course_path

BARE_WORKER = """
self.onmessage = async (event) => {
  const { pyodideUrl, source, dataset } = event.data;
  const { loadPyodide } = await import(pyodideUrl + "pyodide.mjs");
  const py = await loadPyodide({ indexURL: pyodideUrl });
  py.setStdout({ batched: () => {} });
  py.FS.writeFile("/home/pyodide/input.txt", dataset);
  py.runPython('import os; os.chdir("/home/pyodide")');
  const started = performance.now();
  py.runPython(source);
  self.postMessage({ seconds: (performance.now() - started) / 1000 });
};
"""
LONG_TASKS = """
window.__longest = 0;
window.__long = 0;
window.__tasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (window.__measuring) {
      window.__longest = Math.max(window.__longest, entry.duration);
      window.__long += 1;
      window.__tasks.push([(entry.startTime - window.__started) / 1000, entry.duration]);
    }
  }
}).observe({ type: "longtask", buffered: false });
"""


def bare_run(page: Page, url: str, source: str, timeout_s: float) -> float:
    page.goto(url + "/my-microgpt/")
    return page.evaluate("""async ([source, timeout]) => {
        const dataset = await (await fetch(document.body.dataset.datasetUrl)).text();
        const worker = new Worker("/bench-bare-worker.js", { type: "module" });
        const seconds = await new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error("bare run timed out")), timeout);
            worker.onmessage = (event) => { clearTimeout(timer); resolve(event.data.seconds); };
            worker.onerror = (event) => reject(new Error(event.message));
            worker.postMessage({ pyodideUrl: document.body.dataset.pyodideUrl, source, dataset });
        });
        worker.terminate();
        return seconds;
    }""", [source, timeout_s * 1000])


def app_run(page: Page, steps: int, timeout_s: float) -> tuple[float, str]:
    """Seconds from pressing Train to the page's "Done", and what the page said.

    The Train button is marked busy with aria-disabled (it keeps the keyboard focus), and the
    last run's "Done: ..." stays on the page: so the run counts as started only once the button
    says it is busy, and as finished once it is free again with a new "Done"."""
    page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=180_000)
    page.fill("[data-steps]", str(steps))
    button = "[data-action='train']"
    page.evaluate("window.__measuring = true; window.__started = performance.now()")
    started = time.perf_counter()
    page.click(button)
    page.wait_for_selector(f"{button}[aria-disabled='true']", timeout=60_000)
    page.wait_for_function(
        "() => /^Done: /.test(document.querySelector(\"[data-readout='progress']\").textContent)"
        f" && document.querySelector(\"{button}\").getAttribute('aria-disabled') !== 'true'",
        timeout=timeout_s * 1000, polling=50)
    seconds = time.perf_counter() - started
    page.evaluate("window.__measuring = false")
    said = page.inner_text("[data-readout='progress']")
    done = re.match(r"Done: ([\d,]+) steps?", said)
    if not done or int(done.group(1).replace(",", "")) != steps:
        raise SystemExit(f"the app did not train {steps} steps: the page says {said!r}")
    return seconds, said


def plausible(app: float, bare: float) -> None:
    """A run of the app faster than half of bare Pyodide's did not train: fail loudly."""
    if app < 0.5 * bare:
        raise SystemExit(f"implausible: the app's run took {app:.1f} s against {bare:.1f} s in "
                         "bare Pyodide; it cannot have trained (the bench measures nothing)")


TRACE_CATEGORIES = ["devtools.timeline", "toplevel", "disabled-by-default-devtools.timeline"]
TASK_PARTS = ["FunctionCall", "FireAnimationFrame", "Layout", "UpdateLayoutTree", "Paint", "Layerize",
              "Commit", "MinorGC", "MajorGC"]


def summarise_trace(path: str) -> None:
    """The page's main-thread tasks in a Chrome trace: how long, and the longest by part."""
    loaded = json.loads(Path(path).read_text(encoding="utf-8"))
    events = loaded["traceEvents"] if isinstance(loaded, dict) else loaded
    threads = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M"
               and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    timed = [e for e in events if e.get("ph") == "X" and (e["pid"], e.get("tid")) in threads]
    frames = {(e["pid"], e["tid"]) for e in timed if e["name"] == "FireAnimationFrame"}
    timed = sorted((e for e in timed if (e["pid"], e["tid"]) in frames), key=lambda e: e["ts"])
    tasks = sorted((e for e in timed if e["name"] == "RunTask"), key=lambda e: -e["dur"])
    if not tasks:
        print("the trace holds no task of the page's main thread")
        return
    ms = sorted(e["dur"] / 1000 for e in tasks)
    def at(q: float) -> float:
        return ms[min(len(ms) - 1, int(q * len(ms)))]
    print(f"main-thread tasks in the trace: {len(ms)}; median {at(0.5):.1f} ms, 99th percentile "
          f"{at(0.99):.1f} ms, longest {ms[-1]:.1f} ms")
    for task in tasks[:3]:
        end = task["ts"] + task["dur"]
        parts = {name: 0.0 for name in TASK_PARTS}
        inside = {name: 0 for name in TASK_PARTS}  # a part nested in one of its kind counts once
        for e in timed:
            name = e["name"]
            if task["ts"] <= e["ts"] < end and name in parts and e["ts"] >= inside[name]:
                parts[name] += e.get("dur", 0) / 1000
                inside[name] = e["ts"] + e.get("dur", 0)
        shown = ", ".join(f"{name} {value:.1f}" for name, value in parts.items() if value >= 0.5)
        print(f"  a task of {task['dur'] / 1000:.1f} ms: {shown or 'no known part'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--script", default="microgpt.py")
    parser.add_argument("--port", type=int, default=8630, help="for the server (8630)")
    parser.add_argument("--trace", metavar="FILE", help="record a Chrome trace of the measured run here")
    args = parser.parse_args()
    source = (default_course_path() / args.script).read_text(encoding="utf-8")
    source = re.sub(r"^num_steps = \d+$", f"num_steps = {args.steps}", source, flags=re.M)
    timeout_s = max(600.0, args.steps * 2.0)
    scripts = {"bench-bare-worker.js": BARE_WORKER}
    with app_in_chromium(args.port, scripts, LONG_TASKS) as (url, browser, page):
        print(f"{args.script}, {args.steps} steps, headless Chromium", flush=True)
        bare = bare_run(page, url, source, timeout_s)
        print(f"bare Pyodide in a module worker: {bare:8.1f} s", flush=True)
        page.goto(url + "/my-microgpt/")
        page.select_option("[data-script-choice]", args.script)
        warm, _ = app_run(page, args.steps, timeout_s)
        plausible(warm, bare)
        print(f"(the app's first run, with the reference beside it: {warm:.1f} s)", flush=True)
        page.evaluate("window.__longest = 0; window.__long = 0; window.__tasks = []")
        if args.trace:
            browser.start_tracing(page=page, path=args.trace, categories=TRACE_CATEGORIES)
        app, said = app_run(page, args.steps, timeout_s)
        plausible(app, bare)
        if args.trace:
            browser.stop_tracing()
        longest = page.evaluate("window.__longest")
        count = page.evaluate("window.__long")
        print(f"the app (reference kept):        {app:8.1f} s   page: {said}")
        print(f"ratio app / bare:                {app / bare:8.2f}   (target <= 1.1)")
        print(f"main-thread tasks over 50 ms while training: {count}"
              + (f" (the longest {longest:.0f} ms)" if count else ""))
        for at, duration in page.evaluate("window.__tasks"):  # when, to find what it was
            print(f"  a task of {duration:.0f} ms, {at:.1f} s after Train (of {app:.1f} s)")
    if args.trace:
        summarise_trace(args.trace)

if __name__ == "__main__":
    main()
