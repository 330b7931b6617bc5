"""A real server (`linebyline serve`) and a real browser (Debian's Chromium, driven by Playwright)."""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PYTHON_READY_S = 90  # Pyodide's first load in a cold headless browser
PAGE_TIMEOUT_MS = 20_000  # an action on the page, or what it shows, awaited this long at most


T = TypeVar("T")


def chromium_path() -> str:
    """Debian's headless shell (Chromium's engine without the desktop browser around it, which
    Playwright itself runs headless tests in: a lesson reaches "Python ready" about a quarter
    sooner on two cores, bench/chromium_builds.py), else Debian's Chromium;
    LINEBYLINE_CHROMIUM names another."""
    path = (os.environ.get("LINEBYLINE_CHROMIUM") or shutil.which("chromium-headless-shell")
            or shutil.which("chromium") or "/usr/bin/chromium")
    assert Path(path).exists(), f"Chromium is needed for the browser tests and is not at {path}"
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "LINEBYLINE_DATA_DIR": str(data_dir)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "linebyline", "serve", "--port", str(self.port)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        started = time.monotonic()
        lines = []
        assert self.process.stdout is not None
        for line in self.process.stdout:
            lines.append(line)
            if "is running at" in line:
                break
            if time.monotonic() - started > 180:
                break
        assert "is running at" in "".join(lines), "server did not start:\n" + "".join(lines)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("server-data"))
    yield running
    running.stop()


def service_workers(request: pytest.FixtureRequest) -> str:
    """"allow" for a test marked `service_worker` (offline use), else "block"."""
    return "allow" if request.node.get_closest_marker("service_worker") else "block"


@pytest.fixture(autouse=True)
def python_if_needed(browser, request: pytest.FixtureRequest) -> Iterator[None]:
    """A lesson page starts Python in the background, as a learner reads: about 2.5 s of a core.
    In a test marked `no_python` (widgets drawn in the page, accounts, sync), every context the
    test opens holds Pyodide's request instead, and the cores go to the tests that run Python."""
    browser.hold_python = bool(request.node.get_closest_marker("no_python"))
    yield
    browser.hold_python = False


@pytest.fixture
def context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport={"width": 1200, "height": 900},
                               service_workers=service_workers(request))
    yield made
    made.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    opened = context.new_page()
    opened.set_default_timeout(PAGE_TIMEOUT_MS)
    return opened


def eventually(check: Callable[[], T], what: str, timeout_s: float = 20) -> T:
    """Ask `check` again and again (every 0.1 s) until it answers something true: for what the
    page cannot signal itself, such as what the server holds. Fails naming `what`."""
    deadline = time.monotonic() + timeout_s
    while not (answer := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout_s:g} s: {what}")
        time.sleep(0.1)
    return answer


def next_frames(page: Page) -> None:
    """Wait until the page has drawn two more frames: what a resize or a script's drawing
    changes (a chart redrawn by its ResizeObserver, say) is then on screen, however busy the
    machine."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def wait_for_python(page: Page) -> None:
    page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=PYTHON_READY_S * 1000)


AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page, scope: str = "", contrast_only: bool = False) -> list[dict]:
    """WCAG 2.1 AA violations (contrast included) in the page, or in the element `scope` names;
    `contrast_only`: the colour contrast alone (all a change of colour scheme can break).

    axe is evaluated through the browser's debugging protocol, so the site's Content-Security-
    Policy (no inline scripts) does not need to be bypassed for it.
    """
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    # CodeMirror's scroller holds a contenteditable, which axe does not count as focusable
    # content: that one rule skips that one element; everything else is checked everywhere.
    return page.evaluate("""async ([scope, contrastOnly]) => {
        const root = scope ? document.querySelector(scope) : document;
        const summary = r => r.violations.map(v => ({id: v.id, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
        if (contrastOnly) return summary(await axe.run(root, {runOnly: ['color-contrast']}));
        const tags = {runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa']};
        const all = await axe.run(root,
            {...tags, rules: {'scrollable-region-focusable': {enabled: false}}});
        const scrolling = await axe.run({include: [root], exclude: [['.cm-scroller']]},
            {runOnly: ['scrollable-region-focusable']});
        return [...summary(all), ...summary(scrolling)];
    }""", [scope, contrast_only])


def assert_axe_clean_light_and_dark(page: Page, scope: str = "") -> None:
    """Every rule in light colours; in dark ones the contrast, the only rule colours can break."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        violations = axe_violations(page, scope, contrast_only=scheme == "dark")
        assert violations == [], f"{scheme}: {json.dumps(violations, indent=1)}"
    page.emulate_media(color_scheme="light")


def busy_widget_passes_axe_and_fits_a_phone(page: Page, url: str,
                                            prepare: Callable[[Page], None] | None = None) -> None:
    """The lesson's widget in the states a learner reaches (`prepare`: mistake on, cards open),
    at a phone's width: nothing scrolls sideways, and axe finds nothing in light or dark."""
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(url)
    page.wait_for_selector("[data-widget][data-mounted]")
    if prepare:
        prepare(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert_axe_clean_light_and_dark(page, "#explore")


# A Python worker of the pages' own kind, driven as a page drives it (python.ts), for many checks
# on one Pyodide where pages would start one each (about 2.5 s of a core per start).
_CHECK_IN_A_WORKER = """async ({urls, jobs}) => {
  const worker = new Worker(urls.worker, {type: "module", name: "python"});
  const secret = "tests";
  const next = (wanted) => new Promise((resolve) => {
    const heard = (event) => {
      if (wanted(event.data)) { worker.removeEventListener("message", heard); resolve(event.data); }
    };
    worker.addEventListener("message", heard);
  });
  const ready = next((m) => m.type === "ready" || m.type === "failed");
  worker.postMessage({type: "init", secret, pyodideUrl: urls.pyodide, runtimeUrl: urls.runtime,
                      datasetUrl: urls.dataset, interrupt: null});
  const started = await ready;
  if (started.type !== "ready") throw new Error(started.error);
  const results = [];
  for (const [id, job] of jobs.entries()) {
    const done = next((m) => (m.type === "done" || m.type === "crashed") && m.id === id);
    worker.postMessage({type: "check", id, secret, job});
    const answer = await done;
    results.push(answer.type === "done" ? answer.result : {status: "crashed", error: answer.error});
  }
  worker.terminate();
  return results;
}"""


def exercise_data(page: Page, url: str) -> dict:
    """The Build's data a page holds (its json_script), fetched as the browser fetches the page."""
    html = page.request.get(url).text()
    found = re.search(r'<script id="exercise-data" type="application/json">(.*?)</script>', html,
                      re.S)
    assert found, f"{url} has no Build"
    return json.loads(found.group(1))


def check_in_a_worker(page: Page, base_url: str, builds: list[tuple[str, list[str]]]
                      ) -> list[list[dict]]:
    """For each (page URL, sources): the Build's checks on each source, in the browser's Python,
    with what that page sends (its checks and reference, starters, file name). ``page`` must be
    on a page of the site that starts no Python of its own (the course home)."""
    jobs: list[dict] = []
    data: dict = {}
    for url, sources in builds:
        data = exercise_data(page, base_url + url)
        bundle = page.request.get(base_url + data["checksUrl"]).json()
        base = {"lesson": data["lesson"], "checks": bundle["checks"],
                "reference": bundle["reference"], "starter": data["starter"],
                "ownStarter": (data.get("own") or {}).get("starter", ""),
                "filename": data["filename"], "timeout": 60}
        jobs += [{**base, "source": source} for source in sources]
    body = page.locator("body")
    urls = {"worker": body.get_attribute("data-worker-url"),
            "pyodide": body.get_attribute("data-pyodide-url"),
            "dataset": body.get_attribute("data-dataset-url"), "runtime": data["runtimeUrl"]}
    results = page.evaluate(_CHECK_IN_A_WORKER, {"urls": urls, "jobs": jobs})
    grouped, index = [], 0
    for _, sources in builds:
        grouped.append(results[index:index + len(sources)])
        index += len(sources)
    return grouped


def set_editor_text(page: Page, text: str) -> None:
    """Replace everything in the editor at once, as a paste does (no auto-indent on the way)."""
    page.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)
