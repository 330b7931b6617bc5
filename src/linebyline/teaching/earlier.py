"""What learners did that no event of theirs shows: their account's merged progress.

Work done before signing up (in the browser, anonymously), before joining a class, or from the
terminal (`linebyline check` records to the progress, not to events) reaches the account's
progress document when it syncs. The teacher's figures take each lesson's status and hints from
there when the events say less: such a lesson is "done before joining" (or "done elsewhere").

A progress document can be megabytes of drafts, so what the teacher needs of it (a few numbers
per lesson) is kept in the shared cache per document and revision: read once per change.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from django.core.cache import cache

from ..accounts.models import ProgressDocument

CACHE_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class Recorded:
    """One lesson as the learner's progress has it."""

    status: str  # not-started, in-progress, done
    done_at: datetime | None  # when the browser says it was first done (None: not said)
    hints: int


def _summary(text: str) -> dict[str, list]:
    lessons = json.loads(text)
    return {number: [lesson.get("status", "not-started"), lesson.get("doneAt"),
                     lesson.get("hintsShown", 0)] for number, lesson in lessons.items()}


def _moment(milliseconds: int | None) -> datetime | None:
    if milliseconds is None:
        return None
    return datetime.fromtimestamp(milliseconds / 1000, tz=UTC)


def recorded(user_ids: list[int], course: str) -> dict[int, dict[str, Recorded]]:
    """Per account, per lesson number: what its progress records (lessons not started left out)."""
    documents = list(ProgressDocument.objects.filter(user_id__in=user_ids, course=course)
                     .values_list("pk", "revision", "user_id"))
    keys = {pk: f"teaching:progress:{pk}:{revision}" for pk, revision, _ in documents}
    cached = cache.get_many(list(keys.values()))
    summaries = {pk: cached[key] for pk, key in keys.items() if key in cached}
    missing = [pk for pk in keys if pk not in summaries]
    if missing:
        fresh = {}
        for pk, revision, text in ProgressDocument.objects.filter(pk__in=missing).values_list(
                "pk", "revision", "lessons"):
            summaries[pk] = fresh[f"teaching:progress:{pk}:{revision}"] = _summary(text)
        cache.set_many(fresh, CACHE_SECONDS)
    found: dict[int, dict[str, Recorded]] = {}
    for pk, _, user_id in documents:
        summary = summaries.get(pk, {})
        found[user_id] = {number: Recorded(status, _moment(done_at), hints)
                          for number, (status, done_at, hints) in summary.items()
                          if status != "not-started"}
    return found
