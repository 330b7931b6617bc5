"""Response headers: cross-origin isolation (for Pyodide's interrupt buffer), the Content Security
Policy, and static caching.

Django 5.2, the version Python 3.11 gets, has no Content-Security-Policy support of its own (it
arrives in Django 6.0), and the policy here is one fixed string without nonces, so it is set here
with the other headers rather than through a library.
"""
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
# Only our own files, and no inline script anywhere: hints and explanations are inserted into
# pages as HTML, so a script that slipped into one could not run. WebAssembly compilation is
# allowed for Pyodide ('wasm-unsafe-eval' allows exactly that, not eval()).
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",  # CodeMirror writes its styles into a <style> element
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = {**ISOLATION, "Content-Security-Policy": CONTENT_SECURITY_POLICY}


class SecurityHeaders:
    """Cross-origin isolation and the Content Security Policy on every response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response


def add_static_headers(headers, path: str, url: str) -> None:
    """WhiteNoise serves static files before any middleware: give them the same headers (the
    Python worker's script takes its policy from its own response)."""
    for name, value in HEADERS.items():
        headers[name] = value
    headers["Cross-Origin-Resource-Policy"] = "same-origin"


def immutable_static_file(path: str, url: str) -> bool:
    """Fingerprinted files, and Pyodide's files under their versioned folder, never change."""
    relative = url.removeprefix("/static/")
    if PYODIDE_FILE.match(relative):
        return True
    return bool(re.search(r"\.[0-9a-f]{12}\.\w+$", url))

