"""What a lesson computes with its own code: its predictions' answers (right and expected wrong
ones), its widget's data, and the facts its prose quotes.

Nothing a learner is shown as a fact is typed in by hand. A prediction's ``compute`` sets
``answer`` (so does each of its expected wrong answers); a widget's ``compute`` sets ``data``;
the lesson's ``facts`` sets ``facts``, a dict of the numbers its text quotes as ``{{name}}``;
each runs after the lesson's solution (and may import the course's own modules from its
``compute/`` folder, e.g. a fast trainer several lessons share), in a
separate process whose working folder holds the names as ``input.txt`` (as the learner's code
has it). Results are cached in memory and on disk, keyed by everything they depend on, so only
the first look at a changed lesson pays for running it. The course ships its figures too
(``computed.json`` beside course.yaml, written by a whole-course ``linebyline lint``): a fresh
clone's lint and server read them there instead of training again.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..course import Lesson, Module, Question
from ..course.cached import cache_dir
from ..course.dataset import names_file
from ..course.widgets import KINDS
from ..sandbox import compute, compute_fingerprint

TIMEOUT = 300.0  # seconds for all of one lesson's computations: an author's bound, not a learner's
PROTOCOL = "4"  # bump when what is cached changes shape
SHIPPED = "computed.json"  # beside course.yaml: the figures, as its last whole-course lint found them


@dataclass
class Computed:
    """One lesson's computed values. ``answers[i]`` belongs to quiz question i (predictions only)."""

    answers: dict[int, float] = field(default_factory=dict)
    wrong: dict[int, list[float]] = field(default_factory=dict)  # per question, in order
    data: Any = None
    facts: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@cache
def _file_digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _names_digest() -> str:
    path = names_file()
    stat = path.stat()
    return _file_digest(str(path), stat.st_mtime_ns, stat.st_size)


def _items(quiz: tuple[Question, ...], widget_code: str = "", facts_code: str = ""
           ) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for index, question in enumerate(quiz):
        if question.kind != "predict" or not question.compute:
            continue
        items.append({"code": question.compute, "name": "answer", "question": index})
        items.extend({"code": wrong.compute, "name": "answer", "question": index,
                      "wrong": number} for number, wrong in enumerate(question.wrong))
    if widget_code and facts_code:
        # The facts may quote the widget's numbers: they run after its code, in its namespace.
        items.append({"code": widget_code, "name": "data", "question": None, "widget": True,
                      "then": {"code": facts_code, "name": "facts"}})
    elif widget_code:
        items.append({"code": widget_code, "name": "data", "question": None, "widget": True})
    elif facts_code:
        items.append({"code": facts_code, "name": "facts", "question": None, "facts": True})
    return items


LIBRARY = "compute"  # a course's folder of modules its computations may import


def library_of(course_path: Path) -> Path | None:
    """The course's `compute/` folder, absolute: the computations run in a folder of their own,
    where a relative path (`linebyline lint courses/microgpt`) would find nothing."""
    folder = (course_path / LIBRARY).resolve()
    return folder if folder.is_dir() else None


def _library_digest(library: Path | None) -> str:
    """The course's own code that computations may use: its `compute/` modules, its `library/`,
    and the program and scripts beside them (some computations run microgpt.py itself)."""
    if library is None:
        return ""
    digest = hashlib.sha256()
    for path in sorted([*library.rglob("*.py"), *library.parent.glob("*.py"),
                        *(library.parent / "library").rglob("*.py")]):
        digest.update(str(path.relative_to(library.parent)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _key(solution: str, items: list[dict[str, Any]], library: Path | None) -> str:
    # Python's version, not its build: the key must be the same on every machine that would
    # compute the same numbers, so that the figures a course ships are found there.
    python = f"{sys.implementation.name} {sys.version_info.major}.{sys.version_info.minor}"
    text = json.dumps([PROTOCOL, python, compute_fingerprint(), _names_digest(), solution,
                       [[item["code"], item.get("then")] for item in items],
                       _library_digest(library)])
    return hashlib.sha256(text.encode()).hexdigest()


_memory: dict[str, list[dict[str, Any]]] = {}
_used: dict[Path, dict[str, list[dict[str, Any]]]] = {}  # per course: what its lessons needed
_lock = threading.Lock()


def _run(solution: str, items: list[dict[str, Any]], course_root: Path
         ) -> list[dict[str, Any]]:
    library = library_of(course_root)
    key = _key(solution, items, library)
    with _lock:
        results = _memory.get(key)
    if results is None:
        results = _shipped(course_root).get(key) or _stored_or_computed(key, solution, items,
                                                                        library)
        with _lock:
            _memory[key] = results
    with _lock:
        _used.setdefault(course_root.resolve(), {})[key] = results
    return results


def _stored_or_computed(key: str, solution: str, items: list[dict[str, Any]],
                        library: Path | None) -> list[dict[str, Any]]:
    stored = cache_dir() / f"{key}.json"
    try:
        return json.loads(stored.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        results = _run_child(solution, items, library)
        if not any("error" in result for result in results):
            _store(stored, results)
        return results


def _shipped(course_root: Path) -> dict[str, list[dict[str, Any]]]:
    path = course_root / SHIPPED
    try:
        stat = path.stat()
    except OSError:
        return {}
    return _read_shipped(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def _read_shipped(path: str, mtime_ns: int, size: int) -> dict[str, list[dict[str, Any]]]:
    try:
        shipped = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # unreadable: every figure is computed, as in a course that ships none
    if not isinstance(shipped, dict) or shipped.get("protocol") != PROTOCOL:
        return {}
    entries = shipped.get("entries")
    return entries if isinstance(entries, dict) else {}


@dataclass(frozen=True)
class Shipped:
    """What `ship` did to a course's computed.json."""

    path: Path
    kept: int
    added: int
    dropped: int
    error: str = ""

    @property
    def changed(self) -> bool:
        return bool(self.added or self.dropped)


def ship(course_root: Path) -> Shipped:
    """Write the figures this process's lessons and reviews of the course needed into its
    computed.json (only those: a figure no lesson needs any more is dropped). Call it after
    computing every lesson and review of the course; failed computations are not kept."""
    path = course_root / SHIPPED
    with _lock:
        used = {key: results for key, results in _used.get(course_root.resolve(), {}).items()
                if not any("error" in result for result in results)}
    before = _shipped(course_root)
    added = sum(1 for key in used if key not in before)
    dropped = sum(1 for key in before if key not in used)
    done = Shipped(path, len(used), added, dropped)
    if not done.changed and path.is_file():
        return done
    lines = ",\n".join(f"{json.dumps(key)}: {json.dumps(used[key], separators=(',', ':'))}"
                       for key in sorted(used))
    text = ('{"about": "The figures this course\'s lessons compute, as `linebyline lint` last found '
            'them; keyed by everything they depend on, so a stale entry is never read.",\n'
            f'"protocol": {json.dumps(PROTOCOL)},\n"entries": {{\n{lines}\n}}}}\n')
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        return Shipped(path, len(used), added, dropped, str(error))
    return done


def unshipped(course_root: Path, lessons: list[Lesson], modules: list[Module]) -> list[str]:
    """The lessons and reviews whose figures the course's computed.json does not hold (their
    numbers), found without computing anything."""
    shipped = _shipped(course_root)
    library = library_of(course_root)
    missing = []
    for lesson in lessons:
        items = _items(lesson.quiz, lesson.explore.compute, lesson.facts)
        if items and _key(lesson.exercise.solution, items, library) not in shipped:
            missing.append(lesson.number)
    for module in modules:
        if module.review is None or not module.lessons:
            continue
        items = _items(module.review.quiz, facts_code=module.review.facts)
        if items and _key(module.lessons[-1].exercise.solution, items, library) not in shipped:
            missing.append(f"review {module.number}")
    return missing


def _run_child(solution: str, items: list[dict[str, Any]], library: Path | None
               ) -> list[dict[str, Any]]:
    return compute(solution, [{key: item[key] for key in ("code", "name", "then") if key in item}
                              for item in items], TIMEOUT, library)


def _store(path: Path, results: list[dict[str, Any]]) -> None:
    """Write the cache file atomically; a cache that cannot be written is only slower."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp",
                                         encoding="utf-8") as handle:
            json.dump(results, handle)
        os.replace(handle.name, path)
    except OSError:
        pass


def _answers(quiz: tuple[Question, ...], items: list[dict[str, Any]],
             results: list[dict[str, Any]], where: Path, computed: Computed) -> None:
    for item, result in zip(items, results):
        index = item["question"]
        if index is None:
            continue
        question = quiz[index]
        wrong = item.get("wrong")
        what = "`compute`" if wrong is None else f"wrong answer {wrong + 1}'s `compute`"
        line = question.line if wrong is None else question.wrong[wrong].line
        place = f"{where}:{line}: question {index + 1}'s {what}"
        value = result.get("value")
        if "error" in result:
            computed.problems.append(f"{place} failed: {result['error']}")
        elif (isinstance(value, bool) or not isinstance(value, (int, float))
              or not math.isfinite(value)):
            computed.problems.append(f"{place} must set `answer` to a number, not {value!r}")
        elif wrong is None:
            computed.answers[index] = float(value)
        else:
            computed.wrong.setdefault(index, []).append(float(value))
    _distinct_wrong(quiz, where, computed)


def _distinct_wrong(quiz: tuple[Question, ...], where: Path, computed: Computed) -> None:
    """An expected wrong number must differ from the answer, and from the other wrong ones,
    by more than the tolerance: else the learner would be told two things for one number."""
    for index, values in computed.wrong.items():
        question = quiz[index]
        answer = computed.answers.get(index)
        tolerance = max(question.tolerance, 1e-9)
        for number, value in enumerate(values):
            place = f"{where}:{question.wrong[number].line}: question {index + 1}'s wrong answer {number + 1}"
            if answer is not None and abs(value - answer) <= tolerance:
                computed.problems.append(f"{place} computes {value:g}, the right answer itself")
            if any(abs(value - other) <= tolerance for other in values[:number]):
                computed.problems.append(f"{place} computes {value:g}, like an earlier wrong answer")


def compute_lesson(lesson: Lesson) -> Computed:
    """Run the lesson's computations (or read them from the cache) and check what came back."""
    items = _items(lesson.quiz, lesson.explore.compute, lesson.facts)
    computed = Computed()
    if not items:
        return computed
    where = lesson.path / "lesson.yaml"
    results = _run(lesson.exercise.solution, items, lesson.path.parent.parent)
    _answers(lesson.quiz, items, results, where, computed)
    for item, result in zip(items, results):
        if item.get("widget"):
            place = f"{where}:{lesson.explore.line}: the widget's `compute`"
            if "then" in item:
                _facts(result.get("then", result), f"{where}: `facts`", computed)
            if "error" in result:
                computed.problems.append(f"{place} failed: {result['error']}")
                continue
            problem = KINDS[lesson.explore.kind].check_data(result["value"])
            if problem:
                computed.problems.append(f"{place} set `data` wrongly: {problem}")
            else:
                computed.data = result["value"]
        elif item.get("facts"):
            _facts(result, f"{where}: `facts`", computed)
    return computed


def _facts(result: dict[str, Any], place: str, computed: Computed) -> None:
    value = result.get("value")
    if "error" in result:
        computed.problems.append(f"{place} failed: {result['error']}")
    elif not isinstance(value, dict) or not all(
            isinstance(item, (int, float, str)) and not isinstance(item, bool)
            for item in value.values()):
        computed.problems.append(f"{place} must set `facts` to a dict of numbers or text, "
                                 f"not {value!r}")
    else:
        computed.facts = value


def compute_review(module: Module) -> Computed:
    """A module review's predictions, computed after the solution of the module's last lesson."""
    computed = Computed()
    if module.review is None or not module.lessons:
        return computed
    items = _items(module.review.quiz, facts_code=module.review.facts)
    if items:
        results = _run(module.lessons[-1].exercise.solution, items,
                       module.review.path.parent.parent)
        _answers(module.review.quiz, items, results, module.review.path, computed)
        for item, result in zip(items, results):
            if item.get("facts"):
                _facts(result, f"{module.review.path}: `facts`", computed)
    return computed
