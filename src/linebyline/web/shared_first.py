"""The course's pages answered before the session, the account and the rest of the middleware.

Every course page is the same for every learner and rendered once per course version
(rendered.py): reading the session, the user, the messages and the rate limits for it only costs
time. So this middleware, right after WhiteNoise, answers a GET of such a page itself, as its view
would (the view runs; nothing else does), with the framework's own Host check, CSRF cookie
handling, X-Frame-Options and Content-Length around it, as the full chain would give them. Anything else,
or a page its view does not answer with 200 or 304 (a 404, a course with errors), goes down the
full chain, which answers it as always. bench/load.py measures what this saves against a static file.
"""
from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import Resolver404, resolve

# The URL names whose pages are shared (shared_pages.py and rendered.py build them).
SHARED = frozenset({"home", "lesson", "review", "program", "my-microgpt", "end", "next-lesson",
                    "offline"})


class SharedPagesFirst:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.csrf = CsrfViewMiddleware(get_response)
        self.frames = XFrameOptionsMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self._shared(request) if request.method == "GET" else None
        return response if response is not None else self.get_response(request)

    def _shared(self, request: HttpRequest) -> HttpResponse | None:
        # As CommonMiddleware does first: a Host not in ALLOWED_HOSTS raises DisallowedHost,
        # which Django answers with 400 (and one line in the log).
        request.get_host()
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        if match.url_name not in SHARED:
            return None
        self.csrf.process_request(request)  # the csrftoken cookie the browser sent, if any
        try:
            response = match.func(request, *match.args, **match.kwargs)
        except Exception:  # noqa: BLE001 - a 404, say: the full chain answers it as always
            return None
        if response.status_code not in (200, 304):
            return None
        response = self.csrf.process_response(request, response)  # sets the cookie if new
        if not response.has_header("Content-Length"):  # as CommonMiddleware would: no chunking
            response["Content-Length"] = str(len(response.content))
        return self.frames.process_response(request, response)
