"""The class's grid and its learners' attempts as CSV files, for a spreadsheet.

UTF-8 with a byte-order mark, so that spreadsheet programs read names and messages right. Text a
learner wrote (code, messages quoting it) that a spreadsheet would take for a formula (it starts
with =, +, -, @) is prefixed with an apostrophe, as spreadsheets themselves do.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import UTC
from typing import Any

from django.http import HttpResponse
from django.utils.text import slugify

from .attempts import events_of, what_happened
from .grid import Cell
from .models import LearningEvent
from .scope import Member, Scope

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _safe(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return "" if value is None else value


def _moment(value) -> str:
    """A moment in UTC, as the column's heading says (the pages show the teacher's own zone)."""
    return value.astimezone(UTC).isoformat(timespec="seconds") if value else ""


def _response(name: str, rows: Iterable[list[Any]]) -> HttpResponse:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_safe(value) for value in row])
    response = HttpResponse("\ufeff" + text.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _filename(scope: Scope, what: str) -> str:
    return f"{slugify(scope.title) or 'class'}-{what}.csv"


def _in_class(member: Member) -> str:
    return f"left {member.left.date().isoformat()}" if member.left else "yes"


def _cell_text(cell: Cell | None) -> str:
    if cell is None:
        return "not started"
    text = cell.words()
    if cell.stuck is not None:
        text += f"; stuck since {_moment(cell.stuck.since)}: {cell.stuck.reason()}"
    return text


def grid_csv(scope: Scope, numbers: list[str], rows: list[dict]) -> HttpResponse:
    """One line per learner: who, lessons done, last active, then each lesson's state."""
    def lines():
        yield ["learner", "name", "in the class", "lessons done", "last active (UTC)", *numbers]
        for row in rows:
            member = row["member"]
            yield [member.name, member.full_name, _in_class(member), row["done"], _moment(row["last"]),
                   *[_cell_text(cell) for cell in row["cells"]]]
    return _response(_filename(scope, "grid"), lines())


def attempts_csv(scope: Scope, members: list[Member]) -> HttpResponse:
    """One line per thing a learner did, in order: checked runs with the first failing check and
    its message, the later failing checks, and the code; hints, code-along, solution."""
    def lines():
        yield ["learner", "lesson", "time (UTC)", "what", "status", "attempt", "checks passed",
               "checks", "first failing check", "its message", "later failing checks", "hint", "code"]
        for member in members:
            attempts: dict[str, int] = {}
            for event in events_of(scope.events, member.learner):
                run = event.kind == LearningEvent.CHECK and event.status != "not-attempted"
                if run:
                    attempts[event.lesson] = attempts.get(event.lesson, 0) + 1
                failures = list(event.failures.all())
                first = next((f for f in failures if f.first), None)
                later = "\n".join(f"{f.name}: {f.message}" for f in failures if not f.first)
                yield [member.name, event.lesson, _moment(event.created), what_happened(event),
                       event.status, attempts[event.lesson] if run else "", event.passed,
                       event.total, first.name if first else "", first.message if first else "",
                       later, event.hint, event.code]
    return _response(_filename(scope, "attempts"), lines())
