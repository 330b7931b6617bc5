"""One learner's work, as their teacher reads it: per lesson, in order, what they did and saw:
each checked run with the messages of the checks that did not pass (the first of them marked: the
one to fix) and the code they checked; the hints, code-along and solution they opened."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Prefetch, QuerySet

from .models import CheckFailure, LearningEvent

SHOWN_PER_LESSON = 40  # the latest; the page links to every one of a lesson


def events_of(scope_events: QuerySet, learner: str, lesson: str | None = None) -> QuerySet:
    events = scope_events.filter(learner=learner)
    if lesson is not None:
        events = events.filter(lesson=lesson)
    failures = CheckFailure.objects.order_by("id")
    return events.order_by("created", "id").prefetch_related(Prefetch("failures", queryset=failures))


def what_happened(event: LearningEvent) -> str:
    if event.kind == LearningEvent.START:
        return "Started the exercise"
    if event.kind == LearningEvent.HINT:
        return f"Opened hint {event.hint}"
    if event.kind == LearningEvent.CODEALONG:
        return "Opened the code-along"
    if event.kind == LearningEvent.SOLUTION:
        return "Revealed the solution"
    if event.status == "not-attempted":
        return "Checked the untouched starter"
    if event.status == "pass":
        return "Checked: every check passes"
    if event.total:
        return f"Checked: {event.passed} of {event.total} checks pass"
    return "Checked: the code did not run" if event.status == "error" else "Checked"


def lessons_of(scope_events: QuerySet, learner: str, only: str | None,
               order: dict[str, int]) -> list[dict[str, Any]]:
    """Per lesson the learner worked on (in course order), their events in the order they
    happened: the latest SHOWN_PER_LESSON unless one lesson is asked for (`only`)."""
    grouped: dict[str, list[LearningEvent]] = defaultdict(list)
    for event in events_of(scope_events, learner, only):
        grouped[event.lesson].append(event)
    lessons = []
    for number in sorted(grouped, key=lambda n: order.get(n, 0)):
        events = grouped[number]
        hidden = 0 if only else max(0, len(events) - SHOWN_PER_LESSON)
        attempt = 0
        items = []
        for event in events:
            is_run = event.kind == LearningEvent.CHECK and event.status != "not-attempted"
            attempt += is_run
            items.append({"event": event, "what": what_happened(event),
                          "attempt": attempt if is_run else None,
                          "failures": list(event.failures.all()) if is_run else []})
        lessons.append({"number": number, "items": items[hidden:], "hidden": hidden,
                        "attempts": attempt})
    return lessons
