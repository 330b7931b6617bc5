"""The pages and the few JSON endpoints the browser code needs."""
from __future__ import annotations

import re

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit

from ..course.model import recall_number
from . import offline, rendered
from .forms import FeedbackForm
from .models import LessonFeedback
from .pages import checks_body, course_or_error, lesson_url, runtime_sources
from .shared_pages import home_page, next_page, offline_page, program_page, review_page

# Per learner (the account, or the browser's random id): plenty to answer every lesson and
# change one's mind; per address a ceiling that a class of 30 behind one school address stays under.
FEEDBACK_RATE_PER_LEARNER = "20/h"
FEEDBACK_RATE_PER_ADDRESS = "600/h"
BROWSER_ID = re.compile(r"^[0-9a-f]{32}$")


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    view, error = course_or_error(request)
    if error:
        return error
    return rendered.respond(request, home_page(view))


@require_safe
def next_lesson(request: HttpRequest) -> HttpResponse:
    """Where the installed app opens: the page's script goes on to the learner's next lesson
    (progress lives in the browser), or to the course home when every lesson is done."""
    view, error = course_or_error(request)
    if error:
        return error
    return rendered.respond(request, next_page(view))


@require_safe
def offline_notice(request: HttpRequest) -> HttpResponse:
    """What the service worker shows, offline, for a page that needs the server."""
    view, error = course_or_error(request)
    if error:
        return error
    return rendered.respond(request, offline_page(view))


@require_safe
def lesson_page(request: HttpRequest, path: str) -> HttpResponse:
    view, error = course_or_error(request)
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
    view, error = course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    lesson = view.lesson_by_path(path)
    if lesson is None or lesson.exercise is None:
        raise Http404("No such lesson")
    return HttpResponse(checks_body(lesson), content_type="application/json")


@require_safe
def recall_checks(request: HttpRequest, number: int) -> HttpResponse:
    """The checks of a module's recall exercise (its lessons' checks, gathered) and its solution."""
    view, error = course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    recall = view.course.item(recall_number(number))
    if recall is None:
        raise Http404("No such module, or its review has no recall exercise")
    return HttpResponse(checks_body(recall), content_type="application/json")


@require_safe
def program(request: HttpRequest) -> HttpResponse:
    view, error = course_or_error(request)
    if error:
        return error
    return rendered.respond(request, program_page(view))


@require_safe
def module_review(request: HttpRequest, number: int) -> HttpResponse:
    view, error = course_or_error(request)
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
    view, error = course_or_error(request)
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
    view, error = course_or_error(request)
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
    view, error = course_or_error(request)
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
    view, error = course_or_error(request)
    if error:
        return JsonResponse({"error": "the course has errors"}, status=500)
    return JsonResponse(offline.web_manifest(view), content_type="application/manifest+json")
