"""What a signed-in learner does in the terminal, for their teachers (the teacher's view): checks,
hints, the solution, as the lesson page sends them (frontend/src/events.ts), never the code.

Events wait in this machine's notes (at most MAX_QUEUED) and go with the next sync, in batches
the server takes; a batch it refuses (4xx) is dropped, as the browser drops it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import account_link

if TYPE_CHECKING:
    from ..course import Course
    from ..local_progress import LocalProgress

MAX_QUEUED = 200
MAX_EVENTS = 25  # per batch, as the server allows
MAX_MESSAGE = 500


def record_event(course: Course, lesson: str, event: dict[str, Any],
                 local: LocalProgress | None = None) -> None:
    """Queue an event (signed in only: an anonymous terminal has no server to tell)."""
    if account_link.current() is None:
        return
    from .learner import local_progress

    local = local or local_progress(course)
    if event.get("kind") == "check":
        event = {**event, "checks": [{"name": c["name"], "status": c["status"],
                                      "message": c["message"][:MAX_MESSAGE]}
                                     for c in event["checks"]]}
    with local.changing_notes() as notes:
        queued = notes.get("events") if isinstance(notes.get("events"), list) else []
        queued.append({**event, "lesson": lesson})
        notes["events"] = queued[-MAX_QUEUED:]


def waiting(local: LocalProgress) -> bool:
    queued = local.notes().get("events")
    return isinstance(queued, list) and bool(queued)


def send_events(login: account_link.Login, local: LocalProgress, timeout: float) -> None:
    """Send what is queued; what could not be sent (offline, 5xx) stays for the next time."""
    import hashlib

    browser = hashlib.sha256(local.device().encode()).hexdigest()[:32]
    refused = account_link.refused_lessons(local, login.url)
    while True:
        queued = local.notes().get("events")
        if not isinstance(queued, list) or not queued:
            return
        batch = queued[:MAX_EVENTS]
        sent = [event for event in batch if event.get("lesson") not in refused]
        try:
            if sent:  # (events of lessons the server's course does not have would refuse all)
                login.request("POST", "/events/", {"course": local.course, "browser": browser,
                                                   "events": sent}, timeout=timeout)
        except account_link.AccountError as error:
            if not 400 <= error.status < 500 or error.status in (401, 429):
                return  # tried again with the next sync
        with local.changing_notes() as notes:
            now = notes.get("events") if isinstance(notes.get("events"), list) else []
            notes["events"] = now[len(batch):] if now[:len(batch)] == batch else now
