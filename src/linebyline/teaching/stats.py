"""The figures per lesson and per module a teacher sees, folded from the grid's cells (grid.py),
plus the checks that fail most and the "Was this lesson clear?" answers, counted by the database.

Every figure counts learners once: a lesson's "done" is the learners whose cell is done (by a
passing check, or by their progress from before joining), "Hints" the learners who opened one.
"""
from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

from django.db.models import Count, Max, Q, QuerySet

from ..course import Course, Lesson
from .events import ATTEMPTED
from .grid import CHECK, Cell
from .models import CheckFailure
from .scope import PERIODS, Scope

__all__ = ["PERIODS", "lesson_rows", "module_funnels", "failing_checks", "help_used", "feedback_for"]

TOP_MESSAGES = 3
COMMENTS_SHOWN = 50


def _median(values: list[int]) -> float | None:
    return statistics.median(values) if values else None


def _by_lesson(cells: dict[tuple[str, str], Cell]) -> dict[str, list[Cell]]:
    found: dict[str, list[Cell]] = defaultdict(list)
    for (_, lesson), cell in cells.items():
        found[lesson].append(cell)
    return found


def counted_feedback(feedback: QuerySet) -> QuerySet:
    """Each learner's latest answer per lesson (an answer that names no learner counts alone)."""
    latest = (feedback.exclude(learner="").values("learner", "lesson").annotate(last=Max("id"))
              .values("last"))
    return feedback.filter(Q(learner="") | Q(id__in=latest))


Cells = dict[tuple[str, str], Cell]


def lesson_rows(scope: Scope, lessons: list[Lesson], cells: Cells) -> list[dict[str, Any]]:
    """One row per lesson: learners started / done, median attempts, help used, feedback."""
    by_lesson = _by_lesson(cells)
    feedback = {row["lesson"]: row for row in counted_feedback(scope.feedback).values("lesson").annotate(
        yes=Count("id", filter=Q(clear=True)), no=Count("id", filter=Q(clear=False))).order_by()}
    rows = []
    for lesson in lessons:
        mine = by_lesson.get(lesson.number, [])
        said = feedback.get(lesson.number, {"yes": 0, "no": 0})
        answers = said["yes"] + said["no"]
        rows.append({
            "lesson": lesson, "started": len(mine), "done": sum(cell.done for cell in mine),
            "median_attempts": _median([c.runs_to_pass for c in mine if c.runs_to_pass is not None]),
            "hints": sum(cell.hints > 0 for cell in mine),
            "codealong": sum(cell.codealong for cell in mine),
            "solution": sum(cell.solution is not None for cell in mine),
            "stuck": sum(cell.stuck is not None for cell in mine),
            "clear_yes": said["yes"], "clear_no": said["no"],
            "clear_rate": round(100 * said["yes"] / answers) if answers else None,
        })
    return rows


def module_funnels(course: Course, rows: list[dict[str, Any]],
                   cells: dict[tuple[str, str], Cell]) -> list[dict[str, Any]]:
    """Per module with published lessons: started and done per lesson in order, how many learners
    passed every lesson of the module, and whether anyone did anything in it at all."""
    by_number = {row["lesson"].number: row for row in rows}
    done_by_learner: dict[str, set[str]] = defaultdict(set)
    for (learner, lesson), cell in cells.items():
        if cell.done:
            done_by_learner[learner].add(lesson)
    funnels = []
    for module in course.modules:
        if not module.lessons:
            continue
        numbers = [lesson.number for lesson in module.lessons]
        finished = sum(set(numbers) <= done for done in done_by_learner.values())
        funnels.append({
            "module": module, "finished": finished,
            "active": any(by_number[n]["started"] or by_number[n]["clear_yes"] or by_number[n]["clear_no"]
                          for n in numbers),
            "rows": [by_number[n] for n in numbers],
            "steps": [{"number": n, "title": by_number[n]["lesson"].title,
                       "started": by_number[n]["started"], "done": by_number[n]["done"]}
                      for n in numbers],
        })
    return funnels


def failing_checks(scope: Scope, lesson: Lesson) -> dict[str, Any]:
    """The lesson's checks with in how many checked runs (and for how many learners) each was the
    first to fail (failures.py), and each one's most common messages; `runs` is how many runs
    were checked at all."""
    runs = scope.events.filter(lesson=lesson.number, kind=CHECK, status__in=ATTEMPTED)
    failures = CheckFailure.objects.filter(event__in=runs, first=True)
    counts = {row["name"]: row for row in failures.values("name").annotate(
        runs=Count("event", distinct=True), learners=Count("event__learner", distinct=True)).order_by()}
    messages: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in failures.values("name", "message").annotate(n=Count("id")).order_by("name", "-n", "message"):
        if len(messages[row["name"]]) < TOP_MESSAGES:
            messages[row["name"]].append({"message": row["message"], "count": row["n"]})
    who: dict[str, list[str]] = defaultdict(list)
    for row in failures.values("name", "event__learner").distinct().order_by("event__learner"):
        who[row["name"]].append(row["event__learner"])
    checks = [{"index": index, "name": name, "runs": counts.get(name, {}).get("runs", 0),
               "learners": counts.get(name, {}).get("learners", 0), "messages": messages.get(name, []),
               "who": who.get(name, [])}
              for index, name in enumerate(lesson.exercise.check_names, 1)]
    return {"runs": runs.count(), "checks": checks,
            "worst_first": sorted((c for c in checks if c["runs"]), key=lambda c: (-c["runs"], c["index"]))}


def help_used(lesson: Lesson, cells: dict[tuple[str, str], Cell]) -> dict[str, Any]:
    """How far into "Stuck?" learners went: each hint (a learner at hint 3 has seen 1 and 2),
    the code-along, the solution."""
    mine = [cell for (_, number), cell in cells.items() if number == lesson.number]
    count = len(lesson.exercise.hints)
    return {"hints": [{"number": n, "learners": sum(cell.hints >= n for cell in mine)}
                      for n in range(1, count + 1)],
            "codealong": sum(cell.codealong for cell in mine),
            "solution": sum(cell.solution is not None for cell in mine)}


def feedback_for(scope: Scope, lesson: Lesson) -> dict[str, Any]:
    """Yes and no, each learner's latest answer once; the comments, every one, newest first."""
    answers = scope.feedback.filter(lesson=lesson.number)
    totals = counted_feedback(answers).aggregate(yes=Count("id", filter=Q(clear=True)),
                                                 no=Count("id", filter=Q(clear=False)))
    total = totals["yes"] + totals["no"]
    commented = answers.exclude(comment="")
    newest = commented.order_by("-created", "-id").values("clear", "comment", "created")
    comments = list(newest[:COMMENTS_SHOWN])
    return {**totals, "total": total, "rate": round(100 * totals["yes"] / total) if total else None,
            "answers": answers.count(), "comments": comments,
            "more": max(0, commented.count() - COMMENTS_SHOWN)}
