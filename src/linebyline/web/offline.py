"""The course offline: what the service worker keeps, the worker itself, and the app manifest.

After a first visit the browser keeps every page of the course (home, lessons, reviews, the
program, My microgpt), the browser code, Pyodide and the check runtime, each lesson's checks, the
scripts the widgets and My microgpt fetch, the names, and what My microgpt assembles with, so the
whole course works without a network. The list is worked out here from the course and the build,
never written by hand: a lesson published tomorrow is in it tomorrow.

The worker is served at /sw.js (its scope is the whole site) as the bundled frontend/src/sw.ts
with this list in front of it. Its version is a digest of the list, the course version and the
build: when any of them changes the script's bytes change, the browser installs the new worker in
the background (it copies what has not changed from the old cache: a new lesson does not download
Pyodide again), and the page offers to reload. What needs the server (accounts, the API, events,
teaching, feedback) is never in the list, and the worker never stores anything else.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import threading
import weakref
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse

from .context import THEME_COLORS, assets
from .pages import CourseView, checks_body, lesson_url, runtime_sources, runtime_version
from .rendered import RenderedPage

PACKAGE_STATIC = Path(__file__).parent / "static"
DIST = PACKAGE_STATIC / "linebyline" / "dist"
WORKER_SOURCE = DIST / "sw.js"
# Only for the teacher's pages, or the worker itself: not kept.
NOT_KEPT_BUILT = ("teach.js", "teach.css", "sw.js")
ICONS = {"192": "linebyline/icons/icon-192.png", "512": "linebyline/icons/icon-512.png",
         "maskable": "linebyline/icons/icon-maskable-512.png"}
# Paths that need the server: the worker never keeps them (tests/web/test_offline.py holds the
# list to it), and a page of them opened offline says so instead of the browser's error.
SERVER_ONLY = ("/api/", "/accounts/", "/events/", "/teach/", "/classes/", "/admin/",
               "/feedback/", "/my-microgpt/assemble", "/healthz", "/sw.js")
BACKGROUND = "#ffffff"  # site.css --bg


@dataclass(frozen=True)
class Entry:
    url: str
    bytes: int  # about what it costs to download (compressed where the server compresses)
    fixed: bool  # the URL names its content: a copy kept under an older version is still right


def _size(data: bytes) -> int:
    return len(gzip.compress(data, 6, mtime=0)) if len(data) > 200 else len(data)


def _static_size(name: str) -> int:
    """A static file's size as served: its .gz copy where `serve` made one."""
    for base in (Path(settings.STATIC_ROOT), PACKAGE_STATIC):
        path = base / name
        packed = path.with_name(path.name + ".gz")
        if packed.is_file():
            return packed.stat().st_size
        if path.is_file():
            return path.stat().st_size
    return 0


def _static_entries() -> list[Entry]:
    """The browser code (but the teacher's), the icons and Pyodide's files."""
    entries = [Entry(static("linebyline/favicon.svg"), _static_size("linebyline/favicon.svg"), True)]
    entries += [Entry(static(name), _static_size(name), True) for name in ICONS.values()]
    for path in sorted(DIST.rglob("*")):
        relative = path.relative_to(PACKAGE_STATIC).as_posix()
        if not path.is_file() or path.name in NOT_KEPT_BUILT:
            continue
        # The pages name the entry points through {% static %} (fingerprinted); the entry points
        # import their chunks by the plain names esbuild gave them (which carry a hash).
        chunk = path.parent.name == "chunks"
        url = settings.STATIC_URL + relative if chunk else static(relative)
        entries.append(Entry(url, _static_size(relative), True))
    pyodide = str(assets(None)["pyodide_url"])
    folder = PACKAGE_STATIC / pyodide.removeprefix(settings.STATIC_URL)
    for path in sorted(folder.glob("*")):
        relative = path.relative_to(PACKAGE_STATIC).as_posix()
        entries.append(Entry(pyodide + path.name, _static_size(relative), True))
    return entries


@cache
def build_id() -> str:
    """What the build put in the static folder, by content: the browser code and Pyodide's folder
    (its name carries its version and the standard library's digest), and the names file."""
    digest = hashlib.sha256()
    for path in sorted(DIST.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(DIST).as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(str(assets(None)["pyodide_url"]).encode())
    digest.update(Path(settings.NAMES_FILE).read_bytes())
    return digest.hexdigest()[:16]


def pages(view: CourseView) -> list[str]:
    """Every page of the course a learner opens, in the order worth keeping first."""
    found = [reverse("home"), reverse("next-lesson"), reverse("offline"), reverse("program"),
             reverse("my-microgpt")]
    for module in view.course.modules:
        found += [lesson_url(lesson) for lesson in module.lessons]
        if module.lessons:
            found.append(reverse("review", args=[module.number]))
    return found + [reverse("end")]


def _course_entries(view: CourseView) -> list[Entry]:
    """What the course's pages fetch as they run (each URL carries the version it is of)."""
    from . import mine  # its view answers the assembler's URL: sized from the very same bytes

    entries = []
    for lesson in view.lessons:
        if lesson.exercise is not None:
            body = checks_body(lesson)
            entries.append(Entry(view.exercise_data(lesson)["checksUrl"], _size(body), True))
    for recall in view.course.recalls():
        entries.append(Entry(view.exercise_data(recall)["checksUrl"],
                             _size(checks_body(recall)), True))
    for name in sorted(view.scripts()):
        text = (view.course.path / name).read_bytes()
        entries.append(Entry(view.script_url(name), _size(text), True))
    entries.append(Entry(mine.assembler_url(view), _size(mine.assembler_body(view)), True))
    runtime = json.dumps({"files": runtime_sources()}).encode()
    entries.append(Entry(reverse("runtime") + f"?v={runtime_version()}", _size(runtime), True))
    entries.append(Entry(reverse("dataset"), _size(Path(settings.NAMES_FILE).read_bytes()), False))
    described = json.dumps(web_manifest(view)).encode()
    entries.append(Entry(reverse("web-manifest"), _size(described), False))
    return entries


def _page_entries(view: CourseView) -> list[Entry]:
    from .shared_pages import shared_page_for

    return [Entry(url, len(shared_page_for(view, url).gzipped), False)
            for url in pages(view)]


@dataclass(frozen=True)
class Manifest:
    version: str
    pages: list[str]
    offline_page: str
    server_only: tuple[str, ...]
    entries: list[Entry]

    @property
    def bytes(self) -> int:
        return sum(entry.bytes for entry in self.entries)

    def to_json(self) -> str:
        return json.dumps({"version": self.version, "pages": self.pages,
                           "offlinePage": self.offline_page, "serverOnly": self.server_only,
                           "bytes": self.bytes, "entries": [asdict(e) for e in self.entries]},
                          separators=(",", ":"))


def manifest(view: CourseView) -> Manifest:
    """What the worker of this course version and build keeps (computed once per version)."""
    with _lock:
        found = _manifests.get(view)
        if found is not None and found[0] == build_id():
            return found[1]
    entries = _static_entries() + _course_entries(view) + _page_entries(view)
    listed = json.dumps([asdict(e) for e in entries]).encode()
    version = hashlib.sha256(listed + view.version.encode() + build_id().encode()).hexdigest()[:16]
    made = Manifest(version, pages(view), reverse("offline"), SERVER_ONLY, entries)
    with _lock:
        _manifests[view] = (build_id(), made)
    return made


_manifests: weakref.WeakKeyDictionary[CourseView, tuple[str, Manifest]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def worker_script(view: CourseView) -> RenderedPage:
    """/sw.js: the bundled worker, with what it keeps in front of it (made once per version)."""
    kept = manifest(view)
    with _lock:
        found = _scripts.get(kept.version)
    if found is None:
        source = WORKER_SOURCE.read_bytes()
        found = RenderedPage.of(b"self.LINEBYLINE_OFFLINE=" + kept.to_json().encode() + b";\n"
                                + source)
        with _lock:
            _scripts.clear()  # only the current version's is asked for
            _scripts[kept.version] = found
    return found


_scripts: dict[str, RenderedPage] = {}


def web_manifest(view: CourseView) -> dict[str, object]:
    """The web app manifest: Chromium offers to install the course, which opens at the learner's
    next lesson (/next/ finds it in the browser's progress)."""
    return {
        "id": "/", "name": f"linebyline: {view.course.title}", "short_name": "linebyline",
        "description": f"Build {view.course.program_name} line by line, in your browser.",
        "start_url": reverse("next-lesson"), "scope": "/", "display": "standalone",
        "theme_color": THEME_COLORS["light"], "background_color": BACKGROUND,
        "icons": [
            {"src": static(ICONS["192"]), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static(ICONS["512"]), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static(ICONS["maskable"]), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
