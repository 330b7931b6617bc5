"""The figures a teacher sees, counted by the database (a few grouped queries per page).

A scope is a set of learners' events and feedback: one class (its members' accounts), or, for
staff, everyone (signed-in and anonymous) who used the course.
"""
from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import Count, F, Max, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from ..course import Course, Lesson
from ..web.models import LessonFeedback
from .events import ATTEMPTED
from .models import CheckFailure, Classroom, LearningEvent, Membership

CHECK, PASS = LearningEvent.CHECK, "pass"
PERIODS = {"7": "the last 7 days", "30": "the last 30 days", "90": "the last 90 days", "all": "all time"}
TOP_MESSAGES = 3
COMMENTS_SHOWN = 50


@dataclass
class Scope:
    title: str
    events: QuerySet
    feedback: QuerySet
    period: str


def _since(period: str):
    return None if period == "all" else timezone.now() - timedelta(days=int(period))


def class_scope(classroom: Classroom, period: str) -> Scope:
    members = Membership.objects.filter(classroom=classroom).values("user_id")
    events = LearningEvent.objects.filter(course=classroom.course, user_id__in=members)
    feedback = LessonFeedback.objects.filter(course=classroom.course, user_id__in=members)
    return _bounded(Scope(classroom.name, events, feedback, period))


def everyone_scope(course: Course, period: str) -> Scope:
    events = LearningEvent.objects.filter(course=course.slug)
    feedback = LessonFeedback.objects.filter(course=course.slug)
    return _bounded(Scope("Everyone", events, feedback, period))


def _bounded(scope: Scope) -> Scope:
    since = _since(scope.period)
    if since is not None:
        scope.events = scope.events.filter(created__gte=since)
        scope.feedback = scope.feedback.filter(created__gte=since)
    return scope


def _per_lesson(rows: QuerySet, value: str = "n") -> dict[str, int]:
    return {row["lesson"]: row[value] for row in rows}


def attempts_to_pass(events: QuerySet) -> dict[str, list[int]]:
    """Per lesson, for each learner who passed it: how many checked runs it took, the passing
    one included (checks of the untouched starter are not attempts)."""
    first_pass = events.filter(kind=CHECK, status=PASS, lesson=OuterRef("lesson"),
                               learner=OuterRef("learner")).order_by("id").values("id")[:1]
    counted = (events.filter(kind=CHECK, status__in=ATTEMPTED)
               .annotate(first=Subquery(first_pass)).filter(id__lte=F("first"))
               .values("lesson", "learner").annotate(n=Count("id")).order_by())
    found: dict[str, list[int]] = defaultdict(list)
    for row in counted:
        found[row["lesson"]].append(row["n"])
    return found


def _median(values: list[int]) -> float | None:
    return statistics.median(values) if values else None


def lesson_rows(scope: Scope, lessons: list[Lesson]) -> list[dict[str, Any]]:
    """One row per lesson: learners started / done, median attempts, help used, feedback."""
    events = scope.events
    started = _per_lesson(events.values("lesson").annotate(n=Count("learner", distinct=True)).order_by())
    done = _per_lesson(events.filter(kind=CHECK, status=PASS).values("lesson")
                       .annotate(n=Count("learner", distinct=True)).order_by())
    helped = {row["lesson"]: row for row in events.values("lesson").annotate(
        hints=Count("learner", distinct=True, filter=Q(kind=LearningEvent.HINT)),
        codealong=Count("learner", distinct=True, filter=Q(kind=LearningEvent.CODEALONG)),
        solution=Count("learner", distinct=True, filter=Q(kind=LearningEvent.SOLUTION)),
    ).order_by()}
    feedback = {row["lesson"]: row for row in scope.feedback.values("lesson").annotate(
        yes=Count("id", filter=Q(clear=True)), no=Count("id", filter=Q(clear=False))).order_by()}
    attempts = attempts_to_pass(events)
    rows = []
    for lesson in lessons:
        help_row = helped.get(lesson.number, {})
        said = feedback.get(lesson.number, {"yes": 0, "no": 0})
        answers = said["yes"] + said["no"]
        rows.append({
            "lesson": lesson, "started": started.get(lesson.number, 0),
            "done": done.get(lesson.number, 0),
            "median_attempts": _median(attempts.get(lesson.number, [])),
            "hints": help_row.get("hints", 0), "codealong": help_row.get("codealong", 0),
            "solution": help_row.get("solution", 0),
            "clear_yes": said["yes"], "clear_no": said["no"],
            "clear_rate": round(100 * said["yes"] / answers) if answers else None,
        })
    return rows


def module_funnels(scope: Scope, course: Course, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per module with published lessons: started and done per lesson in order, and how many
    learners passed every lesson of the module."""
    by_number = {row["lesson"].number: row for row in rows}
    funnels = []
    for module in course.modules:
        if not module.lessons:
            continue
        numbers = [lesson.number for lesson in module.lessons]
        finished = (scope.events.filter(kind=CHECK, status=PASS, lesson__in=numbers)
                    .values("learner").annotate(n=Count("lesson", distinct=True))
                    .filter(n=len(numbers)).count())
        funnels.append({
            "module": module, "finished": finished,
            "steps": [{"number": n, "title": by_number[n]["lesson"].title,
                       "started": by_number[n]["started"], "done": by_number[n]["done"]}
                      for n in numbers],
        })
    return funnels


def failing_checks(scope: Scope, lesson: Lesson) -> dict[str, Any]:
    """The lesson's checks with how many checked runs (and learners) each failed, and each one's
    most common messages; `runs` is how many runs were checked at all."""
    runs = scope.events.filter(lesson=lesson.number, kind=CHECK, status__in=ATTEMPTED)
    failures = CheckFailure.objects.filter(event__in=runs)
    counts = {row["name"]: row for row in failures.values("name").annotate(
        runs=Count("event", distinct=True), learners=Count("event__learner", distinct=True)).order_by()}
    messages: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in failures.values("name", "message").annotate(n=Count("id")).order_by("name", "-n", "message"):
        if len(messages[row["name"]]) < TOP_MESSAGES:
            messages[row["name"]].append({"message": row["message"], "count": row["n"]})
    checks = [{"index": index, "name": name, "runs": counts.get(name, {}).get("runs", 0),
               "learners": counts.get(name, {}).get("learners", 0), "messages": messages.get(name, [])}
              for index, name in enumerate(lesson.exercise.check_names, 1)]
    return {"runs": runs.count(), "checks": checks,
            "worst_first": sorted((c for c in checks if c["runs"]), key=lambda c: (-c["runs"], c["index"]))}


def help_used(scope: Scope, lesson: Lesson) -> dict[str, Any]:
    """How far into "Stuck?" learners went: each hint (a learner at hint 3 has seen 1 and 2),
    the code-along, the solution."""
    events = scope.events.filter(lesson=lesson.number)
    count = len(lesson.exercise.hints)
    reached = events.filter(kind=LearningEvent.HINT).aggregate(**{
        f"h{n}": Count("learner", distinct=True, filter=Q(hint__gte=n)) for n in range(1, count + 1)})
    learners = {row["kind"]: row["n"] for row in
                events.values("kind").annotate(n=Count("learner", distinct=True)).order_by()}
    return {"hints": [{"number": n, "learners": reached[f"h{n}"]} for n in range(1, count + 1)],
            "codealong": learners.get(LearningEvent.CODEALONG, 0),
            "solution": learners.get(LearningEvent.SOLUTION, 0)}


def feedback_for(scope: Scope, lesson: Lesson) -> dict[str, Any]:
    answers = scope.feedback.filter(lesson=lesson.number)
    totals = answers.aggregate(yes=Count("id", filter=Q(clear=True)), no=Count("id", filter=Q(clear=False)))
    total = totals["yes"] + totals["no"]
    comments = list(answers.exclude(comment="").order_by("-created")
                    .values("clear", "comment", "created")[:COMMENTS_SHOWN])
    return {**totals, "total": total, "rate": round(100 * totals["yes"] / total) if total else None,
            "comments": comments, "more": max(0, answers.exclude(comment="").count() - COMMENTS_SHOWN)}


def roster(classroom: Classroom, period: str) -> list[dict[str, Any]]:
    """The class's learners: when they joined, lessons passed, last activity."""
    activity = {row["user_id"]: row for row in class_scope(classroom, period).events
                .values("user_id").annotate(
                    done=Count("lesson", distinct=True, filter=Q(kind=CHECK, status=PASS)),
                    last=Max("created")).order_by()}
    people = []
    for membership in (Membership.objects.filter(classroom=classroom).select_related("user")
                       .order_by("user__username")):
        row = activity.get(membership.user_id, {})
        people.append({"user": membership.user, "joined": membership.joined,
                       "done": row.get("done", 0), "last": row.get("last")})
    return people
