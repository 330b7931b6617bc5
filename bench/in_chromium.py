"""The app served on a port and opened in headless Chromium, for the benches that measure workers.

Each such bench also serves a worker script of its own (bare Pyodide, a probe) from the app's
origin, with the headers a cross-origin-isolated page needs to start it.
"""
from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page, Route, sync_playwright  # noqa: E402

import tests.browser.conftest as browser_setup  # noqa: E402


def worker_script(body: str) -> Callable[[Route], None]:
    def serve(route: Route) -> None:
        route.fulfill(status=200, body=body, headers={
            "Content-Type": "text/javascript", "Cross-Origin-Embedder-Policy": "require-corp",
            "Cross-Origin-Resource-Policy": "same-origin"})
    return serve


@contextmanager
def app_in_chromium(port: int, scripts: dict[str, str], init_script: str = ""
                    ) -> Iterator[tuple[str, Browser, Page]]:
    """(the app's URL, the browser, a page) with each of `scripts` served at /<name>."""
    browser_setup.free_port = lambda: port  # the server listens on the port asked for
    server = browser_setup.Server(Path(tempfile.mkdtemp(prefix="bench-")))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=browser_setup.chromium_path(),
                                                 args=browser_setup.CHROMIUM_FLAGS)
            context = browser.new_context()
            for name, body in scripts.items():
                context.route(f"**/{name}", worker_script(body))
            page = context.new_page()
            if init_script:
                page.add_init_script(init_script)
            yield server.url, browser, page
            browser.close()
    finally:
        server.stop()
