"""My microgpt: the learner's own version of a course script, assembled from their passing code.

The browser sends the learner's statuses and drafts (progress lives in the browser); the server
assembles and answers with the file and where each region came from. The same assembler serves
`linebyline assemble`, and, offline, runs in the browser's Python on the course data served here.
Nothing here runs the learner's code: it is compared and parsed only.
"""
from __future__ import annotations

import json
import threading

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.decorators import ratelimit

from ..mine.assemble import MAX_DRAFT_CHARS, STATUSES, Assembler, Work, plain_course, work_from
from . import rendered
from .pages import CourseView, course_or_error, lesson_url, runtime_version

ASSEMBLE_RATE = "120/m"  # per address: a learner clicks through seven scripts, not thousands
MAX_LESSONS = 1000  # entries in one request: a course has a few dozen lessons
_assemblers: dict[str, Assembler] = {}
_lock = threading.Lock()


def assembler(view: CourseView) -> Assembler:
    """One assembler per loaded version of the course (it remembers where blocks go)."""
    with _lock:
        if view.version not in _assemblers:
            _assemblers.clear()
            _assemblers[view.version] = Assembler(view.course)
        return _assemblers[view.version]


def script_choices(view: CourseView) -> list[dict[str, object]]:
    """Each script, with the modules that build it, for the page's chooser."""
    course = view.course
    found = []
    for name in assembler(view).script_names:
        modules = [m for m in course.modules if m.script == name]
        if name == course.program_name:
            about = "the whole program"
        elif modules:
            about = "modules " if len(modules) > 1 else "module "
            about += ", ".join(str(m.number) for m in modules) + ": " + \
                "; ".join(m.title for m in modules)
        else:
            about = ""
        found.append({"name": name, "about": about, "url": view.script_url(name)})
    return found


@require_safe
def page(request: HttpRequest) -> HttpResponse:
    view, error = course_or_error(request)
    if error:
        return error
    return rendered.respond(request, page_for(view))


def page_for(view: CourseView) -> rendered.RenderedPage:
    return rendered.shared_page(view, "my-microgpt", "linebyline/my_microgpt.html",
                                lambda: page_context(view))


def page_context(view: CourseView) -> dict[str, object]:
    scripts = script_choices(view)
    return {"scripts": scripts,
            "page_data": {"assembleUrl": reverse("my-microgpt-assemble"),
                          "assemblerUrl": assembler_url(view), "scripts": scripts,
                          "maxDraft": MAX_DRAFT_CHARS,
                          "runtimeUrl": reverse("runtime") + f"?v={runtime_version()}",
                          "recheck": {lesson.number: {
                              "checksUrl": reverse("checks", args=[f"{lesson.number}-{lesson.slug}"])
                              + f"?v={view.version}", "filename": lesson.exercise.filename}
                              for lesson in view.course.lessons()}}}


def assembler_url(view: CourseView) -> str:
    return reverse("my-microgpt-assembler") + f"?v={view.version}"


def assembler_body(view: CourseView) -> bytes:
    with _lock:
        if _plain.get(view.version) is None:
            _plain.clear()
            _plain[view.version] = json.dumps(plain_course(view.course)).encode()
        return _plain[view.version]


_plain: dict[str, bytes] = {}


@require_safe
@cache_control(public=True, max_age=3600)
def assembler_data(request: HttpRequest) -> HttpResponse:
    """The course as the assembler reads it (the URL carries the version): offline, the page
    assembles in the browser's Python with the same mine/assemble.py as here."""
    view, error = course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    return HttpResponse(assembler_body(view), content_type="application/json")


class BadRequest(Exception):
    """What is wrong with a request, in words for the page to show."""


def _read_request(request: HttpRequest, known: list[str]) -> tuple[str, dict[str, Work]]:
    try:
        body = request.body
    except RequestDataTooBig:
        raise BadRequest("Your saved code is too large to send in one go.") from None
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise BadRequest("The request is not JSON.") from None
    if not isinstance(data, dict):
        raise BadRequest("The request must be a JSON object with `script` and `lessons`.")
    script = data.get("script")
    if not isinstance(script, str) or script not in known:
        raise BadRequest(f"No script named {str(script)[:40]!r} (known: {', '.join(known)}).")
    lessons = data.get("lessons")
    if not isinstance(lessons, dict):
        raise BadRequest("`lessons` must be an object: lesson number -> {status, passed}.")
    if len(lessons) > MAX_LESSONS:
        raise BadRequest(f"`lessons` has {len(lessons):,} entries; a course has far fewer.")
    progress: dict[str, Work] = {}
    for number, entry in lessons.items():
        if not isinstance(entry, dict) or entry.get("status") not in STATUSES:
            raise BadRequest(f"Lesson {number[:20]!r}: `status` must be one of "
                             f"{', '.join(STATUSES)}.")
        # Only the code that passed its checks is the learner's (an older page sent its draft,
        # which may fail: it is not used).
        passed = entry.get("passed")
        if passed is not None and not isinstance(passed, str):
            raise BadRequest(f"Lesson {number[:20]!r}: `passed` must be text or null.")
        if passed is not None and len(passed) > MAX_DRAFT_CHARS:
            raise BadRequest(f"Lesson {number[:20]!r}: the code is {len(passed):,} characters, "
                             f"more than the {MAX_DRAFT_CHARS:,} a lesson's code can be.")
        progress[number] = work_from(entry)
    return script, progress


@require_POST
@ratelimit(key="ip", rate=ASSEMBLE_RATE, method="POST", block=False)
def assemble(request: HttpRequest) -> JsonResponse:
    """{script, lessons: {number: {status, passed, missing}}} -> the assembled file and its
    regions. `passed` is the code that passed the lesson's checks (null when none is kept;
    `missing` then says why: "not-kept", "fails-now" or "too-large")."""
    if getattr(request, "limited", False):
        return JsonResponse({"error": "Too many requests from this address in a minute; wait a "
                             "moment and try again."}, status=429)
    view, error = course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    built = assembler(view)
    try:
        script, progress = _read_request(request, built.script_names)
    except BadRequest as error:
        return JsonResponse({"error": str(error)}, status=400)
    assembly = built.assemble(script, progress)
    answer = assembly.to_dict()
    for region in answer["regions"]:
        lesson = view.course.lesson(region["lesson"])
        region["url"] = lesson_url(lesson) if lesson else ""
    return JsonResponse(answer)
