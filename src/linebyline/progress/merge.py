"""Reading and merging learners' progress documents: one set of rules for the server and the CLI.

The browser holds the same rules in frontend/src/merge.ts; tests/test_merge_agrees.py runs both on
the same generated cases. The merge is a join: commutative, associative and idempotent, so two
devices that exchange progress in any order, any number of times, end with the same state.

Per lesson:
- status: the furthest (not started < in progress < done); a lesson once done stays done, and
  `doneAt` keeps the earliest completion;
- each quiz answer: the best (a right answer beats a wrong one; then the later one);
- hints shown: the most; checks: the best result (most passed, then most checks);
- the code that last passed its checks (`passedCode`, with `passedAt`): the newest, kept apart
  from the draft, so that a failing edit after a pass never stands for the learner's own code
  (My microgpt, `linebyline assemble`); a lesson with passing code is done;
- the draft: each device's newest edit is one *version*; the newest version is the draft, and
  the versions of other devices are kept as `earlier` versions the learner can restore. At most
  MAX_EARLIER of them are kept per lesson: when a merge brings one more, the oldest makes room
  (the browser sets such a version aside, with a download, rather than letting it go silently).

Times are milliseconds since 1970 as the device that acted saw them. A version also carries
`base`: the versions of other devices it was derived from (the device, the time of the version),
so that the page does not offer the draft you continued from as a conflict.

A document in version 1 (no times, no devices) is read as version 2: each draft becomes a version
of its own pseudo-device, named after a hash of its text, at time 0 (older than anything timed).

Beside its lessons a document may hold the learner's `settings` for the course, each a value
with the time it was chosen (`{"todoLevel": {"value": "own", "at": ...}}`, the level of a Build's
TODO comments): merged, the latest choice wins (then a fixed order, for a tie). A document
without them reads as one with none; readers that predate them pass over the key.
"""
from __future__ import annotations

import re
from typing import Any

FORMAT = "linebyline-progress"
VERSION = 2
STATUSES = ("not-started", "in-progress", "done")
MAX_DRAFT = 200_000  # UTF-16 code units, as the browser's editor counts them
MAX_EARLIER = 5
MAX_LESSONS = 500
MAX_QUIZ_ANSWERS = 100
MAX_ANSWER = 100
MAX_HINTS = 1000
MAX_CHECKS = 10_000
MAX_BASE = 64
MAX_TIME = 2**53 - 1  # the largest integer a browser holds exactly
# A lesson (7.4), or a module review's recall exercise (review-7).
LESSON_NUMBER = re.compile(r"^(\d{1,3}\.\d{1,3}|review-\d{1,3})$")


def number_order(number: str) -> tuple[int, ...]:
    """A sort key in the course's order (7.10 after 7.9; review-7, the module's recall
    exercise, after the module's lessons), for numbers LESSON_NUMBER accepts."""
    if number.startswith("review-"):
        return (int(number.removeprefix("review-")), 1000)
    return tuple(int(part) for part in number.split("."))
QUIZ_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")
DEVICE = re.compile(r"^[A-Za-z0-9_.:~-]{1,64}$")
COURSE = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
# The settings a document may hold, with the values each may take.
SETTINGS = {"todoLevel": ("guided", "own")}

Lesson = dict[str, Any]
Lessons = dict[str, Lesson]


class ProgressError(ValueError):
    """A document that is not progress, or a part of it that cannot be read; the message says
    which part and why."""


# --- text and small helpers ---------------------------------------------------------------------

def utf16_length(text: str) -> int:
    """Length as JavaScript counts it (what the editor's limit means)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def is_unicode(text: str) -> bool:
    """No lone surrogates: such text cannot be stored or sent as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def fnv1a32(text: str) -> str:
    """A short stable name for a text (the same in the browser): FNV-1a over its UTF-8 bytes."""
    value = 0x811C9DC5
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def v1_device(draft: str) -> str:
    return f"v1-{fnv1a32(draft)}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _time(value: Any, where: str) -> int:
    if not _is_int(value) or not 0 <= value <= MAX_TIME:
        raise ProgressError(f"{where} must be a time: a whole number of milliseconds from 0 "
                            f"to {MAX_TIME}")
    return value


def _text(value: Any, where: str, limit: int) -> str:
    if not isinstance(value, str):
        raise ProgressError(f"{where} must be text")
    if not is_unicode(value):
        raise ProgressError(f"{where} is not valid Unicode text")
    if utf16_length(value) > limit:
        raise ProgressError(f"{where} is {utf16_length(value):,} characters, more than the "
                            f"{limit:,} it can be")
    return value


# --- reading ------------------------------------------------------------------------------------

def read_document(value: Any, course: str | None = None) -> tuple[str, Lessons]:
    """A progress document (version 1 or 2) as its course and its lessons in the version-2 form.

    Anything that does not fit is refused with a ProgressError naming the part; `course`, when
    given, must be the document's course."""
    if not isinstance(value, dict):
        raise ProgressError("a progress document must be a JSON object")
    if value.get("format") != FORMAT:
        raise ProgressError(f'"format" must be "{FORMAT}"')
    version = value.get("version")
    if version not in (1, 2) or isinstance(version, bool):
        raise ProgressError('"version" must be 1 or 2')
    slug = value.get("course")
    if not isinstance(slug, str) or not COURSE.match(slug):
        raise ProgressError('"course" must be a course name (lowercase letters, digits, hyphens)')
    if course is not None and slug != course:
        raise ProgressError(f'this document is for the course "{slug}", not "{course}"')
    lessons = value.get("lessons")
    if not isinstance(lessons, dict):
        raise ProgressError('"lessons" must be an object of lessons by number')
    if len(lessons) > MAX_LESSONS:
        raise ProgressError(f'"lessons" has {len(lessons)} lessons, more than the {MAX_LESSONS} '
                            "a document can hold")
    read = {}
    for number, raw in lessons.items():
        if not LESSON_NUMBER.match(number):
            raise ProgressError(f'"{number[:20]}" is not a lesson number (like 7.4)')
        read[number] = read_lesson(raw, f"lesson {number}", version)
    return slug, read


def read_lesson(raw: Any, where: str, version: int = 2) -> Lesson:
    if not isinstance(raw, dict):
        raise ProgressError(f"{where} must be an object")
    allowed = {"status", "draft", "quiz", "hintsShown", "checks"}
    if version == 2:
        allowed |= {"doneAt", "draftAt", "draftDevice", "draftBase", "earlier", "passedCode",
                    "passedAt"}
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise ProgressError(f'{where} has a field it cannot have: "{unknown[0][:40]}"')
    status = raw.get("status")
    if status not in STATUSES:
        raise ProgressError(f"{where}: status must be one of {', '.join(STATUSES)}")
    lesson: Lesson = {"status": status, "quiz": {}, "hintsShown": 0}
    if "doneAt" in raw:
        lesson["doneAt"] = _time(raw["doneAt"], f"{where}: doneAt")
        if status != "done":
            raise ProgressError(f"{where}: doneAt is given but the lesson is not done")
    quiz = raw.get("quiz", {})
    if not isinstance(quiz, dict):
        raise ProgressError(f"{where}: quiz must be an object of answers by question")
    if len(quiz) > MAX_QUIZ_ANSWERS:
        raise ProgressError(f"{where}: more than {MAX_QUIZ_ANSWERS} quiz answers")
    for question, answer in quiz.items():
        lesson["quiz"][question] = _read_answer(question, answer, where)
    hints = raw.get("hintsShown", 0)
    if not _is_int(hints) or not 0 <= hints <= MAX_HINTS:
        raise ProgressError(f"{where}: hintsShown must be a whole number from 0 to {MAX_HINTS}")
    lesson["hintsShown"] = hints
    if "checks" in raw:
        lesson["checks"] = _read_checks(raw["checks"], where)
    if "passedCode" in raw or "passedAt" in raw:
        lesson.update(_read_passed(raw, where))
    versions = []
    if "draft" in raw:
        draft = _text(raw["draft"], f"{where}: the draft", MAX_DRAFT)
        if version == 2 and "draftDevice" in raw:
            versions.append(_read_version({"draft": draft, "at": raw.get("draftAt"),
                                           "device": raw["draftDevice"],
                                           "base": raw.get("draftBase", {})}, f"{where}: the draft"))
        else:
            if "draftAt" in raw or "draftBase" in raw:
                raise ProgressError(f"{where}: draftAt and draftBase need draftDevice")
            versions.append({"draft": draft, "at": 0, "device": v1_device(draft), "base": {}})
    elif any(key in raw for key in ("draftAt", "draftDevice", "draftBase")):
        raise ProgressError(f"{where}: draftAt, draftDevice and draftBase need a draft")
    earlier = raw.get("earlier", [])
    if not isinstance(earlier, list):
        raise ProgressError(f"{where}: earlier must be a list of earlier versions")
    if len(earlier) > MAX_EARLIER:
        raise ProgressError(f"{where}: more than {MAX_EARLIER} earlier versions")
    if earlier and not versions:
        raise ProgressError(f"{where}: earlier versions need a draft")
    for index, item in enumerate(earlier):
        versions.append(_read_version(item, f"{where}: earlier version {index + 1}"))
    _set_versions(lesson, _newest_per_device(versions))
    return lesson


def _read_answer(question: Any, answer: Any, where: str) -> dict[str, Any]:
    if not isinstance(question, str) or not QUIZ_ID.match(question):
        raise ProgressError(f'{where}: "{str(question)[:40]}" is not a question id')
    if not isinstance(answer, dict) or set(answer) - {"answer", "correct", "at"}:
        raise ProgressError(f"{where}: quiz answer {question} must be an object with answer, "
                            "correct and (optionally) at")
    if not isinstance(answer.get("correct"), bool):
        raise ProgressError(f"{where}: quiz answer {question}: correct must be true or false")
    text = _text(answer.get("answer"), f"{where}: quiz answer {question}", MAX_ANSWER)
    at = _time(answer.get("at", 0), f"{where}: quiz answer {question}: at")
    return {"answer": text, "correct": answer["correct"], "at": at}


def _read_checks(checks: Any, where: str) -> dict[str, int]:
    if not isinstance(checks, dict) or set(checks) != {"passed", "total"}:
        raise ProgressError(f"{where}: checks must be an object with passed and total")
    passed, total = checks["passed"], checks["total"]
    if not (_is_int(passed) and _is_int(total) and 0 <= passed <= total <= MAX_CHECKS):
        raise ProgressError(f"{where}: checks must be whole numbers, passed at most total "
                            f"(at most {MAX_CHECKS})")
    return {"passed": passed, "total": total}


def _read_passed(raw: dict[str, Any], where: str) -> dict[str, Any]:
    if "passedCode" not in raw or "passedAt" not in raw:
        raise ProgressError(f"{where}: passedCode and passedAt go together")
    if raw.get("status") != "done":
        raise ProgressError(f"{where}: passedCode is given but the lesson is not done")
    return {"passedCode": _text(raw["passedCode"], f"{where}: the code that passed", MAX_DRAFT),
            "passedAt": _time(raw["passedAt"], f"{where}: passedAt")}


def _read_version(item: Any, where: str) -> dict[str, Any]:
    if not isinstance(item, dict) or set(item) - {"draft", "at", "device", "base"}:
        raise ProgressError(f"{where} must be an object with draft, at, device and base")
    draft = _text(item.get("draft"), where, MAX_DRAFT)
    at = _time(item.get("at"), f"{where}: at")
    device = item.get("device")
    if not isinstance(device, str) or not DEVICE.match(device):
        raise ProgressError(f"{where}: device must be a device id (letters, digits, _.:~-; at "
                            "most 64)")
    base = item.get("base", {})
    if not isinstance(base, dict) or len(base) > MAX_BASE:
        raise ProgressError(f"{where}: base must be an object of at most {MAX_BASE} device times")
    for key, value in base.items():
        if not DEVICE.match(key):
            raise ProgressError(f"{where}: base names a device that is not a device id")
        _time(value, f"{where}: base {key}")
    return {"draft": draft, "at": at, "device": device, "base": dict(base)}


def read_settings(value: Any) -> dict[str, dict[str, Any]]:
    """A document's settings ({} without any): each known, with a value it may take and the
    time it was chosen; anything else is refused with a ProgressError naming it."""
    if not isinstance(value, dict) or "settings" not in value:
        return {}
    settings = value["settings"]
    if not isinstance(settings, dict):
        raise ProgressError('"settings" must be an object of settings by name')
    read = {}
    for name, entry in settings.items():
        if name not in SETTINGS:
            raise ProgressError(f'"settings" has a setting it cannot have: "{str(name)[:40]}"')
        if not isinstance(entry, dict) or set(entry) != {"value", "at"}:
            raise ProgressError(f"setting {name} must be an object with value and at")
        if not isinstance(entry["value"], str) or entry["value"] not in SETTINGS[name]:
            raise ProgressError(f"setting {name} must be one of {', '.join(SETTINGS[name])}")
        read[name] = {"value": entry["value"], "at": _time(entry["at"], f"setting {name}: at")}
    return read


# --- the merge ----------------------------------------------------------------------------------

def _text_key(text: str) -> bytes:
    # JavaScript compares strings by UTF-16 code units: so do we, to agree on every tie.
    return text.encode("utf-16-be", "surrogatepass")


def _base_key(base: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(base.items())


def _version_key(version: dict[str, Any]) -> tuple:
    """Which of one device's versions wins: the newest, then (for a tie) a fixed order."""
    return (version["at"], _text_key(version["draft"]), _base_key(version["base"]))


def _rank(version: dict[str, Any]) -> tuple[int, str]:
    return (version["at"], version["device"])


def versions_of(lesson: Lesson) -> list[dict[str, Any]]:
    """The lesson's draft versions, newest first (the first is the draft)."""
    if "draft" not in lesson:
        return []
    current = {"draft": lesson["draft"], "at": lesson["draftAt"], "device": lesson["draftDevice"],
               "base": lesson.get("draftBase", {})}
    return [current, *lesson.get("earlier", [])]


def _newest_per_device(versions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    newest: dict[str, dict[str, Any]] = {}
    for version in versions:
        known = newest.get(version["device"])
        if known is None or _version_key(version) > _version_key(known):
            newest[version["device"]] = version
    ranked = sorted(newest.values(), key=_rank, reverse=True)
    return ranked[:1 + MAX_EARLIER]


def _set_versions(lesson: Lesson, versions: list[dict[str, Any]]) -> None:
    for key in ("draft", "draftAt", "draftDevice", "draftBase", "earlier"):
        lesson.pop(key, None)
    if not versions:
        return
    current, *earlier = versions
    lesson["draft"] = current["draft"]
    lesson["draftAt"] = current["at"]
    lesson["draftDevice"] = current["device"]
    lesson["draftBase"] = dict(current["base"])
    if earlier:
        lesson["earlier"] = [{**v, "base": dict(v["base"])} for v in earlier]


def _answer_key(answer: dict[str, Any]) -> tuple:
    return (answer["correct"], answer["at"], _text_key(answer["answer"]))


def merge_lesson(ours: Lesson, theirs: Lesson) -> Lesson:
    status = max(ours["status"], theirs["status"], key=STATUSES.index)
    merged: Lesson = {"status": status, "quiz": {}, "hintsShown": max(ours["hintsShown"],
                                                                       theirs["hintsShown"])}
    done_times = [t for t in (ours.get("doneAt"), theirs.get("doneAt")) if t is not None]
    if done_times:
        merged["doneAt"] = min(done_times)
    for question in sorted(set(ours["quiz"]) | set(theirs["quiz"])):
        answers = [a for a in (ours["quiz"].get(question), theirs["quiz"].get(question)) if a]
        merged["quiz"][question] = dict(max(answers, key=_answer_key))
    checks = [c for c in (ours.get("checks"), theirs.get("checks")) if c]
    if checks:
        merged["checks"] = dict(max(checks, key=lambda c: (c["passed"], c["total"])))
    passed = [lesson for lesson in (ours, theirs) if "passedCode" in lesson]
    if passed:
        newest = max(passed, key=lambda p: (p["passedAt"], _text_key(p["passedCode"])))
        merged["passedCode"], merged["passedAt"] = newest["passedCode"], newest["passedAt"]
    _set_versions(merged, _newest_per_device(versions_of(ours) + versions_of(theirs)))
    return merged


def merge(ours: Lessons, theirs: Lessons) -> Lessons:
    """Two courses' worth of lessons (version-2 form, as read_document gives) merged into one."""
    merged: Lessons = {}
    for number in sorted(set(ours) | set(theirs)):
        if number in ours and number in theirs:
            merged[number] = merge_lesson(ours[number], theirs[number])
        else:
            merged[number] = merge_lesson(ours.get(number) or theirs[number],
                                          theirs.get(number) or ours[number])
    return merged


def merge_settings(ours: dict[str, dict[str, Any]],
                   theirs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per setting, the latest choice (then the greater value, so that a tie has one answer)."""
    merged = {}
    for name in sorted(set(ours) | set(theirs)):
        choices = [entry for entry in (ours.get(name), theirs.get(name)) if entry]
        merged[name] = dict(max(choices, key=lambda c: (c["at"], _text_key(c["value"]))))
    return merged


def document(course: str, lessons: Lessons,
             settings: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """A version-2 progress document, the form the API answers with and the browser exports;
    `settings` only when there are any."""
    made = {"format": FORMAT, "version": VERSION, "course": course, "lessons": lessons}
    if settings:
        made["settings"] = settings
    return made
