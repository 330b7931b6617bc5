"""Each learner's state in each lesson (a cell of the class's grid), counted by the database in a
few grouped queries, then the account's progress added where it says more (earlier.py).

A cell is not started, trying, done, or "solution" (the solution was revealed before the lesson
was passed). A learner trying a lesson is stuck when their latest checked runs failed first at the same check
(failures.py) the class's number of times in a row, or when they started it the class's number
of hours ago and have not passed it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, F, Max, Min, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from . import earlier
from .events import ATTEMPTED
from .models import CheckFailure, LearningEvent
from .scope import Member, Scope

CHECK, PASS = LearningEvent.CHECK, "pass"
NOT_STARTED, TRYING, DONE, SOLUTION = "not-started", "trying", "done", "solution"
STATE_WORDS = {NOT_STARTED: "not started", TRYING: "trying", DONE: "done", SOLUTION: "used the solution"}
GLYPHS = {TRYING: "●", DONE: "✓", SOLUTION: "S"}  # in the grid, beside colour (the legend says)


@dataclass
class Stuck:
    since: datetime
    check: str = ""  # the check failed again and again, if that is why
    failures: int = 0

    def reason(self) -> str:
        if self.check:
            return f"failed “{self.check}” {self.failures} times in a row"
        return "has not passed it since starting it"


@dataclass
class Cell:
    learner: str
    lesson: str
    started: datetime | None = None
    last: datetime | None = None
    passed: datetime | None = None  # the first passing check
    runs: int = 0  # checked runs of their own code
    runs_to_pass: int | None = None
    hints: int = 0
    codealong: bool = False
    solution: datetime | None = None
    # Known from the account's progress only, not from events: "before-joining" or "elsewhere"
    # (the terminal, another class's time) for a lesson done; "earlier" for one started.
    outside: str = ""
    done_outside: bool = False
    stuck: Stuck | None = None

    @property
    def done(self) -> bool:
        return self.passed is not None or self.done_outside

    @property
    def state(self) -> str:
        if self.solution is not None and (self.passed is None or self.solution <= self.passed):
            return SOLUTION
        if self.done:
            return DONE
        return TRYING

    @property
    def glyph(self) -> str:
        return GLYPHS[self.state]

    @property
    def shown_runs(self) -> int:
        """The number in the grid's cell: checked runs to pass, or so far."""
        return (self.runs_to_pass or 0) if self.passed is not None else self.runs

    def words(self) -> str:
        """The cell as a teacher reads it (the grid, the CSV)."""
        state = self.state
        if state == SOLUTION:
            return "done with the solution" if self.done else "saw the solution"
        if state == DONE and self.passed is None:
            if self.outside == "before-joining":
                return "done before joining"
            return "done (no attempts recorded)"
        if state == TRYING and self.started is None:
            return "started (no attempts recorded)"
        return STATE_WORDS[state]


def _runs_to_pass(events: QuerySet) -> dict[tuple[str, str], int]:
    """Per learner and lesson passed: the checked runs it took, the passing one included."""
    first_pass = (events.filter(kind=CHECK, status=PASS, lesson=OuterRef("lesson"),
                                learner=OuterRef("learner"))
                  .order_by("created", "id").values("created")[:1])
    counted = (events.filter(kind=CHECK, status__in=ATTEMPTED)
               .annotate(first=Subquery(first_pass)).filter(created__lte=F("first"))
               .values("learner", "lesson").annotate(n=Count("id")).order_by())
    return {(row["learner"], row["lesson"]): row["n"] for row in counted}


def event_cells(events: QuerySet) -> dict[tuple[str, str], Cell]:
    rows = events.values("learner", "lesson").annotate(
        started=Min("created"), last=Max("created"),
        passed=Min("created", filter=Q(kind=CHECK, status=PASS)),
        runs=Count("id", filter=Q(kind=CHECK, status__in=ATTEMPTED)),
        hints=Max("hint", filter=Q(kind=LearningEvent.HINT)),
        codealong=Count("id", filter=Q(kind=LearningEvent.CODEALONG)),
        solution=Min("created", filter=Q(kind=LearningEvent.SOLUTION)),
    ).order_by()
    to_pass = _runs_to_pass(events)
    return {(row["learner"], row["lesson"]): Cell(
        learner=row["learner"], lesson=row["lesson"], started=row["started"], last=row["last"],
        passed=row["passed"], runs=row["runs"], runs_to_pass=to_pass.get((row["learner"], row["lesson"])),
        hints=row["hints"] or 0, codealong=bool(row["codealong"]), solution=row["solution"])
        for row in rows}


def _add_progress(scope: Scope, cells: dict[tuple[str, str], Cell], lessons: set[str]) -> None:
    """What the members' progress says that their events do not (see earlier.py)."""
    recorded = earlier.recorded([m.user.pk for m in scope.members], scope.course)
    for member in scope.members:
        for number, lesson in recorded.get(member.user.pk, {}).items():
            if number not in lessons:
                continue
            cell = cells.get((member.learner, number))
            if lesson.status == "done" and (cell is None or cell.passed is None):
                when = lesson.done_at
                if not scope.counts(when) or (member.left and (when is None or when > member.left)):
                    continue
                cell = cells.setdefault((member.learner, number), Cell(member.learner, number))
                cell.done_outside = True
                cell.outside = "before-joining" if when and when < member.joined else "elsewhere"
            elif lesson.status == "in-progress" and cell is None:
                if not scope.counts(None) or member.left:
                    continue  # no time to place it by
                cell = cells.setdefault((member.learner, number), Cell(member.learner, number))
                cell.outside = "earlier"
            if cell is not None and scope.counts(None):
                cell.hints = max(cell.hints, lesson.hints)


def _streaks(scope: Scope, open_cells: set[tuple[str, str]]) -> dict[tuple[str, str], Stuck]:
    """Per (learner, lesson) not passed: their latest checked runs that all failed first at the
    same check, when there are at least the class's number of them."""
    first_failed = CheckFailure.objects.filter(event=OuterRef("pk"), first=True).values("name")[:1]
    runs = (scope.events.filter(kind=CHECK, status__in=ATTEMPTED)
            .annotate(failed=Subquery(first_failed))
            .values_list("learner", "lesson", "created", "failed").order_by("created", "id"))
    streaks: dict[tuple[str, str], tuple[str | None, int, datetime]] = {}
    for learner, lesson, created, failed in runs.iterator():
        key = (learner, lesson)
        if key not in open_cells:
            continue
        name, count, since = streaks.get(key, (None, 0, created))
        streaks[key] = (failed, count + 1, since) if failed and failed == name else (failed, 1, created)
    needed = scope.classroom.stuck_failures
    return {key: Stuck(since, name, count) for key, (name, count, since) in streaks.items()
            if name and count >= needed}


def _add_stuck(scope: Scope, cells: dict[tuple[str, str], Cell]) -> None:
    classroom = scope.classroom
    now = timezone.now() if classroom.archived is None else classroom.archived
    staying = {m.learner for m in scope.members if m.left is None}
    open_cells = {key for key, cell in cells.items() if not cell.done and cell.learner in staying}
    for key, stuck in _streaks(scope, open_cells).items():
        cells[key].stuck = stuck
    limit = timedelta(hours=classroom.stuck_hours)
    for key in open_cells:
        cell = cells[key]
        if cell.stuck is None and cell.started is not None and now - cell.started >= limit:
            cell.stuck = Stuck(cell.started)


def cells_for(scope: Scope, lessons: set[str]) -> dict[tuple[str, str], Cell]:
    """Every started (learner, lesson) of the scope, keyed so; a class's with progress and stuck flags."""
    cells = event_cells(scope.events.filter(lesson__in=sorted(lessons)))
    if scope.classroom is not None:
        _add_progress(scope, cells, lessons)
        _add_stuck(scope, cells)
    return cells


def stuck_list(scope: Scope, cells: dict[tuple[str, str], Cell], order: dict[str, int]) -> list[dict]:
    """Who is stuck, on what, since when: longest stuck first."""
    people = scope.by_learner
    # Lessons only (``order``): a recall exercise's runs are kept, but its page is the review.
    found = [{"member": people[cell.learner], "cell": cell, "stuck": cell.stuck}
             for cell in cells.values() if cell.stuck is not None and cell.learner in people
             and cell.lesson in order]
    return sorted(found, key=lambda item: (item["stuck"].since, order.get(item["cell"].lesson, 0)))


def member_rows(scope: Scope, cells: dict[tuple[str, str], Cell], numbers: list[str]) -> list[dict]:
    """One row per learner of the class: their cells in lesson order, lessons done, last active."""
    rows = []
    for member in scope.members:
        mine = [cells.get((member.learner, number)) for number in numbers]
        started = [cell for cell in mine if cell is not None]
        rows.append({
            "member": member, "cells": mine, "pairs": list(zip(numbers, mine, strict=True)),
            "done": sum(cell.done for cell in started),
            "last": max((cell.last for cell in started if cell.last), default=None),
            "stuck": [cell for cell in started if cell.stuck is not None],
        })
    return rows


def _last_active(row: dict) -> float:
    return -row["last"].timestamp() if row["last"] else 0.0


# How the grid can be sorted: learners who left always come last, then by name on a tie.
SORTS = {
    "name": ("learner", lambda row: ()),
    "done": ("lessons done", lambda row: (-row["done"],)),
    "active": ("last active", lambda row: (_last_active(row),)),
    "stuck": ("stuck", lambda row: (-len(row["stuck"]),)),
}


def sorted_rows(rows: list[dict], sort: str) -> list[dict]:
    key = SORTS.get(sort, SORTS["name"])[1]
    return sorted(rows, key=lambda row: (row["member"].left is not None, *key(row),
                                         row["member"].name.lower()))


def member_of(members: list[Member], user_id: int) -> Member | None:
    return next((m for m in members if m.user.pk == user_id), None)
