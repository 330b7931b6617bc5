"""Merging this machine's progress with the account's, as the browser's sync does, and then
sending the events queued for the teachers' view. What the server cannot take now (offline, down)
stays here and goes with the next sync; a sync can run in a process of its own, so that a check
never waits on the server."""
from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from . import merge as pm
from .account import (
    TIMEOUT_S,
    AccountError,
    Login,
    refuse_lessons,
    refused_lessons,
    refused_note,
    save_sync_state,
    sync_state,
)
from .events import send_events, waiting

if TYPE_CHECKING:
    from .local import LocalProgress


def _digest(lessons: dict) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(lessons, sort_keys=True, ensure_ascii=False)
                          .encode("utf-8")).hexdigest()[:32]


def _sendable(local: LocalProgress, url: str, known: frozenset[str]) -> dict:
    refused = refused_lessons(local, url)
    return {n: lesson for n, lesson in local.lessons().items() if n in known and n not in refused}


def needs_sync(login: Login, local: LocalProgress, known: frozenset[str]) -> bool:
    """Whether this machine holds progress (or events for teachers) the account may not have."""
    return waiting(login, local) or \
        _digest(_sendable(local, login.url, known)) != sync_state(local, login.url).get("synced")


def sync(login: Login, local: LocalProgress, known: frozenset[str],
         timeout: float = TIMEOUT_S) -> list[str]:
    """Send this machine's progress (the course's lessons) and merge the account's answer in, as
    the browser's sync does. Returns what to tell the learner; raises AccountError when the
    account could not be reached or refused (the progress stays here, and goes next time)."""
    for _ in range(2):
        sent = _sendable(local, login.url, known)
        try:
            answer = login.request("POST", "/api/progress/", pm.document(local.course, sent),
                                   timeout=timeout)
            break
        except AccountError as error:
            unknown = [n for n in error.unknown if n in sent]
            if error.status != 400 or not unknown:
                save_sync_state(local, login.url, problem=str(error))
                raise
            refuse_lessons(local, login.url, unknown)
    else:
        raise AccountError(f"{login.url} kept refusing this progress")
    try:
        _, theirs = pm.read_document(answer, local.course)
    except pm.ProgressError as error:
        raise AccountError(f"{login.url} answered with progress that cannot be read ({error})"
                           ) from None
    local.absorb(theirs)
    save_sync_state(local, login.url, synced=_digest(theirs), problem="",
                     at=int(time.time() * 1000))
    send_events(login, local, timeout)
    note = refused_note(login, local)
    return [note] if note else []


def sync_in_background(course_arg: str | None) -> None:
    """Start `linebyline progress --sync --quiet` on its own, so that a check never waits on
    the server: it outlives this command, and what it cannot send goes next time."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "linebyline"]
    if course_arg:
        command += ["--course", course_arg]
    try:
        subprocess.Popen([*command, "progress", "--sync", "--quiet"], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, close_fds=True)
    except OSError:
        pass  # sent by the next command
