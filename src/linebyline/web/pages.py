"""What the pages show, built from the course files and cached per content version.

The course is reloaded when any of its files changes (an author editing a lesson sees it on the
next request); everything derived from it is cached under the content version.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from functools import cached_property
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from .. import runtime
from ..authoring.computed import Computed, compute_lesson, compute_review
from ..course import (
    Course,
    CourseErrors,
    Lesson,
    Module,
    Recall,
    default_course_path,
    load_course,
)
from ..course.library import library_sources
from ..course.parsons import distractor
from ..course.prose import LESSON_REFERENCE, TAG, fill_facts, inline_markdown, markdown
from ..course.widgets import KINDS


def lesson_url(lesson: Lesson) -> str:
    return reverse("lesson", args=[f"{lesson.number}-{lesson.slug}"])


class CourseView:
    """One loaded version of the course and everything the pages derive from it."""

    def __init__(self, course: Course, version: str) -> None:
        self.course, self.version = course, version
        self._html: dict[tuple[str, str], str] = {}
        self._computed: dict[str, Computed] = {}
        self._computing = threading.Lock()

    def computed(self, lesson: Lesson) -> Computed:
        """The lesson's computed answers and widget data, worked out once per content version."""
        with self._computing:
            if lesson.number not in self._computed:
                self._computed[lesson.number] = compute_lesson(lesson)
            return self._computed[lesson.number]

    def computed_review(self, module: Module) -> Computed:
        key = f"review {module.number}"
        with self._computing:
            if key not in self._computed:
                self._computed[key] = compute_review(module)
            return self._computed[key]

    def review_quiz_data(self, module: Module) -> list[dict[str, Any]]:
        """A review's questions; answers are kept with the module's last lesson, not starting it."""
        if module.review is None:
            return []
        keeper = module.lessons[-1].number
        return questions_data(self, module.review.quiz, f"review{module.number}",
                               self.computed_review(module),
                               {"lesson": keeper, "touch": False}, module)

    def widget_params(self, lesson: Lesson) -> dict[str, Any]:
        params = dict(lesson.explore.params)
        if lesson.explore.compute:
            params["data"] = self.computed(lesson).data
        kind = KINDS[lesson.explore.kind]
        for key in kind.scripts:
            if key in params:
                params[f"{key}Url"] = self.script_url(params[key])
        if kind.runs_solution:
            # No secret: "Stuck?" shows the same solution.
            params["program"] = lesson.exercise.solution
            params["programName"] = lesson.exercise.filename
        return params

    def scripts(self) -> set[str]:
        """The course's scripts a browser may fetch: the program and each module's script."""
        return {self.course.program_name} | {m.script for m in self.course.modules}

    def script_url(self, name: str) -> str:
        return reverse("script", args=[name]) + f"?v={self.version}"

    def original_links(self, lesson: Lesson) -> list[dict[str, str]]:
        if not self.course.original_code:
            return []
        return [{"label": f"{a}–{b}" if a != b else f"{a}",
                 "url": self.course.original_lines_url(a, b)} for a, b in lesson.original]

    def facts(self, owner: Lesson | Module | None) -> tuple[str, dict[str, Any]]:
        """The facts a text of ``owner`` (a lesson, or a module for its review) may quote, and
        a key naming whose they are ("" when there are none)."""
        if isinstance(owner, Lesson) and owner.facts:
            return owner.number, self.computed(owner).facts
        if isinstance(owner, Module) and owner.review is not None and owner.review.facts:
            return f"review {owner.number}", self.computed_review(owner).facts
        return "", {}

    def html(self, text: str, owner: Lesson | Module | None = None) -> str:
        """Markdown rendered once per content version, however many pages show it: the
        facts of its lesson (or review) filled in, and references to other lessons linked (or
        marked "coming soon")."""
        whose, facts = self.facts(owner)
        key = (text, whose)
        if key not in self._html:
            self._html[key] = self.link_lessons(markdown(fill_facts(text, facts)))
        return self._html[key]

    def inline(self, text: str, owner: Lesson | Module | None = None) -> str:
        """One line of Markdown, as :meth:`html` does it, without a paragraph around it."""
        return self.link_lessons(inline_markdown(fill_facts(text, self.facts(owner)[1])))

    def link_lessons(self, html: str) -> str:
        """"lesson 8.1" as a link to it, or marked "coming soon" while it is only planned."""
        planned = {f"{m.number}.{i}" for m in self.course.modules
                   for i in range(1, len(m.planned) + 1)}
        return link_lesson_references(html, {lesson.number: lesson for lesson in self.lessons},
                                      planned)

    @cached_property
    def lessons(self) -> list[Lesson]:
        return list(self.course.lessons())

    @cached_property
    def all_published(self) -> bool:
        """Every lesson the course plans is published: finishing them all finishes the course."""
        return all(len(module.lessons) >= len(module.planned) for module in self.course.modules)

    @cached_property
    def countable(self) -> set[int]:
        return self.course.countable_lines()

    @cached_property
    def teacher_of_line(self) -> dict[int, Lesson]:
        owner: dict[int, Lesson] = {}
        for lesson in self.lessons:
            for number in sorted(lesson.unlocked_lines()):
                owner.setdefault(number, lesson)
        return owner

    def lesson_by_path(self, path: str) -> Lesson | None:
        number, _, slug = path.partition("-")
        lesson = self.course.lesson(number)
        return lesson if lesson and lesson.slug == slug else None

    def module_of(self, lesson: Lesson) -> Module:
        return next(m for m in self.course.modules if m.number == lesson.module)

    def next_lesson(self, lesson: Lesson) -> Lesson | None:
        index = self.lessons.index(lesson)
        return self.lessons[index + 1] if index + 1 < len(self.lessons) else None

    def next_module(self, module: Module) -> dict[str, Any] | None:
        """The first lesson of the next module that has one published, for a review's end."""
        later = [m for m in self.course.modules if m.number > module.number and m.lessons]
        if not later:
            return None
        first = later[0].lessons[0]
        return {"module": later[0], "lesson": first, "url": lesson_url(first)}

    def is_module_end(self, lesson: Lesson) -> bool:
        return self.module_of(lesson).lessons[-1] is lesson

    def learned_lines(self, lesson: Lesson) -> list[int]:
        return sorted(lesson.unlocked_lines() & self.countable)

    @cached_property
    def summary(self) -> dict[str, Any]:
        """What every page's scripts need to know about the course (progress, lines learned)."""
        return {
            "slug": self.course.slug,
            "version": self.version,
            "total": len(self.countable),
            "lessons": {
                lesson.number: {
                    "title": lesson.title, "url": lesson_url(lesson), "module": lesson.module,
                    "lines": self.learned_lines(lesson),
                } for lesson in self.lessons
            },
            "modules": {str(m.number): [lesson.number for lesson in m.lessons]
                        for m in self.course.modules},
        }

    def program_rows(self, current: Lesson | None = None) -> list[dict[str, Any]]:
        rows = []
        for number, text in enumerate(self.course.program_lines(), 1):
            teacher = self.teacher_of_line.get(number)
            rows.append({
                "number": number, "text": text, "blank": number not in self.countable,
                "teacher": teacher, "url": lesson_url(teacher) if teacher else "",
                "this": bool(current and number in current.unlocked_lines()),
            })
        while rows and rows[-1]["blank"] and not rows[-1]["text"]:
            rows.pop()  # the file's final newline is not a line to show
        return rows

    def exercise_data(self, lesson: Lesson | Recall) -> dict[str, Any]:
        return exercise_data(self, lesson)

    def quiz_data(self, lesson: Lesson) -> list[dict[str, Any]]:
        return questions_data(self, lesson.quiz, lesson.number, self.computed(lesson),
                               {"lesson": lesson.number}, lesson)

    def quiz_view(self, quiz: tuple, data: list[dict[str, Any]],
                  lesson: Lesson | Module | None = None) -> list[dict[str, Any]]:
        """What the quiz template shows: each question's prompt and choices as inline HTML."""
        return [{"id": item["id"], "kind": question.kind,
                 "prompt": self.inline(question.prompt, lesson),
                 "choices": [self.inline(choice.text, lesson) for choice in question.choices]}
                for question, item in zip(quiz, data)]


def link_lesson_references(html: str, published: dict[str, Lesson], planned: set[str]) -> str:
    """"lesson 8.1" in `html` as a link to it, or marked "coming soon" while it is only planned.

    Text inside code, links and preformatted blocks is left alone.
    """
    def one(number: str) -> str:
        if number in published:
            return f'<a href="{lesson_url(published[number])}">{number}</a>'
        if number in planned:
            return f'{number} <span class="soon">(coming soon)</span>'
        return number

    def refer(match: re.Match[str]) -> str:
        rest = re.sub(r"\d+\.\d+", lambda m: one(m.group(0)), match.group(3))
        return f"{match.group(1)} {one(match.group(2))}{rest}"

    parts, quiet = [], 0
    for part in TAG.split(html):
        if part.startswith("<"):
            name = part[1:].split(None, 1)[0].rstrip(">").lower() if len(part) > 2 else ""
            if name in ("code", "a", "pre"):
                quiet += 1
            elif name in ("/code", "/a", "/pre"):
                quiet = max(0, quiet - 1)
            parts.append(part)
        else:
            parts.append(part if quiet else LESSON_REFERENCE.sub(refer, part))
    return "".join(parts)


def questions_data(view: CourseView, quiz: tuple, prefix: str, computed: Computed,
                   extra: dict[str, Any], owner: Lesson | Module | None = None
                   ) -> list[dict[str, Any]]:
    """A quiz's questions as the page's script takes them: ids, answers, every explanation."""
    questions = []
    for index, question in enumerate(quiz):
        item: dict[str, Any] = {"id": f"{prefix}-q{index + 1}", "kind": question.kind,
                                "explain": view.html(question.explain, owner), **extra}
        if question.kind == "choice":
            item["choices"] = [{"correct": c.correct, "explain": view.html(c.explain, owner)}
                               for c in question.choices]
        else:
            item["answer"] = computed.answers.get(index)
            item["tolerance"] = question.tolerance
            # Expected wrong numbers, each with what it says about the slip behind it.
            item["wrong"] = [{"answer": value, "explain": view.html(wrong.explain, owner)}
                             for value, wrong in zip(computed.wrong.get(index, []),
                                                     question.wrong)]
            item["worked"] = view.html(question.worked or question.explain, owner)
        questions.append(item)
    return questions


def checks_url(view: CourseView, item: Lesson | Recall) -> str:
    """Where the page fetches the checks of a lesson, or of a module's recall exercise."""
    if isinstance(item, Recall):
        return reverse("recall-checks", args=[item.module]) + f"?v={view.version}"
    return reverse("checks", args=[f"{item.number}-{item.slug}"]) + f"?v={view.version}"


def exercise_data(view: CourseView, lesson: Lesson | Recall) -> dict[str, Any]:
    """The Build part's data for the browser; the solution stays out of the page (the
    checks' file carries it: "Stuck?" shows it from there when asked)."""
    exercise = lesson.exercise
    return {
        "lesson": lesson.number,
        "course": view.course.slug,
        "filename": exercise.filename,
        "starter": exercise.starter,
        # The checks are Python for the worker, fetched when Python needs them: the page
        # itself stays light (they are the largest part of a lesson's data).
        "checksUrl": checks_url(view, lesson),
        "checkNames": list(exercise.check_names),
        "hints": [view.html(hint, lesson) for hint in exercise.hints],
        # Captions are Markdown like hints (`code` in them), rendered here with HTML escaped.
        "codealong": [{"title": c.title, "caption": view.html(c.caption, lesson), "find": c.find,
                       "type": c.type} for c in exercise.codealong],
        # The Parsons rung of "Stuck?" shuffles the code-along's lines with one wrong line.
        "distractor": distractor(exercise),
        "runtimeUrl": reverse("runtime") + f"?v={runtime_version()}",
        # The on-my-own level of the TODO comments (course/levels.py), when the lesson has
        # it: its starter, and each TODO block at both levels for the Build's switch.
        "own": {"starter": exercise.own_starter,
                "blocks": [list(pair) for pair in exercise.level_pairs()]}
        if exercise.own_starter else None,
        # The Graph tab (build-graph.ts) and the rule its backward() steps are held to.
        "graph": graph_rule(view, lesson),
    }


def graph_rule(view: CourseView, item: Lesson | Recall) -> str:
    """The module's `graph:` rule for the Build's Graph tab, "" where it has none."""
    module = next((m for m in view.course.modules if m.number == item.module), None)
    return module.graph if module else ""


class _Cache:
    """Reload the course when its files change; hand out the current CourseView.

    Looking at every course file costs milliseconds (hundreds of files), so it is done at most
    once every RECHECK_SECONDS per process: an author sees an edit on the next reload a second
    later, and a busy server does not stat the course on every request.
    """

    RECHECK_SECONDS = 1.0

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._signature: tuple | None = None
        self._view: CourseView | None = None
        self._checked: tuple[Path, float] | None = None  # the path, and when it was last looked at

    def path(self) -> Path:
        return Path(settings.COURSE_DIR) if settings.COURSE_DIR else default_course_path()

    def _signature_of(self, path: Path) -> tuple:
        found = []
        for folder, _, names in os.walk(path):
            for name in names:
                status = os.stat(os.path.join(folder, name))
                found.append((os.path.join(folder, name), status.st_mtime_ns, status.st_size))
        return tuple(sorted(found))

    def get(self) -> CourseView:
        path = self.path()
        now = time.monotonic()
        checked = self._checked
        if (self._view is not None and checked is not None and checked[0] == path
                and now - checked[1] < self.RECHECK_SECONDS):
            return self._view
        signature = self._signature_of(path)
        with self._lock:
            if self._view is None or signature != self._signature:
                course = load_course(path)  # raises CourseErrors, shown on an error page
                version = hashlib.sha256(repr(signature).encode()).hexdigest()[:12]
                self._view, self._signature = CourseView(course, version), signature
            self._checked = (path, now)
            return self._view


current = _Cache()


WIDGETS_BUILT = Path(__file__).parent / "static" / "linebyline" / "dist" / "widgets"


def widget_assets(kind: str) -> dict[str, str]:
    """The static paths of a widget kind's own script and style sheet, as far as they exist."""
    return {ext: f"linebyline/dist/widgets/{kind}.{ext}" for ext in ("js", "css")
            if (WIDGETS_BUILT / f"{kind}.{ext}").is_file()}


def runtime_sources() -> dict[str, str]:
    """The check runtime's files, as the browser writes them into Pyodide's file system, and
    the course's modules that learners' files import (runtime/browser.py reads them)."""
    folder = Path(runtime.__file__).parent
    files = {"linebyline/__init__.py": ""}  # the package's real __init__ is not needed there
    for path in sorted(folder.glob("*.py")):
        files[f"linebyline/runtime/{path.name}"] = path.read_text(encoding="utf-8")
    files["linebyline/course_library.json"] = json.dumps(library_sources(current.path()),
                                                         sort_keys=True)
    return files


def runtime_version() -> str:
    digest = hashlib.sha256()
    for name, source in runtime_sources().items():
        digest.update(name.encode() + b"\0" + source.encode())
    return digest.hexdigest()[:12]


def course_or_error(request: HttpRequest) -> tuple[CourseView | None, HttpResponse | None]:
    """The course's view, or the page that shows its authoring errors (file:line)."""
    try:
        return current.get(), None
    except CourseErrors as errors:
        # An author editing course files sees exactly what is wrong, file:line.
        return None, render(request, "linebyline/course_errors.html",
                            {"errors": errors.errors}, status=500)


def checks_body(lesson: Lesson | Recall) -> bytes:
    """What a lesson's page fetches to check a learner's code: its checks and the reference."""
    return json.dumps({"checks": lesson.exercise.checks_source,
                       "reference": lesson.exercise.solution}).encode()
