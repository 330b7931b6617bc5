"""This terminal's progress: the browser's progress document (version 2, the rules of
merge.py), kept in the user's data folder, so that `check`, `hint`, `quiz` and `lessons`
work on one record with or without an account, and `progress --export` writes the very file the
course home imports.

Two files per course, in ``$LINEBYLINE_DATA_DIR`` (else ``$XDG_DATA_HOME/linebyline``, else
``~/.local/share/linebyline``):

- ``progress-COURSE.json``: the progress document (statuses, drafts as this terminal's versions,
  the code that last passed, hints, quiz answers, checks). Signed in, it is merged with the
  account's exactly as the browser merges (sync.py);
- ``this-device-COURSE.json``: what stays on this machine, as in the browser: this terminal's
  device id, each check's failures in a row (the literal fix shows after three), quiz misses,
  and the state of the sync (what the account last confirmed, lessons the server refused).

Every change is a read-merge-write under a lock, written atomically, so a `watch`, a check in
another terminal and a sync in the background never undo one another. A file that cannot be read
is never overwritten: it is moved aside (named in the message) and a fresh one started.
"""
from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import merge as pm

FIX_AFTER = 3  # failures of the same check in a row before its fix is shown (as in the browser)


def data_dir() -> Path:
    """$LINEBYLINE_DATA_DIR, else $XDG_DATA_HOME/linebyline, else ~/.local/share/linebyline."""
    configured = os.environ.get("LINEBYLINE_DATA_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "linebyline"


def now_ms() -> int:
    return int(time.time() * 1000)


def write_private(path: Path, text: str) -> None:
    """Write a file atomically that only its owner can read, in a folder only they can enter."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.urandom(4).hex()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


class LocalProgress:
    """One course's progress on this machine, and the notes that never leave it."""

    def __init__(self, course: str, folder: Path | None = None, signed_in_device: str = "") -> None:
        self.course = course
        # The device id of the login this terminal is signed in with, if any: taken as this
        # terminal's own when it has none yet (signed in before there was local progress).
        self.signed_in_device = signed_in_device
        self.folder = folder or data_dir()
        self.path = self.folder / f"progress-{course}.json"
        self.notes_path = self.folder / f"this-device-{course}.json"
        self._lock_path = self.folder / f".progress-{course}.lock"
        self.problems: list[str] = []  # what could not be read, said once by the caller

    # --- reading -----------------------------------------------------------------------------

    def lessons(self) -> pm.Lessons:
        """The lessons as stored (empty when nothing was recorded yet)."""
        return self._read_lessons()

    def lesson(self, number: str) -> pm.Lesson:
        return self.lessons().get(number) or {"status": "not-started", "quiz": {}, "hintsShown": 0}

    def notes(self) -> dict[str, Any]:
        try:
            data = json.loads(self.notes_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        return data if isinstance(data, dict) else {}

    def device(self) -> str:
        """This terminal's device id in drafts ("cli-…"), made once and kept."""
        device = self.notes().get("device")
        if isinstance(device, str) and pm.DEVICE.match(device) and device.startswith("cli-"):
            return device
        made = self.signed_in_device if pm.DEVICE.match(self.signed_in_device) else \
            f"cli-{os.urandom(6).hex()}"
        with self.changing_notes() as notes:
            notes.setdefault("device", made)
            return notes["device"]

    def _read_lessons(self) -> pm.Lessons:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        try:
            return pm.read_document(json.loads(text), self.course)[1]
        except (ValueError, RecursionError) as error:
            self._put_aside(error)
            return {}

    def _put_aside(self, error: Exception) -> None:
        """An unreadable file is kept, renamed, never overwritten; the caller says so."""
        kept = self.path.with_name(f"{self.path.stem}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}"
                                   ".json")
        with contextlib.suppress(OSError):
            os.replace(self.path, kept)
        self.problems.append(f"{self.path} could not be read ({error}); it was kept as {kept} "
                             "and a new progress file started")

    # --- writing -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            import fcntl
        except ImportError:  # not Unix: one process at a time is all we can hope for
            yield
            return
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    @contextlib.contextmanager
    def changing(self) -> Iterator[pm.Lessons]:
        """The stored lessons, to change in place; written back (atomically) when the block ends
        without an error."""
        with self._locked():
            lessons = self._read_lessons()
            yield lessons
            self._write(lessons)

    def _write(self, lessons: pm.Lessons) -> None:
        # Read back as a document first: nothing that the browser would refuse is ever stored.
        document = pm.document(self.course, lessons)
        pm.read_document(json.loads(json.dumps(document)), self.course)
        write_private(self.path, json.dumps(document, ensure_ascii=False, indent=1))

    @contextlib.contextmanager
    def changing_notes(self) -> Iterator[dict[str, Any]]:
        with self._locked():
            notes = self.notes()
            yield notes
            write_private(self.notes_path, json.dumps(notes, ensure_ascii=False))

    def absorb(self, incoming: pm.Lessons) -> pm.Lessons:
        """Merge lessons from elsewhere (the account, an imported file) into this machine's."""
        with self.changing() as lessons:
            merged = pm.merge(lessons, incoming)
            lessons.clear()
            lessons.update(merged)
        return merged

    # --- what the commands record --------------------------------------------------------------

    def record_check(self, number: str, status: str, passed: int, total: int, source: str
                     ) -> None:
        """A checked run, as the browser records one: the checks' count, the status (a pass makes
        the lesson done and keeps its code as the code that passed), and the file as this
        terminal's newest draft."""
        device = self.device()
        with self.changing() as lessons:
            lesson = lessons.get(number) or _empty()
            if status == "not-attempted":
                return
            lesson["checks"] = {"passed": passed, "total": total}
            now = now_ms()
            if status == "pass":
                lesson["status"] = "done"
                lesson.setdefault("doneAt", now)
                if _storable(source):
                    lesson["passedAt"] = max(now, lesson.get("passedAt", -1) + 1)
                    lesson["passedCode"] = source
            elif lesson["status"] == "not-started":
                lesson["status"] = "in-progress"
            if _storable(source) and source != lesson.get("draft"):
                _new_version(lesson, source, device, now)
            lessons[number] = lesson

    def record_hints(self, number: str, shown: int) -> None:
        with self.changing() as lessons:
            lesson = lessons.get(number) or _empty()
            lesson["hintsShown"] = max(lesson["hintsShown"], min(shown, pm.MAX_HINTS))
            if lesson["status"] == "not-started":
                lesson["status"] = "in-progress"
            lessons[number] = lesson

    def record_answer(self, number: str, question: str, answer: str, correct: bool) -> None:
        with self.changing() as lessons:
            lesson = lessons.get(number) or _empty()
            lesson["quiz"][question] = {"answer": answer[:pm.MAX_ANSWER], "correct": correct,
                                        "at": now_ms()}
            if lesson["status"] == "not-started":
                lesson["status"] = "in-progress"
            lessons[number] = lesson

    def record_passed(self, number: str, source: str) -> None:
        """Code of a lesson marked done that passed its checks again (re-checked, say for
        `assemble`): kept as the code that passed."""
        with self.changing() as lessons:
            lesson = lessons.get(number) or _empty()
            now = now_ms()
            lesson["status"] = "done"
            lesson.setdefault("doneAt", now)
            lesson["passedAt"] = max(now, lesson.get("passedAt", -1) + 1)
            lesson["passedCode"] = source
            lessons[number] = lesson

    def failures_in_a_row(self, number: str, outcomes: dict[str, bool | None]) -> dict[str, int]:
        """Count this run's outcomes (check name: failed? None when it did not run) and return
        each check's failures in a row, this run included. Kept on this machine only."""
        with self.changing_notes() as notes:
            every = notes.get("failures") if isinstance(notes.get("failures"), dict) else {}
            counts = every.get(number) if isinstance(every.get(number), dict) else {}
            counts = {name: (_count(counts.get(name)) if failed is None else
                             _count(counts.get(name)) + 1 if failed else 0)
                      for name, failed in outcomes.items()}
            every[number] = counts
            notes["failures"] = every
        return counts

    def quiz_misses(self, question: str, add: bool = False) -> int:
        with self.changing_notes() as notes:
            misses = notes.get("misses") if isinstance(notes.get("misses"), dict) else {}
            count = _count(misses.get(question)) + (1 if add else 0)
            misses[question] = count
            notes["misses"] = misses
        return count


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _empty() -> pm.Lesson:
    return {"status": "not-started", "quiz": {}, "hintsShown": 0}


def _storable(source: str) -> bool:
    return pm.is_unicode(source) and pm.utf16_length(source) <= pm.MAX_DRAFT


def _new_version(lesson: pm.Lesson, source: str, device: str, now: int) -> None:
    """The file becomes this terminal's newest version of the draft (as the browser stamps an
    edit): newer than every version it was made after, even on a clock that runs behind."""
    versions = pm.versions_of(lesson)
    mine = next((v for v in versions if v["device"] == device), None)
    base = dict(mine["base"]) if mine else {}
    at = max([now, *(v["at"] + 1 for v in versions)])
    version = {"draft": source, "at": min(at, pm.MAX_TIME), "device": device, "base": base}
    merged = pm.merge_lesson(lesson, {"status": "not-started", "quiz": {}, "hintsShown": 0,
                                      "draft": source, "draftAt": version["at"],
                                      "draftDevice": device, "draftBase": base})
    for key in ("draft", "draftAt", "draftDevice", "draftBase", "earlier"):
        lesson.pop(key, None)
        if key in merged:
            lesson[key] = merged[key]
