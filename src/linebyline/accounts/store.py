"""Reading and merging an account's stored progress, safely when several requests (two tabs, two
devices, several server processes) merge at once."""
from __future__ import annotations

import json
import time
from collections.abc import Collection, Iterable

from django.db import IntegrityError, OperationalError, transaction

from ..progress import merge as pm
from .models import ProgressDocument, SetAsideProgress

MAX_STORED = 4 * 1024 * 1024  # bytes of JSON per course (the lessons, as stored)
# What one request may carry: the stored lessons sent back whole, in their document's envelope
# (format, version, course, and the device and export time a browser adds), so that what GET
# answers can always be POSTed back.
MAX_BODY = MAX_STORED + 4096
ATTEMPTS = 20
SHOWN_NUMBERS = 10  # lesson numbers named in a message, before "and N more"


class Busy(Exception):
    """The database stayed busy (SQLite allows one writer at a time): the client tries again."""


class TooLarge(Exception):
    """The merged progress would be larger than an account keeps."""

    def __init__(self, size: int) -> None:
        super().__init__(f"the merged progress would be {size / 1e6:.1f} MB, more than the "
                         f"{MAX_STORED / 1e6:.1f} MB an account keeps for a course")


def by_number(numbers: Iterable[str]) -> list[str]:
    """Lesson numbers in the course's order (7.10 after 7.9)."""
    return sorted(numbers, key=pm.number_order)


def named(numbers: Iterable[str]) -> str:
    """"7.4, 7.5 and 999.0", at most SHOWN_NUMBERS of them named."""
    ordered = by_number(numbers)
    shown = ", ".join(ordered[:SHOWN_NUMBERS])
    if len(ordered) > SHOWN_NUMBERS:
        return f"{shown} and {len(ordered) - SHOWN_NUMBERS} more"
    return shown


def sort_out(lessons: dict, known: Collection[str]) -> tuple[pm.Lessons, dict, str]:
    """Stored lessons split into those the course takes (read as today's rules read them) and
    those it cannot: a number the course does not have, or a lesson that no longer reads.
    Returns (kept, set aside, why), the reason empty when nothing is set aside."""
    kept: pm.Lessons = {}
    aside: dict = {}
    unknown: list[str] = []
    unreadable: list[str] = []
    for number, lesson in lessons.items():
        if number not in known:
            aside[number] = lesson
            unknown.append(number)
            continue
        try:
            kept[number] = pm.read_lesson(lesson, f"lesson {number}")
        except pm.ProgressError as error:
            aside[number] = lesson
            unreadable.append(f"{number} ({error})")
    reasons = []
    if unknown:
        plural = "lessons" if len(unknown) > 1 else "lesson"
        reasons.append(f"{plural} {named(unknown)} not in this course")
    if unreadable:
        reasons.append(f"could not be read: {'; '.join(sorted(unreadable))}")
    return kept, aside, "; ".join(reasons)[:300]


def load(user, course: str, known: Collection[str]) -> pm.Lessons:
    """The account's lessons of the course (any others wait to be set aside by the next write)."""
    found = ProgressDocument.objects.filter(user=user, course=course).first()
    lessons = json.loads(found.lessons) if found else {}
    return {number: lesson for number, lesson in lessons.items() if number in known}


def load_settings(user, course: str) -> dict:
    """The account's settings for the course ({} when none were chosen)."""
    found = ProgressDocument.objects.filter(user=user, course=course).first()
    return _stored_settings(found)


def _stored_settings(stored: ProgressDocument | None) -> dict:
    if stored is None:
        return {}
    try:
        return pm.read_settings({"settings": json.loads(stored.settings or "{}")})
    except (ValueError, pm.ProgressError):  # a setting this version no longer knows: not kept
        return {}


def merge_into(user, course: str, incoming: pm.Lessons, known: Collection[str],
               settings: dict | None = None) -> pm.Lessons:
    """Merge `incoming` (lessons of the course only: the caller checked) into the stored progress
    and return the result; `settings` (read by progress.merge.read_settings) are merged into the
    stored ones in the same write (load_settings reads them). Stored lessons the course no
    longer has are set aside on the way.

    Optimistic: read, merge, then write only if nobody wrote in between (the revision is
    unchanged), else start again from what they wrote. The merge is a join, so trying again loses
    nothing, and no lock is held while merging."""
    for attempt in range(ATTEMPTS):
        try:
            merged = _merge_once(user, course, incoming, known, settings or {})
        except OperationalError as error:
            if "locked" not in str(error):
                raise
            merged = None  # SQLite lets one writer in at a time: wait a moment, as for a lost race
        if merged is not None:
            return merged
        time.sleep(0.01 * (attempt + 1))
    raise Busy("the progress store is busy")


def _merge_once(user, course: str, incoming: pm.Lessons, known: Collection[str],
                settings: dict) -> pm.Lessons | None:
    """One try: the merged lessons, or None when another request wrote first."""
    stored = ProgressDocument.objects.filter(user=user, course=course).first()
    if stored is None:
        merged = pm.merge({}, incoming)
        try:
            with transaction.atomic():
                ProgressDocument.objects.create(
                    user=user, course=course, lessons=_text(merged),
                    settings=_settings_text(pm.merge_settings({}, settings)), revision=1)
        except IntegrityError:  # another request created it first: merge into theirs
            return None
        return merged
    kept, aside = json.loads(stored.lessons), {}
    if not set(kept) <= set(known):  # the course changed since: only then read them all again
        kept, aside, reason = sort_out(kept, known)
    merged = pm.merge(kept, incoming)
    text = _text(merged)
    settings_text = _settings_text(pm.merge_settings(_stored_settings(stored), settings))
    if text == stored.lessons and settings_text == (stored.settings or "{}"):
        return merged
    with transaction.atomic():
        written = ProgressDocument.objects.filter(pk=stored.pk, revision=stored.revision).update(
            lessons=text, settings=settings_text, revision=stored.revision + 1)
        if written and aside:
            SetAsideProgress.objects.create(user=user, course=course, reason=reason,
                                            lessons=json.dumps(aside, ensure_ascii=False))
    return merged if written else None


def _settings_text(settings: dict) -> str:
    return json.dumps(settings, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _text(lessons: pm.Lessons) -> str:
    text = json.dumps(lessons, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    size = len(text.encode("utf-8"))
    if size > MAX_STORED:
        raise TooLarge(size)
    return text
