"""The learner's record from a terminal: this machine's progress (progress/local.py), kept in step
with the account when signed in (progress/account.py), the way the browser keeps its own."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..progress import account as account_link
from ..progress import sync as progress_sync
from ..progress.local import FIX_AFTER, LocalProgress

if TYPE_CHECKING:
    from ..course import Course, Lesson
    from ..runtime import Result

QUICK_SYNC_S = 4.0  # what a command that shows progress waits for the account, at most


def local_progress(course: Course) -> LocalProgress:
    login = account_link.current()
    local = LocalProgress(course.slug, signed_in_device=login.device if login else "")
    if login is not None:
        account_link.adopt_pending(local)
    return local


def published(course: Course) -> frozenset[str]:
    """What the progress may hold: the published lessons and the modules' recall exercises."""
    return frozenset([lesson.number for lesson in course.lessons()]
                     + [recall.number for recall in course.recalls()])


def say_problems(local: LocalProgress) -> None:
    for problem in local.problems:
        print(f"linebyline: {problem}", file=sys.stderr)
    local.problems.clear()


def send_later(course_arg: str | None, course: Course, local: LocalProgress) -> str:
    """After a change: signed in, the account gets it from a process of its own, so the command
    never waits on the server. What to say about it ("" when not signed in)."""
    login = account_link.current()
    if login is None or not progress_sync.needs_sync(login, local, published(course)):
        return ""
    progress_sync.sync_in_background(course_arg)
    return f"Saved here; going to {login.username}'s account at {login.url} in the background."


def sync_now(course: Course, local: LocalProgress, timeout: float = QUICK_SYNC_S) -> str:
    """Signed in: merge with the account now (a short wait at most). What to say about it."""
    login = account_link.current()
    if login is None:
        return ""
    try:
        notes = progress_sync.sync(login, local, published(course), timeout=timeout)
    except account_link.AccountError as error:
        return f"(Your account could not be reached ({error}); this is this machine's progress.)"
    return "\n".join(notes)


def record_check(local: LocalProgress, lesson: Lesson, result: Result, source: str
                 ) -> set[str]:
    """Record a checked run; the checks whose literal fix may show now: those failed in the
    last three runs here, or all of them once the last hint was opened (as in the browser)."""
    if result.status == "not-attempted":
        return set()
    outcomes = {check.name: (None if check.message.startswith("Not run") else
                             check.status != "pass") for check in result.checks}
    failures = local.failures_in_a_row(lesson.number, outcomes)
    passed = sum(check.status == "pass" for check in result.checks)
    local.record_check(lesson.number, result.status, passed, len(result.checks), source)
    hints = len(lesson.exercise.hints)
    if hints and local.lesson(lesson.number)["hintsShown"] >= hints:
        return {check.name for check in result.checks}
    return {name for name, count in failures.items() if count >= FIX_AFTER}
