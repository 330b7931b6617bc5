"""A check's result as pytest shows a test run: what the program printed first (only its last
lines, unless asked), the error's traceback, then each check with its explanation, and the
verdict last, where the eye lands, with what to do next."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .screen import Screen

if TYPE_CHECKING:
    from ..course import Course, Lesson
    from ..runtime import Result

SYMBOLS = {"pass": "✓", "fail": "✗", "error": "!", "not-attempted": "·"}
OUTPUT_TAIL = 10  # lines of the program's output shown unless --output


def print_result(screen: Screen, course: Course, lesson: Lesson, result: Result, *,
                 shown_fixes: set[str], whole_output: bool = False,
                 source: tuple[str, str] | None = None) -> None:
    """`source`: the checked file's text and name, to show where Python could not read it."""
    _printed(screen, result.stdout, whole_output)
    if source and result.status == "error" and not result.traceback:
        _unreadable(screen, *source)
    if result.traceback:
        screen.line("The error, where it happened in your code:", "title")
        for line in result.traceback.rstrip().splitlines():
            screen.line(f"  {line}", "error")
        screen.line()
    screen.line(f"{lesson.kind.capitalize()} {lesson.number}, {lesson.title}", "title")
    for check in result.checks:
        mark = f"  {SYMBOLS[check.status]} {check.name}"
        screen.line(mark + ("" if check.status in ("pass", "fail") else f" ({check.status})"),
                    check.status)
        if check.message and check.status != "pass":
            for line in check.message.splitlines():
                screen.wrapped(line, 6)
        if check.fix and check.status != "pass" and check.name in shown_fixes:
            # The literal line waits: the diagnosis first, the line after three tries (or
            # once the last hint is open).
            screen.wrapped(f"What to write: {check.fix}", 6, "code")
    screen.line()
    _verdict(screen, course, lesson, result)


def _unreadable(screen: Screen, source: str, name: str) -> None:
    """Python's own words for a file it cannot read: the line, a caret under the place, what it
    expected (the check's message names the line; this shows the column, as `python` does)."""
    try:
        compile(source, name, "exec", dont_inherit=True)
    except SyntaxError as error:
        import traceback

        screen.line("Where Python could not read your code:", "title")
        for line in "".join(traceback.format_exception_only(error)).rstrip().splitlines():
            screen.line(f"  {line}", "error")
        screen.line()
    except (ValueError, RecursionError, MemoryError, OverflowError):
        return  # the check's message says what (a NUL character, brackets nested too deep)


def _printed(screen: Screen, stdout: str, whole: bool) -> None:
    lines = stdout.rstrip("\n").splitlines() if stdout.strip() else []
    if not lines:
        return
    if whole or len(lines) <= OUTPUT_TAIL:
        screen.line("Your code printed:", "title")
        shown = lines
    else:
        screen.line(f"Your code printed {len(lines):,} lines; the last {OUTPUT_TAIL} "
                    "(--output shows them all):", "title")
        shown = lines[-OUTPUT_TAIL:]
    for line in shown:
        screen.line(f"  {line}")
    screen.line()


def _verdict(screen: Screen, course: Course, lesson: Lesson, result: Result) -> None:
    passed = sum(check.status == "pass" for check in result.checks)
    total = len(result.checks)
    number = lesson.number
    if result.status == "pass":
        screen.line(f"✓ {passed} / {total} checks pass: {lesson.kind} {number} is done, and these "
                    "lines are yours now.", "pass")
        screen.line(f"Next: {next_step(course, lesson)}")
        return
    if result.status == "not-attempted":
        screen.line("· Not attempted yet: this is still the starter. Fill in the TODOs, then "
                    "check again.", "not-attempted")
    else:
        screen.line(f"✗ {passed} / {total} checks pass.", "fail")
    hints = len(lesson.exercise.hints)
    stuck = f"`linebyline hint {number}` shows the next hint" if hints else \
        f"`linebyline show {number}` has the lesson"
    screen.line(f"Stuck? {stuck}.", "note")


def next_step(course: Course, lesson: Lesson) -> str:
    """The command to go on with after a pass (or what is still to come)."""
    published = list(course.lessons())
    later = [other for other in published if other.key > lesson.key]
    if later:
        following = later[0]
        return f"linebyline start {following.number}   ({following.title})"
    planned = coming_next(course, lesson)
    if planned:
        return f"lesson {planned} is coming soon; `linebyline lessons` shows the course"
    return "you have done the last lesson of the course: `linebyline train --mine` trains your own"


def coming_next(course: Course, lesson: Lesson) -> str | None:
    for module in course.modules:
        for index, _ in enumerate(module.planned, 1):
            number = f"{module.number}.{index}"
            if (module.number, index) > lesson.key[:2] and course.lesson(number) is None:
                return number
    return None
