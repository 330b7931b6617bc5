"""The JSON API: a learner's progress, read and merged (/api/progress/), for the browser's sync
and the CLI. Described by the OpenAPI document at /api/openapi.json (openapi.py); every answer is
JSON, bad input gets a 4xx with a message, and a learner only ever reaches their own progress."""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django_ratelimit.core import is_ratelimited

from ..course import CourseErrors
from ..progress import merge as pm
from ..web.pages import current
from . import store
from .contributions import flags_of
from .openapi import description
from .tokens import NotSignedIn, authenticate, bearer_token, csrf_problem

SYNC_RATE = "120/m"  # per account: the browser sends at most one batch every few seconds


def problem(status: int, message: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"error": message}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def api_view(methods: tuple[str, ...]) -> Callable:
    """JSON in and out; the method checked; who is asking settled (401 otherwise); Django's CSRF
    check for the browser's session on anything but a read (a token needs none: a browser never
    sends one by itself)."""
    def decorate(view: Callable) -> Callable:
        @csrf_exempt  # checked below, for session requests only
        @never_cache
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method not in methods:
                return problem(405, f"use {' or '.join(methods)}", Allow=", ".join(methods))
            try:
                user, token = authenticate(request)
            except NotSignedIn as error:
                return problem(401, str(error), WWW_Authenticate='Bearer realm="linebyline"')
            if token is None and request.method not in ("GET", "HEAD"):
                reason = csrf_problem(request)
                if reason:
                    return problem(403, f"refused by the CSRF check ({reason}): send the "
                                   "csrftoken cookie's value in an X-CSRFToken header")
            request.api_user, request.api_token = user, token
            return view(request, *args, **kwargs)
        return wrapped
    return decorate


def answer(value: dict, status: int = 200) -> JsonResponse:
    """JSON as compact as the stored progress (UTF-8, no padding), so that what GET answers is
    never larger than what POST takes."""
    return JsonResponse(value, status=status,
                        json_dumps_params={"ensure_ascii": False, "separators": (",", ":")})


def lesson_numbers() -> frozenset[str]:
    """The lessons of the course this server has, and its modules' recall exercises (review-7):
    the only ones an account's progress holds."""
    course = current.get()
    return frozenset([lesson.number for lesson in course.lessons]
                     + [recall.number for recall in course.course.recalls()])


def _served_course(slug: object) -> tuple[str | None, JsonResponse | None]:
    try:
        served = current.get().course.slug
    except CourseErrors:
        return None, problem(503, "the course on this server has errors; try again later")
    if not isinstance(slug, str) or not slug:
        return None, problem(400, "say which course: ?course=SLUG (this server has "
                             f'"{served}")')
    if slug != served:
        return None, problem(404, f'this server has no course "{slug[:60]}" (it has "{served}")')
    return served, None


def _limited(request: HttpRequest) -> bool:
    return is_ratelimited(request, group="progress-sync", key=lambda group, r: str(r.api_user.pk),
                          rate=SYNC_RATE, increment=True)


@api_view(("GET", "POST"))
def progress(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        course, error = _served_course(request.GET.get("course"))
        if error:
            return error
        return answer(pm.document(course, store.load(request.api_user, course, lesson_numbers()),
                                  store.load_settings(request.api_user, course)))
    if _limited(request):
        return problem(429, "too many progress updates at once; wait a minute and try again",
                       Retry_After="60")
    content_type = request.content_type or ""
    if content_type != "application/json":
        return problem(415, "send the progress document as application/json")
    declared = request.META.get("CONTENT_LENGTH") or "0"
    too_large = f"a progress document can be at most {store.MAX_BODY / 1e6:.1f} MB"
    if not declared.isdigit() or int(declared) > store.MAX_BODY:
        return problem(413, too_large)
    body = request.read(store.MAX_BODY + 1)
    if len(body) > store.MAX_BODY:
        return problem(413, too_large)
    try:
        value = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):
        return problem(400, "the body is not JSON (UTF-8)")
    try:
        slug, lessons = pm.read_document(value)
        settings = pm.read_settings(value)
    except pm.ProgressError as error:
        return problem(400, f"not a progress document: {error}")
    course, error = _served_course(slug)
    if error:
        return error
    known = lesson_numbers()
    unknown = set(lessons) - known
    if unknown:
        plural = "lessons" if len(unknown) > 1 else "lesson"
        # Named for programs too: the CLI keeps such lessons to itself rather than resending.
        return JsonResponse({"error": f'{plural} {store.named(unknown)} not in the course '
                             f'"{course}" on this server; nothing was stored',
                             "unknown": store.by_number(unknown)}, status=400)
    try:
        merged = store.merge_into(request.api_user, course, lessons, known, settings)
    except store.TooLarge as too_large:
        return problem(413, f"{too_large}; nothing was changed")
    except store.Busy:
        return problem(503, "the server is busy; try again in a moment", Retry_After="2")
    return answer(pm.document(course, merged, store.load_settings(request.api_user, course)))


def _shown_messages(request: HttpRequest) -> list[str]:
    """The messages waiting for this browser (signed in, signed out ...): pages are the same for
    everyone, so the header's script shows them. Reading them here uses them up."""
    return [str(message) for message in messages.get_messages(request)]


def _links() -> dict[str, str]:
    return {"signIn": reverse("accounts:login"), "account": reverse("accounts:account"),
            "signOut": reverse("accounts:logout"), "progress": reverse("api:progress"),
            "teach": reverse("teach")}


@never_cache
def account(request: HttpRequest) -> HttpResponse:
    """Who is signed in, and what the page header needs for them: every page is the same for
    everyone (so a service worker can keep it), and its script fills the account's part from
    this. Without credentials it answers that nobody is signed in; a bad token is a 401."""
    if request.method not in ("GET", "HEAD"):
        return problem(405, "use GET", Allow="GET")
    if bearer_token(request) is None and not request.user.is_authenticated:
        return JsonResponse({"signedIn": False, "links": _links(),
                             "messages": _shown_messages(request)})
    return _signed_in_account(request)


@api_view(("GET", "HEAD"))
def _signed_in_account(request: HttpRequest) -> HttpResponse:
    user = request.api_user
    token = request.api_token
    return JsonResponse({
        "signedIn": True, "username": user.get_username(), "name": user.first_name,
        "token": token.name if token else None,
        # The id the page's events and progress are kept under, and the quiz shuffle's seed (the
        # same choice order on every device).
        "account": str(user.pk), "learnerSeed": f"account-{user.pk}",
        **flags_of(user), "links": _links(),  # "teach", from the teaching app
        "messages": [] if token else _shown_messages(request),
    })


@api_view(("DELETE",))
def token(request: HttpRequest) -> HttpResponse:
    """Revoke the token this request is made with (`linebyline logout`)."""
    if request.api_token is None:
        return problem(400, "this request carries no token to revoke (tokens are revoked from "
                       "the account page)")
    request.api_token.delete()
    return HttpResponse(status=204)


@never_cache
def openapi(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        return problem(405, "use GET", Allow="GET")
    return JsonResponse(description())
