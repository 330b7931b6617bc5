"""Lesson pages rendered once per course version, and answered with ETag / 304 after that.

A lesson page is the same for every learner: progress lives in the browser, and the feedback
form and the event log take their CSRF token from the csrftoken cookie, not from the page. So
the lesson itself (the part that costs: Markdown, widget data, the program listing with hundreds
of formatted numbers) is rendered once per course version, and for a visitor without a session
the whole page is too, stored with its gzip form and an ETag that is the same in every server
process. A visitor with a session (signed in, or with a message to show) gets the site's header
rendered for them around the same stored lesson.
"""
from __future__ import annotations

import gzip
import hashlib
import re
import threading
import weakref
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from ..course import Lesson
from .context import assets
from .forms import FeedbackForm
from .pages import CourseView, lesson_url, widget_assets

ACCEPTS_GZIP = re.compile(r"\bgzip\b")
MESSAGES_COOKIE = "messages"  # django.contrib.messages' cookie storage


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


MASKED_CSRF_TOKEN = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')


def personal_etag(body: bytes, csrf_secret: str) -> str:
    """The ETag of a page rendered for one visitor (the sign-out form in its header). Django masks
    the form's CSRF token afresh on every render, so the token is left out and the secret it
    masks goes in instead: the copy the browser keeps stays valid exactly as long as the tag."""
    return etag_of(MASKED_CSRF_TOKEN.sub(rb"\1\2", body) + b"\0" + csrf_secret.encode())


class _PerVersion:
    """What was rendered for one CourseView; forgotten with it when the course changes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.mains: dict[str, SafeString] = {}
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


def lesson_main(view: CourseView, lesson: Lesson) -> SafeString:
    """The lesson's <article>, rendered once per course version."""
    store = _store(view)
    main = store.mains.get(lesson.number)
    if main is None:
        # Rendered outside the lock: two threads may both render a page once, never wait long.
        main = mark_safe(render_to_string("linebyline/_lesson_main.html", lesson_context(view, lesson)))
        with store.lock:
            main = store.mains.setdefault(lesson.number, main)
    return main


def page_context(view: CourseView, lesson: Lesson) -> dict[str, Any]:
    """What the page around the stored lesson needs: the rest of the context is in the lesson."""
    return {"view": view, "lesson": lesson, "widget_assets": widget_assets(lesson.explore.kind),
            "lesson_main": lesson_main(view, lesson)}


def anonymous_page(view: CourseView, lesson: Lesson) -> RenderedPage:
    """The whole page as a visitor without a session gets it, rendered once per course version
    without the request (so nothing of any one visitor can end up in it)."""
    store = _store(view)
    page = store.pages.get(lesson.number)
    if page is None:
        html = render_to_string("linebyline/lesson.html", {**page_context(view, lesson), **assets(None)})
        page = RenderedPage.of(html.encode())
        with store.lock:
            page = store.pages.setdefault(lesson.number, page)
    return page


def has_session(request: HttpRequest) -> bool:
    """Whether the page may show something of this visitor's own (who is signed in, messages)."""
    return settings.SESSION_COOKIE_NAME in request.COOKIES or MESSAGES_COOKIE in request.COOKIES


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
