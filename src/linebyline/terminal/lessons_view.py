"""`linebyline lessons`: the course's modules and lessons, with this learner's marks (✓ done, ✗
its last check failed, … started) and the next command to run."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..runtime.words import plural
from .learner import local_progress, say_problems, sync_now
from .screen import Screen

if TYPE_CHECKING:
    from ..course import Course

MARKS = {"done": "✓", "failing": "✗", "in-progress": "…", "not-started": " "}


def mark_of(entry: dict | None) -> str:
    """✓ done, ✗ its last checks did not all pass, … started, blank: not started."""
    if not entry or entry["status"] == "not-started":
        return "not-started"
    if entry["status"] == "done":
        return "done"
    checks = entry.get("checks")
    return "failing" if checks and checks["passed"] < checks["total"] else "in-progress"


def list_lessons(course: Course) -> None:
    local = local_progress(course)
    note = sync_now(course, local)
    progress = local.lessons()
    say_problems(local)
    screen = Screen()
    total = len(course.countable_lines())
    done = [lesson for lesson in course.lessons() if mark_of(progress.get(lesson.number)) == "done"]
    learned = set().union(*(lesson.unlocked_lines() for lesson in done)) & course.countable_lines()
    screen.line(f"{course.title}: {course.program_name}, {total} lines to learn; "
                f"{plural(len(done), 'lesson')} done, {plural(len(learned), 'line')} yours",
                "title")
    screen.line("✓ done   ✗ its last check failed   … started", "note")
    if note:
        screen.line(note, "note")
    screen.line()
    for module in course.modules:
        screen.line(f"Module {module.number}  {module.title}  ({module.script})", "title")
        published = {lesson.number: lesson for lesson in module.lessons}
        titles = list(module.planned)
        for lesson in module.lessons:  # published lessons beyond the plan still show
            index = lesson.key[1] - 1
            if index >= len(titles):
                titles.extend([""] * (index + 1 - len(titles)))
        for index, title in enumerate(titles, 1):
            number = f"{module.number}.{index}"
            lesson = published.get(number)
            if lesson:
                mark = mark_of(progress.get(number))
                lines = len(lesson.unlocked_lines() & course.countable_lines())
                screen.line(f"{MARKS[mark]} {number:>5}  {lesson.title:<44} {lesson.minutes:>3} "
                            f"min  +{plural(lines, 'line')}",
                            {"done": "pass", "failing": "fail"}.get(mark, ""))
            else:
                screen.line(f"  {number:>5}  {title:<44} (coming soon)", "note")
        recall = module.review.recall if module.review else None
        if recall is not None:  # the module's code again, from memory
            mark = mark_of(progress.get(recall.number))
            screen.line(f"{MARKS[mark]} {recall.number}  {recall.title}: its review's "
                        "recall exercise", {"done": "pass", "failing": "fail"}.get(mark, ""))
        screen.line()
    first = next((lesson for lesson in course.lessons()
                  if mark_of(progress.get(lesson.number)) != "done"), None)
    if first is not None:
        verb = "start" if mark_of(progress.get(first.number)) == "not-started" else "check"
        screen.line(f"Next: linebyline {verb} {first.number}   ({first.title})")
