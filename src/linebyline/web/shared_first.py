"""The course's pages served as files, before the session, the account and the rest of the
middleware.

Every course page is the same for every learner and rendered once per course version
(rendered.py). The first GET of such a page in a version goes to its view, as ever (with the
framework's Host check, CSRF cookie handling, X-Frame-Options and Content-Length around it, as the
full chain would give them); a page its view answers with 200 is then written to a file, with its
gzip form beside it, and from then on WhiteNoise sends that file as it sends a static file. So a
lesson page costs what a static file costs (bench/load.py measures both in the same run).

A browser without a CSRF cookie still gets the page from its view, which sets the cookie the
page's scripts send back; the file is for everyone else (a returning visitor, every page after
the first). Anything that is not a shared page, or that its view does not answer with 200 or 304
(a 404, a course with errors), goes down the full chain, which answers it as always. The files
live in a folder of this process's own, one per course version, and go with the process.
"""
from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from whitenoise.base import WhiteNoise
from whitenoise.responders import StaticFile

from ..course import CourseErrors
from . import shared_pages
from .pages import CourseView, current
from .rendered import RenderedPage

# The URL names whose pages are shared (shared_pages.py and rendered.py build them).
SHARED = frozenset({"home", "lesson", "review", "program", "my-microgpt", "end", "next-lesson",
                    "offline"})
# A CSRF cookie the framework would keep as it is (a secret, or a masked token: Django's two
# formats); any other value is replaced by the view, so that request takes the view's path.
KEPT_CSRF_COOKIE = re.compile(r"[A-Za-z0-9]{32}|[A-Za-z0-9]{64}")


class _VersionFiles:
    """One course version's pages as files, and WhiteNoise's answers for them by URL."""

    def __init__(self, view: CourseView, folder: Path) -> None:
        self.view, self.folder = view, folder
        self.etags: dict[str, str] = {}  # file path -> the page's own ETag
        self.whitenoise = WhiteNoise(application=None, max_age=None, allow_all_origins=False,
                                     add_headers_function=self._headers)
        self.lock = threading.Lock()

    def _headers(self, headers, path: str, url: str) -> None:
        # The page's content ETag (the same in every process, as the view sends); asked again on
        # every visit (the course may change); never framed, as the full chain would say.
        headers["ETag"] = self.etags[path]
        headers["Cache-Control"] = "no-cache"
        headers["X-Frame-Options"] = "DENY"

    def find(self, url: str) -> StaticFile | None:
        return self.whitenoise.files.get(url)

    def keep(self, url: str, page: RenderedPage) -> None:
        path = self.folder / (hashlib.sha256(url.encode()).hexdigest()[:24] + ".html")
        with self.lock:
            if url in self.whitenoise.files:
                return
            try:
                path.write_bytes(page.body)
                Path(f"{path}.gz").write_bytes(page.gzipped)
            except OSError:  # a full disk, say: the view goes on answering this page
                return
            self.etags[str(path)] = page.etag
            self.whitenoise.files[url] = self.whitenoise.get_static_file(str(path), url)


class SharedPagesFirst:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.csrf = CsrfViewMiddleware(get_response)
        self.frames = XFrameOptionsMiddleware(get_response)
        self._root = tempfile.TemporaryDirectory(prefix="linebyline-pages-")
        self._files: _VersionFiles | None = None
        self._lock = threading.Lock()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        # As CommonMiddleware does first: a Host not in ALLOWED_HOSTS raises DisallowedHost,
        # which Django answers with 400 (and one line in the log).
        request.get_host()
        files = self._version_files()
        if files is not None and self._has_csrf_cookie(request):
            found = files.find(request.path_info)
            if found is not None:
                return self._serve(found, request)
        response = self._from_view(request) if request.method == "GET" else None
        if response is None:
            return self.get_response(request)
        if files is not None and response.status_code == 200:
            files.keep(request.path_info, shared_pages.shared_page_for(files.view,
                                                                       request.path_info))
        return response

    @staticmethod
    def _serve(found: StaticFile, request: HttpRequest) -> HttpResponse:
        """WhiteNoise's answer (200 with the gzip file or the plain one, or 304), as one
        response in memory: a page is tens of kilobytes, read from the page cache at once."""
        answer = found.get_response(request.method, request.META)
        body = b""
        if answer.file is not None:
            with answer.file:
                body = answer.file.read()
        response = HttpResponse(body, status=int(answer.status))
        del response["Content-Type"]
        for name, value in answer.headers:
            response[name] = value
        patch_vary_headers(response, ("Cookie",))  # as the view's answer varies
        return response

    @staticmethod
    def _has_csrf_cookie(request: HttpRequest) -> bool:
        return bool(KEPT_CSRF_COOKIE.fullmatch(request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")))

    def _version_files(self) -> _VersionFiles | None:
        """The current course version's files (a new folder when the course changed), or None
        for a course with errors (its views answer with the error page)."""
        try:
            view = current.get()
        except CourseErrors:
            return None
        files = self._files
        if files is not None and files.view is view:
            return files
        with self._lock:
            if self._files is None or self._files.view is not view:
                folder = Path(self._root.name) / view.version
                folder.mkdir(exist_ok=True)
                old, self._files = self._files, _VersionFiles(view, folder)
                if old is not None:  # a response still sending an old file keeps it open
                    shutil.rmtree(old.folder, ignore_errors=True)
            return self._files

    def _from_view(self, request: HttpRequest) -> HttpResponse | None:
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
