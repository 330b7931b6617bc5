"""POST /events/: what learners do in the Build part, batched by the browser (frontend/src/events.ts).

The body is JSON, at most MAX_BODY bytes:
    {"course": "microgpt", "browser": "<32 hex digits>", "account": "<id>" or "",
     "sent": <ms, the browser's clock>, "events": [
        {"id": "<32 hex digits>", "at": <ms>, "lesson": "7.5", "kind": "check", "status": "fail",
         "checks": [{"name": "...", "status": "fail", "message": "..."}], "code": "..."},
        {"id": "...", "at": <ms>, "lesson": "7.5", "kind": "hint", "hint": 2}, ...]}
Everything is validated against the current course (its lessons, their checks and hints); any
problem refuses the whole batch with 400 and a message naming it. CSRF applies as to any POST
from the browser; the terminal (`linebyline hint`, `check`, signed in) sends its token instead.

- `id` (the browser makes it up) makes sending twice harmless: an event is stored once per
  learner and id, so the browser can resend whatever it is not sure arrived.
- `at` and `sent` say how long before sending each event happened, on the browser's own clock,
  so a batch that waited offline keeps its times whatever that clock says.
- `account` is who the page was signed in as when the events happened ("" for nobody): events
  of another account than the one signed in now are refused with 409 (the browser keeps them
  for that account), and "" stores them as the anonymous browser's, even from a signed-in page.
- `code` (check events) is kept for a signed-in learner only, for their teachers.
- a check may carry a `fix` (the course's own line, which the learner is shown later): it is
  accepted and not stored, so no teacher sees it as something the learner saw.
Rate limits: per learner (the account, or the browser's id), and a ceiling per address sized
for a class of 30 behind one school address.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited
from django_ratelimit.decorators import ratelimit

from ..course import Course, CourseErrors
from ..progress.merge import MAX_DRAFT, utf16_length
from ..web.pages import current
from .failures import failing, first_failure
from .models import CheckFailure, LearningEvent

MAX_BODY = 2 * 1024 * 1024  # a batch may carry the code of a few checks (each up to MAX_CODE)
MAX_EVENTS = 25
MAX_MESSAGE = 500
MAX_FIX = 2000
MAX_CODE = MAX_DRAFT  # the editor's own limit: any code a learner can check fits
MAX_AGE = timedelta(days=30)  # an event older than this, by the browser's account, is dated so
MAX_TIME = 2**53 - 1
# A learner sends a batch every few seconds at most; a class of 30 shares one address.
RATE_PER_LEARNER = "60/m"
RATE_PER_ADDRESS = "1800/m"
STATUSES = {"pass", "fail", "error", "not-attempted"}
CHECK_STATUSES = STATUSES | {"not-run"}
ATTEMPTED = ("pass", "fail", "error")  # a check of an untouched starter is not an attempt
HEX32 = re.compile(r"^[0-9a-f]{32}$")


class EventError(ValueError):
    """The batch is refused; the message says what is wrong with it, and ``unknown`` names the
    lessons this course lacks (a terminal keeps their events and resends the rest)."""

    def __init__(self, message: str, unknown: list[str] | None = None) -> None:
        super().__init__(message)
        self.unknown = list(unknown or [])


@dataclass
class Cleaned:
    lesson: str
    kind: str
    client_id: str = ""
    at: int | None = None
    status: str = ""
    hint: int | None = None
    passed: int | None = None
    total: int | None = None
    code: str = ""
    # (name, status, message, first): every check that failed, the run's first marked
    failures: list[tuple[str, str, str, bool]] = field(default_factory=list)


@dataclass
class Batch:
    browser: str
    account: str | None  # None: the page did not say (an older page): whoever is signed in
    sent: int | None
    events: list[Cleaned]


def _storable(text: str) -> str:
    # Text a database can store whatever the browser sent: no NUL, no lone surrogate halves.
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "\ufffd")


def _text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise EventError(f"{what} must be a string")
    if len(value) > limit:
        raise EventError(f"{what} is longer than {limit} characters")
    return _storable(value)


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise EventError(f"{what} must be a whole number from {low} to {high}")
    return value


def _code(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise EventError(f"{what} must be a string")
    if utf16_length(value) > MAX_CODE:  # as the editor counts
        raise EventError(f"{what} is longer than {MAX_CODE} characters")
    return _storable(value)


def _clean_checks(item: dict, lesson, where: str, cleaned: Cleaned) -> None:
    checks = item.get("checks")
    names = lesson.exercise.check_names
    if not isinstance(checks, list) or len(checks) > len(names):
        raise EventError(f"{where}.checks must be a list of at most {len(names)} checks "
                         f"(lesson {cleaned.lesson} has {len(names)})")
    seen: set[str] = set()
    outcomes = []
    for index, check in enumerate(checks):
        here = f"{where}.checks[{index}]"
        if not isinstance(check, dict) or set(check) - {"name", "status", "message", "fix"}:
            raise EventError(f"{here} must be an object with name, status and message (and fix)")
        name = _text(check.get("name"), f"{here}.name", 200)
        if name not in names:
            raise EventError(f"{here}.name: lesson {cleaned.lesson} has no check {name!r}")
        if name in seen:
            raise EventError(f"{here}.name: check {name!r} is listed twice")
        seen.add(name)
        status = check.get("status")
        if status not in CHECK_STATUSES:
            raise EventError(f"{here}.status must be one of {', '.join(sorted(CHECK_STATUSES))}")
        message = _text(check.get("message", ""), f"{here}.message", MAX_MESSAGE)
        if "fix" in check:
            _text(check["fix"], f"{here}.fix", MAX_FIX)  # checked, never stored (see above)
        outcomes.append((name, status, message))
    cleaned.total = len(outcomes)
    cleaned.passed = sum(status == "pass" for _, status, _ in outcomes)
    if cleaned.status in ATTEMPTED:
        first = first_failure([status for _, status, _ in outcomes])
        cleaned.failures = [(name, status, message, index == first)
                            for index, (name, status, message) in enumerate(outcomes) if failing(status)]


def clean_event(course: Course, item: Any, where: str) -> Cleaned:
    if not isinstance(item, dict):
        raise EventError(f"{where} must be an object")
    unknown = set(item) - {"id", "at", "lesson", "kind", "status", "checks", "hint", "code"}
    if unknown:
        raise EventError(f"{where} has unknown fields: {', '.join(sorted(map(str, unknown)))}")
    number = _text(item.get("lesson"), f"{where}.lesson", 10)
    lesson = course.item(number)  # a lesson, or a module's recall exercise (review-7)
    if lesson is None:
        raise EventError(f"{where}.lesson: there is no lesson {number!r} in this course")
    kinds = [value for value, _ in LearningEvent.KINDS]
    kind = item.get("kind")
    if kind not in kinds:
        raise EventError(f"{where}.kind must be one of {', '.join(kinds)}")
    cleaned = Cleaned(lesson=number, kind=kind)
    if "id" in item:
        if not (isinstance(item["id"], str) and HEX32.match(item["id"])):
            raise EventError(f"{where}.id must be 32 lowercase hexadecimal digits")
        cleaned.client_id = item["id"]
    if "at" in item:
        cleaned.at = _whole(item["at"], f"{where}.at", 0, MAX_TIME)
    if kind == LearningEvent.HINT:
        cleaned.hint = _whole(item.get("hint"), f"{where}.hint", 1, max(1, len(lesson.exercise.hints)))
    elif "hint" in item:
        raise EventError(f"{where}.hint belongs to hint events only")
    if kind != LearningEvent.CHECK:
        if "status" in item or "checks" in item or "code" in item:
            raise EventError(f"{where}: status, checks and code belong to check events only")
        return cleaned
    if item.get("status") not in STATUSES:
        raise EventError(f"{where}.status must be one of {', '.join(sorted(STATUSES))}")
    cleaned.status = item["status"]
    if "code" in item:
        cleaned.code = _code(item["code"], f"{where}.code")
    _clean_checks(item, lesson, where, cleaned)
    return cleaned


def parse(course: Course, body: bytes) -> Batch:
    """The batch, or EventError."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise EventError("the body is not JSON") from None
    if not isinstance(data, dict):
        raise EventError("the body must be a JSON object")
    if data.get("course") != course.slug:
        raise EventError(f"course must be {course.slug!r}, the course this site serves")
    browser = data.get("browser")
    if not (isinstance(browser, str) and HEX32.match(browser)):
        raise EventError("browser must be 32 lowercase hexadecimal digits")
    account = data.get("account")
    if account is not None and not (isinstance(account, str) and (account == "" or account.isdecimal())
                                    and len(account) <= 20):
        raise EventError('account must be the id of the account the page was signed in as, or ""')
    sent = _whole(data["sent"], "sent", 0, MAX_TIME) if "sent" in data else None
    events = data.get("events")
    if not isinstance(events, list) or not 1 <= len(events) <= MAX_EVENTS:
        raise EventError(f"events must be a list of 1 to {MAX_EVENTS} events")
    missing = sorted({item["lesson"] for item in events if isinstance(item, dict)
                      and isinstance(item.get("lesson"), str) and len(item["lesson"]) <= 10
                      and course.item(item["lesson"]) is None})
    if missing:
        raise EventError(f"there is no lesson {', '.join(map(repr, missing))} in this course",
                         unknown=missing)
    return Batch(browser, account, sent,
                 [clean_event(course, item, f"events[{i}]") for i, item in enumerate(events)])


def _refused(message: str, status: int = 400, unknown: list[str] | None = None) -> JsonResponse:
    return JsonResponse({"error": message, **({"unknown": unknown} if unknown else {})},
                        status=status)


def _limited(request: HttpRequest, group: str, key: str, rate: str) -> bool:
    return is_ratelimited(request, group=group, key=lambda group, r: key, rate=rate,
                          method="POST", increment=True)


def _when(now, sent: int | None, at: int | None):
    """When the learner did it: `sent - at` before now, on the browser's clock (never later than
    now, and at most MAX_AGE before)."""
    if sent is None or at is None:
        return now
    age = timedelta(milliseconds=min(max(sent - at, 0), MAX_AGE / timedelta(milliseconds=1)))
    return now - age


def store(course: str, learner: str, user, batch: Batch) -> tuple[int, int]:
    """Store the batch's events not stored before (by learner and id): (stored now, already had)."""
    now = timezone.now()
    wanted: dict[str, Cleaned] = {}
    unnamed: list[Cleaned] = []  # from an older page: no id, so no way to tell a repeat
    for event in batch.events:
        if event.client_id:
            wanted.setdefault(event.client_id, event)
        else:
            unnamed.append(event)

    def row(event: Cleaned) -> LearningEvent:
        return LearningEvent(course=course, lesson=event.lesson, kind=event.kind, learner=learner,
                             user=user, client_id=event.client_id, status=event.status,
                             passed=event.passed, total=event.total, hint=event.hint,
                             code=event.code if user is not None else "",
                             created=_when(now, batch.sent, event.at))

    with transaction.atomic():
        known = set(LearningEvent.objects.filter(learner=learner, client_id__in=list(wanted))
                    .values_list("client_id", flat=True))
        fresh = [event for client_id, event in wanted.items() if client_id not in known]
        # Two copies of a batch arriving at once both get here: the unique constraint lets one in.
        LearningEvent.objects.bulk_create([row(event) for event in fresh], ignore_conflicts=True)
        ids = dict(LearningEvent.objects.filter(learner=learner, client_id__in=[e.client_id for e in fresh])
                   .values_list("client_id", "id"))
        saved = [(ids[event.client_id], event) for event in fresh if event.client_id in ids]
        plain = LearningEvent.objects.bulk_create([row(event) for event in unnamed])
        saved += [(made.pk, event) for made, event in zip(plain, unnamed)]
        CheckFailure.objects.bulk_create([
            CheckFailure(event_id=pk, name=name, status=status, message=message, first=first)
            for pk, event in saved for name, status, message, first in event.failures],
            ignore_conflicts=True)
    return len(fresh) + len(unnamed), len(batch.events) - len(fresh) - len(unnamed)


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
@ratelimit(key="ip", rate=lambda group, request: RATE_PER_ADDRESS, method="POST", block=False)
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
        batch = parse(course, body)
    except EventError as error:
        return _refused(str(error), unknown=error.unknown)
    if batch.account and (user is None or batch.account != str(user.pk)):
        return _refused("these events belong to an account that is not signed in here now; "
                        "they are kept until it is", 409)
    as_user = user is not None and batch.account != ""
    learner = f"u{user.pk}" if as_user else f"b{batch.browser}"
    if _limited(request, "linebyline.events.learner", learner, RATE_PER_LEARNER):
        return _refused("too many batches of events from this learner; try again in a minute", 429)
    saved, repeated = store(course.slug, learner, user if as_user else None, batch)
    return JsonResponse({"saved": saved, "already_saved": repeated}, status=201)
