"""POST /events/: what learners do in the Build part, batched by the browser (frontend/src/events.ts).

The body is JSON, at most MAX_BODY bytes:
    {"course": "microgpt", "browser": "<32 hex digits>", "events": [
        {"lesson": "7.5", "kind": "check", "status": "fail",
         "checks": [{"name": "...", "status": "fail", "message": "..."}]},
        {"lesson": "7.5", "kind": "hint", "hint": 2}, ...]}
Everything is validated against the current course (its lessons, their checks and hints); any
problem refuses the whole batch with 400 and a message naming it. CSRF applies as to any POST
from the browser; the terminal (`linebyline hint`, `check`, signed in) sends its token instead.
Rate limits: per address and per learner (the account, or the browser's random id).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit

from ..course import Course, CourseErrors
from ..web.pages import current
from .models import CheckFailure, LearningEvent

MAX_BODY = 32 * 1024
MAX_EVENTS = 25
MAX_MESSAGE = 500
# A classroom shares one address: room for a few dozen learners each sending every few seconds.
RATE_PER_ADDRESS = "300/m"
RATE_PER_LEARNER = "20/m"
STATUSES = {"pass", "fail", "error", "not-attempted"}
ATTEMPTED = ("pass", "fail", "error")  # a check of an untouched starter is not an attempt


class EventError(ValueError):
    """The batch is refused; the message says what is wrong with it."""


@dataclass
class Cleaned:
    lesson: str
    kind: str
    status: str = ""
    hint: int | None = None
    failures: list[tuple[str, str, str]] = field(default_factory=list)


def _text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise EventError(f"{what} must be a string")
    if len(value) > limit:
        raise EventError(f"{what} is longer than {limit} characters")
    # Text a database can store whatever the browser sent: no NUL, no lone surrogate halves.
    return value.encode("utf-8", "replace").decode("utf-8").replace("\x00", "\ufffd")


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise EventError(f"{what} must be a whole number from {low} to {high}")
    return value


def clean_event(course: Course, item: Any, where: str) -> Cleaned:
    if not isinstance(item, dict):
        raise EventError(f"{where} must be an object")
    unknown = set(item) - {"lesson", "kind", "status", "checks", "hint"}
    if unknown:
        raise EventError(f"{where} has unknown fields: {', '.join(sorted(map(str, unknown)))}")
    number = _text(item.get("lesson"), f"{where}.lesson", 10)
    lesson = course.lesson(number)
    if lesson is None:
        raise EventError(f"{where}.lesson: there is no lesson {number!r} in this course")
    kinds = [value for value, _ in LearningEvent.KINDS]
    kind = item.get("kind")
    if kind not in kinds:
        raise EventError(f"{where}.kind must be one of {', '.join(kinds)}")
    cleaned = Cleaned(lesson=number, kind=kind)
    if kind == LearningEvent.HINT:
        cleaned.hint = _whole(item.get("hint"), f"{where}.hint", 1, max(1, len(lesson.exercise.hints)))
    elif "hint" in item:
        raise EventError(f"{where}.hint belongs to hint events only")
    if kind != LearningEvent.CHECK:
        if "status" in item or "checks" in item:
            raise EventError(f"{where}: status and checks belong to check events only")
        return cleaned
    if item.get("status") not in STATUSES:
        raise EventError(f"{where}.status must be one of {', '.join(sorted(STATUSES))}")
    cleaned.status = item["status"]
    checks = item.get("checks")
    names = lesson.exercise.check_names
    if not isinstance(checks, list) or len(checks) > len(names):
        raise EventError(f"{where}.checks must be a list of at most {len(names)} checks "
                         f"(lesson {number} has {len(names)})")
    seen, errored = set(), False
    for index, check in enumerate(checks):
        here = f"{where}.checks[{index}]"
        if not isinstance(check, dict) or set(check) - {"name", "status", "message"}:
            raise EventError(f"{here} must be an object with name, status and message")
        name = _text(check.get("name"), f"{here}.name", 200)
        if name not in names:
            raise EventError(f"{here}.name: lesson {number} has no check {name!r}")
        if name in seen:
            raise EventError(f"{here}.name: check {name!r} is listed twice")
        seen.add(name)
        status = check.get("status")
        if status not in STATUSES:
            raise EventError(f"{here}.status must be one of {', '.join(sorted(STATUSES))}")
        message = _text(check.get("message", ""), f"{here}.message", MAX_MESSAGE)
        # After an error, the checks left unrun say so: they are not failures of their own.
        if cleaned.status in ATTEMPTED and (status == "fail" or status == "error" and not errored):
            cleaned.failures.append((name, status, message))
        errored = errored or status == "error"
    return cleaned


def parse(course: Course, body: bytes) -> tuple[str, list[Cleaned]]:
    """The batch's browser id and its events, or EventError."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise EventError("the body is not JSON") from None
    if not isinstance(data, dict):
        raise EventError("the body must be a JSON object")
    if data.get("course") != course.slug:
        raise EventError(f"course must be {course.slug!r}, the course this site serves")
    browser = data.get("browser")
    if not (isinstance(browser, str) and len(browser) == 32
            and all(ch in "0123456789abcdef" for ch in browser)):
        raise EventError("browser must be 32 lowercase hexadecimal digits")
    events = data.get("events")
    if not isinstance(events, list) or not 1 <= len(events) <= MAX_EVENTS:
        raise EventError(f"events must be a list of 1 to {MAX_EVENTS} events")
    return browser, [clean_event(course, item, f"events[{i}]") for i, item in enumerate(events)]


def _refused(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _learner(user, browser: str) -> str:
    return f"u{user.pk}" if user is not None else f"b{browser}"


def _who(request: HttpRequest) -> tuple[Any, JsonResponse | None]:
    """The account behind a token (the terminal), or the browser's session after Django's CSRF
    check (None when not signed in); or the refusal."""
    from ..accounts.tokens import NotSignedIn, authenticate, bearer_token, csrf_problem

    if bearer_token(request) is not None:
        try:
            return authenticate(request)[0], None
        except NotSignedIn as error:
            return None, _refused(str(error), 401)
    reason = csrf_problem(request)
    if reason:
        return None, _refused(f"refused by the CSRF check ({reason})", 403)
    return (request.user if request.user.is_authenticated else None), None


@csrf_exempt  # checked in _who, for the browser's session only: a token needs none
@require_POST
@ratelimit(key="ip", rate=RATE_PER_ADDRESS, method="POST", block=False)
def receive(request: HttpRequest) -> JsonResponse:
    if getattr(request, "limited", False):
        return _refused("too many batches of events from this address; try again in a minute", 429)
    user, refusal = _who(request)
    if refusal is not None:
        return refusal
    if request.content_type != "application/json":
        return _refused("send the events as application/json", 415)
    try:
        length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        return _refused("Content-Length is not a number")
    if length > MAX_BODY:
        return _refused(f"a batch of events may be at most {MAX_BODY} bytes", 413)
    try:
        course = current.get().course
    except CourseErrors:
        return _refused("the course has errors; events cannot be checked against it", 503)
    body = request.body
    if len(body) > MAX_BODY:
        return _refused(f"a batch of events may be at most {MAX_BODY} bytes", 413)
    try:
        browser, events = parse(course, body)
    except EventError as error:
        return _refused(str(error))
    learner = _learner(user, browser)
    if is_ratelimited(request, group="linebyline.events.learner", key=lambda group, r: learner,
                      rate=RATE_PER_LEARNER, method="POST", increment=True):
        return _refused("too many batches of events from this learner; try again in a minute", 429)
    with transaction.atomic():
        saved = LearningEvent.objects.bulk_create([
            LearningEvent(course=course.slug, lesson=e.lesson, kind=e.kind, learner=learner,
                          user=user, status=e.status, hint=e.hint) for e in events])
        CheckFailure.objects.bulk_create([
            CheckFailure(event=row, name=name, status=status, message=message)
            for row, cleaned in zip(saved, events) for name, status, message in cleaned.failures])
    return JsonResponse({"saved": len(saved)}, status=201)
