"""The course's pages rendered once per course version, and answered with ETag / 304 after that.

Every page of the course (home, lessons, reviews, the program, My microgpt) is the same for every
learner: progress lives in the browser, the header's account part is filled in by the page's
script from /api/account/ (account.ts), and forms take their CSRF token from the csrftoken
cookie, not from the page. So each page is rendered once per course version without the request
(nothing of any one visitor can end up in it), stored with its gzip form and an ETag that is the
same in every server process, and a signed-in learner gets it as fast as anyone: the session is
not even read. That is also what lets the service worker keep the pages for offline use.
"""
from __future__ import annotations

import gzip
import hashlib
import re
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_vary_headers

from ..course import Lesson
from .context import assets
from .forms import FeedbackForm
from .pages import CourseView, lesson_url, widget_assets

ACCEPTS_GZIP = re.compile(r"\bgzip\b")


@dataclass(frozen=True)
class RenderedPage:
    body: bytes
    gzipped: bytes
    etag: str

    @classmethod
    def of(cls, body: bytes) -> RenderedPage:
        # mtime=0: the same bytes, so the same page, in every process and after every restart.
        return cls(body, gzip.compress(body, 6, mtime=0), etag_of(body))


def etag_of(body: bytes) -> str:
    # Weak: the plain and the gzipped page are the same page (RFC 9110 8.8.3).
    return f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'


class _PerVersion:
    """What was rendered for one CourseView; forgotten with it when the course changes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pages: dict[str, RenderedPage] = {}


_rendered: weakref.WeakKeyDictionary[CourseView, _PerVersion] = weakref.WeakKeyDictionary()
_rendered_lock = threading.Lock()


def _store(view: CourseView) -> _PerVersion:
    with _rendered_lock:
        store = _rendered.get(view)
        if store is None:
            store = _rendered[view] = _PerVersion()
        return store


def lesson_context(view: CourseView, lesson: Lesson) -> dict[str, Any]:
    following = view.next_lesson(lesson)
    return {
        "view": view, "lesson": lesson, "module": view.module_of(lesson),
        "lead": view.html(lesson.lead, lesson), "where": view.html(lesson.where, lesson),
        "original_links": view.original_links(lesson),
        "widget_params": view.widget_params(lesson),
        "widget_assets": widget_assets(lesson.explore.kind),
        "watch": view.html(lesson.watch, lesson),
        "quiz": view.quiz_view(lesson.quiz, view.quiz_data(lesson), lesson),
        "quiz_data": view.quiz_data(lesson),
        "exercise": view.exercise_data(lesson),
        "rows": view.program_rows(lesson),
        "this_count": len(view.learned_lines(lesson)),
        "next_lesson": following, "next_url": lesson_url(following) if following else "",
        "module_end": view.is_module_end(lesson),
        # The last published lesson leads to the end page: what the learner built (so far).
        "course_end": following is None,
        "feedback_form": FeedbackForm(),
    }


def shared_page(view: CourseView, key: str, template: str,
                context: Callable[[], dict[str, Any]]) -> RenderedPage:
    """The page `key` as everyone gets it, rendered once per course version from `template` and
    the context `context()` makes (only called the first time)."""
    store = _store(view)
    page = store.pages.get(key)
    if page is None:
        html = render_to_string(template, {"view": view, **context(), **assets(None)})
        page = RenderedPage.of(html.encode())
        with store.lock:
            page = store.pages.setdefault(key, page)
    return page


def lesson_page(view: CourseView, lesson: Lesson) -> RenderedPage:
    return shared_page(view, f"lesson {lesson.number}", "linebyline/lesson.html",
                       lambda: lesson_context(view, lesson))


def respond(request: HttpRequest, page: RenderedPage) -> HttpResponse:
    """A stored page, gzipped when the browser takes it, or 304 when it has it already."""
    if "CSRF_COOKIE" not in request.META:
        get_token(request)  # sets the cookie the page's forms and scripts send back
    if accepts_gzip(request):
        response = HttpResponse(page.gzipped, content_type="text/html; charset=utf-8")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(page.body, content_type="text/html; charset=utf-8")
    response["ETag"] = page.etag
    response["Cache-Control"] = "no-cache"  # keep it, but ask every time: the course may change
    patch_vary_headers(response, ("Cookie", "Accept-Encoding"))
    return get_conditional_response(request, etag=page.etag, response=response)


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
