"""Response headers: cross-origin isolation (for Pyodide's interrupt buffer) and static caching."""
from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# SharedArrayBuffer, which the Stop button and the time limit need to interrupt Python in its
# worker, exists only on cross-origin isolated pages: these two headers make a page so.
ISOLATION = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}
PYODIDE_FILE = re.compile(r"^pyodide/\d+\.\d+\.\d+[^/]*/")


class CrossOriginIsolation:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        for name, value in ISOLATION.items():
            response.headers.setdefault(name, value)
        return response


def add_static_headers(headers, path: str, url: str) -> None:
    """WhiteNoise serves static files before any middleware: give them the same isolation."""
    for name, value in ISOLATION.items():
        headers[name] = value
    headers["Cross-Origin-Resource-Policy"] = "same-origin"


def immutable_static_file(path: str, url: str) -> bool:
    """Fingerprinted files, and Pyodide's files under their versioned folder, never change."""
    relative = url.removeprefix("/static/")
    if PYODIDE_FILE.match(relative):
        return True
    return bool(re.search(r"\.[0-9a-f]{12}\.\w+$", url))
