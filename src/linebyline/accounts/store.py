"""Reading and merging an account's stored progress, safely when several requests (two tabs, two
devices, several server processes) merge at once."""
from __future__ import annotations

import json
import time

from django.db import IntegrityError, OperationalError, transaction

from .. import progress_merge as pm
from .models import ProgressDocument

MAX_STORED = 4 * 1024 * 1024  # bytes of JSON per course: what one request may carry, too
ATTEMPTS = 20


class Busy(Exception):
    """The database stayed busy (SQLite allows one writer at a time): the client tries again."""


class TooLarge(Exception):
    """The merged progress would be larger than an account keeps."""

    def __init__(self, size: int) -> None:
        super().__init__(f"the merged progress would be {size / 1e6:.1f} MB, more than the "
                         f"{MAX_STORED / 1e6:.1f} MB an account keeps for a course")


def load(user, course: str) -> pm.Lessons:
    found = ProgressDocument.objects.filter(user=user, course=course).first()
    return json.loads(found.lessons) if found else {}


def merge_into(user, course: str, incoming: pm.Lessons) -> pm.Lessons:
    """Merge `incoming` into the stored progress and return the result.

    Optimistic: read, merge, then write only if nobody wrote in between (the revision is
    unchanged), else start again from what they wrote. The merge is a join, so trying again loses
    nothing, and no lock is held while merging."""
    for attempt in range(ATTEMPTS):
        try:
            merged = _merge_once(user, course, incoming)
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            merged = None  # SQLite lets one writer in at a time: wait a moment, as for a lost race
        if merged is not None:
            return merged
        time.sleep(0.01 * (attempt + 1))
    raise Busy("the progress store is busy")


def _merge_once(user, course: str, incoming: pm.Lessons) -> pm.Lessons | None:
    """One try: the merged lessons, or None when another request wrote first."""
    stored = ProgressDocument.objects.filter(user=user, course=course).first()
    if stored is None:
        merged = pm.merge({}, incoming)
        try:
            with transaction.atomic():
                ProgressDocument.objects.create(user=user, course=course, lessons=_text(merged),
                                                revision=1)
        except IntegrityError:  # another request created it first: merge into theirs
            return None
        return merged
    merged = pm.merge(json.loads(stored.lessons), incoming)
    text = _text(merged)
    if text == stored.lessons:
        return merged
    written = ProgressDocument.objects.filter(pk=stored.pk, revision=stored.revision).update(
        lessons=text, revision=stored.revision + 1)
    return merged if written else None


def _text(lessons: pm.Lessons) -> str:
    text = json.dumps(lessons, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    size = len(text.encode("utf-8"))
    if size > MAX_STORED:
        raise TooLarge(size)
    return text
