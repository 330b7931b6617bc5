"""The end of the course: what the learner built.

The page shows the learner's own microgpt.py (assembled, as on My microgpt, from their passing
lesson code), its training curve beside the reference's, the names it invented, and their figures:
lessons done, lines of the program that are theirs, lines they wrote, checks passed. Progress
lives in the browser, so the page's script works the figures out there; the server hands it what
only the course knows: each lesson's checks and written lines, and the reference run that
scripts/train_reference.py keeps in the course folder (runs/microgpt.json).
"""
from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from ..authoring.lesson_standard import learner_lines
from ..course import Course
from ..mine.assemble import MAX_DRAFT_CHARS
from . import rendered
from .mine import assembler_url
from .pages import CourseView, course_or_error

RUN_FILE = Path("runs") / "microgpt.json"
BEYOND = ("Where next? Lesson 12.2 (Experiments) trains it on data of your own, with more layers "
          "or wider vectors; lesson 12.3 (From microgpt to ChatGPT) says what changes at scale. "
          "The [original microgpt guide](https://karpathy.github.io/2026/02/12/microgpt/) walks "
          "through the same algorithm.")
_runs: dict[str, dict[str, Any] | None] = {}
_lock = threading.Lock()


def reference_run(view: CourseView) -> dict[str, Any] | None:
    """The course's kept run of its program (every step's loss, the names it printed), or None
    if the course keeps none; read once per loaded version of the course."""
    with _lock:
        if view.version not in _runs:
            _runs.clear()
            _runs[view.version] = _read_run(view.course)
        return _runs[view.version]


def _read_run(course: Course) -> dict[str, Any] | None:
    path = course.path / RUN_FILE
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    losses, samples = run.get("losses"), run.get("samples")
    if not isinstance(losses, list) or not isinstance(samples, list):
        return None
    return {"script": str(run.get("script", course.program_name)), "steps": len(losses),
            "losses": losses, "samples": samples}


def lesson_facts(view: CourseView) -> dict[str, dict[str, int]]:
    """Per lesson: how many checks it has and how many lines its learner writes."""
    return {lesson.number: {"checks": len(lesson.exercise.check_names),
                            "written": len(learner_lines(lesson))}
            for lesson in view.lessons}


@require_safe
def page(request: HttpRequest) -> HttpResponse:
    view, error = course_or_error(request)
    if error:
        return error
    return rendered.respond(request, page_for(view))


def page_for(view: CourseView) -> rendered.RenderedPage:
    """The same for every learner (their figures come from the progress in their browser), so
    the service worker keeps it with the rest of the course."""
    return rendered.shared_page(view, "end", "linebyline/end.html", lambda: page_context(view))


def page_context(view: CourseView) -> dict[str, object]:
    program = view.course.program_name
    return {
        "program": program, "complete": view.all_published, "beyond": view.inline(BEYOND),
        "page_data": {
            "assembleUrl": reverse("my-microgpt-assemble"), "script": program,
            # Offline, the page assembles in the browser, as My microgpt does.
            "assemblerUrl": assembler_url(view),
            "myMicrogptUrl": reverse("my-microgpt"), "homeUrl": reverse("home"),
            "maxDraft": MAX_DRAFT_CHARS, "lessons": lesson_facts(view),
            "complete": view.all_published, "reference": reference_run(view),
            "blank": blank_page(view),
        },
    }


def blank_page(view: CourseView) -> dict[str, Any] | None:
    """What the blank-page recall needs in the browser: the kept first steps of the program and
    its regions, never its text (a recall is not a copy away); None if the course keeps none."""
    from ..mine.blank import FIRST, KEPT, regions

    course = view.course
    try:
        kept = json.loads((course.path / KEPT).read_text(encoding="utf-8"))
        parts = regions((course.path / course.program_name).read_text(encoding="utf-8"))
    except (OSError, ValueError, SyntaxError, StopIteration):
        return None
    return {"kept": json.dumps(kept), "regions": json.dumps(parts.to_dict()), "steps": FIRST,
            "name": course.program_name, "command": f"linebyline start {Path(course.program_name).stem}",
            "unlocks": json.dumps({lesson.number: lesson.unlocks for lesson in view.lessons})}
