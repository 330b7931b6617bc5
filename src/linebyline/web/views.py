"""The pages and the few JSON endpoints the browser code needs."""
from __future__ import annotations

import json
import re

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import resolve
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit

from ..course import CourseErrors
from . import offline, rendered
from .forms import FeedbackForm
from .models import LessonFeedback
from .pages import current, lesson_url, runtime_sources

# Per learner (the account, or the browser's random id): plenty to answer every lesson and
# change one's mind; per address a ceiling that a class of 30 behind one school address stays under.
FEEDBACK_RATE_PER_LEARNER = "20/h"
FEEDBACK_RATE_PER_ADDRESS = "600/h"
BROWSER_ID = re.compile(r"^[0-9a-f]{32}$")


def _course_or_error(request: HttpRequest):
    try:
        return current.get(), None
    except CourseErrors as errors:
        # An author editing course files sees exactly what is wrong, file:line.
        return None, render(request, "linebyline/course_errors.html",
                            {"errors": errors.errors}, status=500)


def _home_context(view) -> dict:
    modules = []
    for module in view.course.modules:
        published = {lesson.number: lesson for lesson in module.lessons}
        entries = []
        count = max(len(module.planned), max((lesson.key[1] for lesson in module.lessons),
                                             default=0))
        for index in range(1, count + 1):
            number = f"{module.number}.{index}"
            lesson = published.get(number)
            title = lesson.title if lesson else module.planned[index - 1]
            entries.append({"number": number, "title": title, "lesson": lesson,
                            "url": lesson_url(lesson) if lesson else ""})
        modules.append({"module": module, "entries": entries})
    return {"modules": modules, "complete": view.all_published}


def home_page(view) -> rendered.RenderedPage:
    return rendered.shared_page(view, "home", "linebyline/home.html", lambda: _home_context(view))


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    view, error = _course_or_error(request)
    if error:
        return error
    return rendered.respond(request, home_page(view))


def next_page(view) -> rendered.RenderedPage:
    return rendered.shared_page(view, "next", "linebyline/next.html", dict)


@require_safe
def next_lesson(request: HttpRequest) -> HttpResponse:
    """Where the installed app opens: the page's script goes on to the learner's next lesson
    (progress lives in the browser), or to the course home when every lesson is done."""
    view, error = _course_or_error(request)
    if error:
        return error
    return rendered.respond(request, next_page(view))


def offline_page(view) -> rendered.RenderedPage:
    return rendered.shared_page(view, "offline", "linebyline/offline.html", dict)


@require_safe
def offline_notice(request: HttpRequest) -> HttpResponse:
    """What the service worker shows, offline, for a page that needs the server."""
    view, error = _course_or_error(request)
    if error:
        return error
    return rendered.respond(request, offline_page(view))


@require_safe
def lesson_page(request: HttpRequest, path: str) -> HttpResponse:
    view, error = _course_or_error(request)
    if error:
        return error
    lesson = view.lesson_by_path(path)
    if lesson is None:
        raise Http404("No such lesson")
    problems = view.computed(lesson).problems
    if problems:
        return render(request, "linebyline/course_errors.html", {"errors": problems}, status=500)
    return rendered.respond(request, rendered.lesson_page(view, lesson))


@require_safe
@cache_control(public=True, max_age=3600)
def checks(request: HttpRequest, path: str) -> HttpResponse:
    """What the browser's Python needs on Check (the URL carries the course version): the
    lesson's checks.py, and its solution, which differential checks compare the learner's
    functions with (the solution is no secret: "Stuck?" shows it)."""
    view, error = _course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    lesson = view.lesson_by_path(path)
    if lesson is None or lesson.exercise is None:
        raise Http404("No such lesson")
    return HttpResponse(checks_body(lesson), content_type="application/json")


def checks_body(lesson) -> bytes:
    return json.dumps({"checks": lesson.exercise.checks_source,
                       "reference": lesson.exercise.solution}).encode()


@require_safe
def program(request: HttpRequest) -> HttpResponse:
    view, error = _course_or_error(request)
    if error:
        return error
    return rendered.respond(request, program_page(view))


def program_page(view) -> rendered.RenderedPage:
    return rendered.shared_page(view, "program", "linebyline/program.html",
                                lambda: {"rows": view.program_rows()})


def _review_context(view, module) -> dict:
    lessons = [{"lesson": lesson, "url": lesson_url(lesson),
                "quiz": view.quiz_view(lesson.quiz, view.quiz_data(lesson), lesson),
                "lines": len(view.learned_lines(lesson))} for lesson in module.lessons]
    review_quiz = view.review_quiz_data(module)
    quiz_data = review_quiz + [item for lesson in module.lessons for item in view.quiz_data(lesson)]
    lines = sorted({n for lesson in module.lessons for n in view.learned_lines(lesson)})
    return {
        "module": module, "lessons": lessons, "quiz_data": quiz_data,
        "summary": view.html(module.review.summary, module) if module.review else "",
        "review_quiz": (view.quiz_view(module.review.quiz, review_quiz, module)
                        if module.review else []),
        "line_count": len(lines),
        "rows": [row for row in view.program_rows() if row["number"] in lines],
        "next_module": view.next_module(module)}


@require_safe
def module_review(request: HttpRequest, number: int) -> HttpResponse:
    view, error = _course_or_error(request)
    if error:
        return error
    module = next((m for m in view.course.modules if m.number == number), None)
    if module is None or not module.lessons:
        raise Http404("No such module, or none of its lessons is published yet")
    problems = [problem for lesson in module.lessons for problem in view.computed(lesson).problems]
    problems += view.computed_review(module).problems
    if problems:
        return render(request, "linebyline/course_errors.html", {"errors": problems}, status=500)
    return rendered.respond(request, review_page(view, module))


def review_page(view, module) -> rendered.RenderedPage:
    return rendered.shared_page(view, f"review {module.number}", "linebyline/review.html",
                                lambda: _review_context(view, module))


def shared_page_for(view, url: str) -> rendered.RenderedPage:
    """The stored page a URL of offline.pages() names (for its size in the offline list)."""
    from . import end, mine

    match = resolve(url)
    if match.url_name == "lesson":
        return rendered.lesson_page(view, view.lesson_by_path(match.kwargs["path"]))
    if match.url_name == "review":
        return review_page(view, next(m for m in view.course.modules
                                      if m.number == match.kwargs["number"]))
    builders = {"home": home_page, "next-lesson": next_page, "offline": offline_page,
                "program": program_page, "my-microgpt": mine.page_for, "end": end.page_for}
    return builders[match.url_name](view)


def feedback_learner(request: HttpRequest) -> str:
    """Who answers, as the teaching app names learners: "u<id>" signed in, "b<browser id>" for an
    anonymous browser that sent its id (the page does), "" when nothing says."""
    if request.user.is_authenticated:
        return f"u{request.user.pk}"
    browser = request.POST.get("browser", "")
    return f"b{browser}" if BROWSER_ID.match(browser) else ""


def _too_much_feedback(message: str) -> JsonResponse:
    return JsonResponse({"errors": {"__all__": [message]}}, status=429)


@require_POST
@ratelimit(key="ip", rate=lambda group, request: FEEDBACK_RATE_PER_ADDRESS, method="POST", block=False)
def feedback(request: HttpRequest, number: str) -> HttpResponse:
    if getattr(request, "limited", False):
        return _too_much_feedback("Thank you — we have had very many answers from your network "
                                  "in the last hour. Please try again later.")
    view, error = _course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    lesson = view.course.lesson(number)
    if lesson is None:
        raise Http404("No such lesson")
    form = FeedbackForm(request.POST)
    wants_json = "application/json" in request.headers.get("Accept", "")
    if not form.is_valid():
        errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
        return JsonResponse({"errors": errors}, status=400)
    learner = feedback_learner(request)
    if learner and is_ratelimited(request, group="linebyline.feedback.learner",
                                  key=lambda group, r: learner, rate=FEEDBACK_RATE_PER_LEARNER,
                                  method="POST", increment=True):
        return _too_much_feedback("Thank you — we have had a lot of answers from you in the last "
                                  "hour. Please try again later.")
    LessonFeedback.objects.create(
        course=view.course.slug, lesson=lesson.number, clear=form.cleaned_data["clear"],
        comment=form.cleaned_data["comment"], learner=learner,
        user=request.user if request.user.is_authenticated else None,
    )
    if wants_json:
        return JsonResponse({"saved": True}, status=201)
    return redirect(lesson_url(lesson) + "#feedback")


def rate_limited(request: HttpRequest, exception: Exception) -> JsonResponse:
    """What a view rate-limited with block=True answers (RATELIMIT_VIEW)."""
    return JsonResponse({"errors": {"__all__": [
        "Too many requests in a short time. Please try again later."]}}, status=429)


@require_safe
@cache_control(public=True, max_age=31536000, immutable=True)
def runtime_bundle(request: HttpRequest) -> JsonResponse:
    """The check runtime's Python files; the URL carries their hash, so they cache forever."""
    return JsonResponse({"files": runtime_sources()})


@require_safe
@cache_control(public=True, max_age=3600)
def script(request: HttpRequest, name: str) -> HttpResponse:
    """One of the course's scripts (microgpt.py, train0.py ...), for widgets that train it."""
    view, error = _course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    if name not in view.scripts():
        raise Http404("No such script in this course")
    text = (view.course.path / name).read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/x-python; charset=utf-8")


@require_safe
@cache_control(public=True, max_age=3600)
def dataset(request: HttpRequest) -> FileResponse:
    """The names file the browser mounts as input.txt."""
    return FileResponse(open(settings.NAMES_FILE, "rb"), content_type="text/plain; charset=utf-8")


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and tools ask for /favicon.ico whatever the page says: point them at ours."""
    return redirect(static("linebyline/favicon.svg"), permanent=True)


@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """For a load balancer or a monitor: 200 when the database answers, 503 when it does not.
    Cheap (one trivial query) and says nothing about the configuration."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that keeps the course for offline use (offline.py). Asked for by the
    browser on every visit, bypassing its cache: the answer is made once per version."""
    view, error = _course_or_error(request)
    if error:  # the worker the browser has stays, with the course as it was
        return HttpResponse("// the course has errors", status=503, content_type="text/javascript")
    script = offline.worker_script(view)
    gzipped = rendered.accepts_gzip(request)
    response = HttpResponse(script.gzipped if gzipped else script.body,
                            content_type="text/javascript; charset=utf-8")
    if gzipped:
        response["Content-Encoding"] = "gzip"
    response["ETag"] = script.etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Encoding",))
    return get_conditional_response(request, etag=script.etag, response=response)


@require_safe
@cache_control(public=True, max_age=3600)
def web_manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: name, icons and colours, for "Install"."""
    view, error = _course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    return JsonResponse(offline.web_manifest(view), content_type="application/manifest+json")
