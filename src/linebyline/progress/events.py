"""What a signed-in learner does in the terminal, for their teachers (the teacher's view): checks
(with the code checked, as the lesson page sends it for a signed-in learner), hints, the solution,
as frontend/src/events.ts sends them.

Events wait in this machine's notes (at most MAX_QUEUED) and go with the next sync, in batches the
server takes. Each event gets an id when it happens, so a batch sent again after a timeout (the
server may have stored it) is stored once; and its time, so a batch that waited offline keeps when
things happened. Each waits for the account it was recorded under: after a login as someone else,
they stay here until that account signs in again. A batch the server refuses (4xx) is dropped, as
the browser drops it."""
from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from . import account as account_link

if TYPE_CHECKING:
    from .local import LocalProgress

MAX_QUEUED = 200
MAX_EVENTS = 25  # per batch, as the server allows
MAX_MESSAGE = 500
MAX_CODE = 200_000  # UTF-16 code units, as the server's (and the editor's) limit counts them


def _account(login: account_link.Login) -> str:
    return f"{login.username}@{login.url}"


def _now_ms() -> int:
    return int(time.time() * 1000)


def _checked(event: dict[str, Any]) -> dict[str, Any]:
    """Only what the learner saw (never a check's fix), and code the server can take."""
    from .merge import utf16_length

    event = {**event, "checks": [{"name": c["name"], "status": c["status"],
                                  "message": c["message"][:MAX_MESSAGE]} for c in event["checks"]]}
    if "code" in event and utf16_length(event["code"]) > MAX_CODE:
        del event["code"]
    return event


def record_event(local: LocalProgress, lesson: str, event: dict[str, Any]) -> None:
    """Queue an event (signed in only: an anonymous terminal has no server to tell)."""
    login = account_link.current()
    if login is None:
        return
    if event.get("kind") == "check":
        event = _checked(event)
    with local.changing_notes() as notes:
        queued = notes.get("events") if isinstance(notes.get("events"), list) else []
        queued.append({**event, "lesson": lesson, "id": os.urandom(16).hex(), "at": _now_ms(),
                       "account": _account(login)})
        notes["events"] = queued[-MAX_QUEUED:]


def _mine(event: Any, account: str) -> bool:
    # Events queued before they carried their account were recorded under the login of then.
    return isinstance(event, dict) and event.get("account", account) == account


def waiting(login: account_link.Login, local: LocalProgress) -> bool:
    """Whether events for this login wait to be sent."""
    queued = local.notes().get("events")
    return isinstance(queued, list) and any(_mine(event, _account(login)) for event in queued)


def _sendable(event: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in event.items() if key != "account"}


def send_events(login: account_link.Login, local: LocalProgress, timeout: float) -> None:
    """Send what is queued for this login; what could not be sent (offline, 5xx) stays for the
    next time."""
    import hashlib

    browser = hashlib.sha256(local.device().encode()).hexdigest()[:32]
    refused = account_link.refused_lessons(local, login.url)
    account = _account(login)
    while True:
        queued = local.notes().get("events")
        batch = [event for event in queued if _mine(event, account)][:MAX_EVENTS] \
            if isinstance(queued, list) else []
        if not batch:
            return
        sent = [_sendable(event) for event in batch if event.get("lesson") not in refused]
        try:
            if sent:  # (events of lessons the server's course does not have would refuse all)
                login.request("POST", "/events/", {"course": local.course, "browser": browser,
                                                   "sent": _now_ms(), "events": sent},
                              timeout=timeout)
        except account_link.AccountError as error:
            unknown = [n for n in error.unknown if any(e.get("lesson") == n for e in sent)]
            if error.status == 400 and unknown:
                # Another sync of this machine learnt of them after this one started: keep
                # their events here and send the rest, rather than lose the whole batch.
                account_link.refuse_lessons(local, login.url, unknown)
                refused = account_link.refused_lessons(local, login.url)
                continue
            if not 400 <= error.status < 500 or error.status in (401, 429):
                return  # tried again with the next sync
        with local.changing_notes() as notes:
            now = notes.get("events") if isinstance(notes.get("events"), list) else []
            notes["events"] = [event for event in now if event not in batch]
