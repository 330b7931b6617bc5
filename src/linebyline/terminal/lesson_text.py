"""A lesson's words in the terminal: `show` (the lead and the Watch text, paged when long), `hint`
(the next graded hint, counted as the browser counts it) and `solution` (after a confirmation)."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..course.model import Recall
from ..runtime.words import plural
from .learner import local_progress, say_problems, send_later
from .screen import Screen

if TYPE_CHECKING:
    from ..course import Course, Lesson, Module


def facts_filled(lesson: Lesson, text: str) -> str:
    """The lesson's computed numbers in place of {{name}} (worked out once, then cached)."""
    if "{{" not in text or not lesson.facts:
        return text
    from ..authoring.computed import compute_lesson
    from ..course.prose import fill_facts

    return fill_facts(text, compute_lesson(lesson).facts)


def show(course: Course, lesson: Lesson | Recall, screen: Screen) -> None:
    module = next(m for m in course.modules if m.number == lesson.module)
    if isinstance(lesson, Recall):
        show_recall(module, lesson, screen)
        return
    with screen.pager():
        screen.line(f"Lesson {lesson.number}: {lesson.title}", "title")
        screen.line(f"Module {module.number}, {module.title} · {lesson.minutes} min · builds "
                    f"{lesson.script}", "note")
        screen.line()
        screen.markdown(facts_filled(lesson, lesson.lead))
        screen.line()
        screen.markdown(facts_filled(lesson, lesson.watch))
        screen.line()
        screen.line("Where these lines go", "title")
        screen.markdown(facts_filled(lesson, lesson.where))
        screen.line()
        exercise = lesson.exercise
        screen.line(f"Build: your file is {exercise.filename}, with "
                    f"{plural(len(exercise.check_names), 'check')}.", "title")
        screen.line(f"  linebyline start {lesson.number}    writes it (and the input.txt it reads)")
        screen.line(f"  linebyline watch {lesson.number}    checks it on every save")
        if exercise.hints:
            screen.line(f"  linebyline hint {lesson.number}     one hint at a time "
                        f"({len(exercise.hints)} in all)")
        if lesson.quiz:
            screen.line(f"  linebyline quiz {lesson.number}     "
                        f"{plural(len(lesson.quiz), 'question')} to check yourself")


def show_recall(module: Module, recall: Recall, screen: Screen) -> None:
    """A recall exercise: what it asks for, which lessons' checks judge it, and the commands."""
    exercise = recall.exercise
    with screen.pager():
        screen.line(f"{recall.title} ({recall.number})", "title")
        screen.line(f"Module {module.number}, {module.title}: its review's recall exercise", "note")
        screen.line()
        screen.line(f"Write the module's code again, from memory, in {exercise.filename}: the "
                    "file holds only what the code needs (signatures, docstrings, data), and the "
                    f"checks of lessons {', '.join(recall.lessons)} judge it, with the same "
                    "messages. Its hints send you back to the lesson to reread, never to the code.")
        if module.review is not None and module.review.summary:
            screen.line()
            screen.line("What the module built", "title")
            screen.markdown(module.review.summary)
        screen.line()
        screen.line(f"Your file is {exercise.filename}, with "
                    f"{plural(len(exercise.check_names), 'check')}.", "title")
        screen.line(f"  linebyline start {recall.number}    writes it (and the input.txt it reads)")
        screen.line(f"  linebyline watch {recall.number}    checks it on every save")
        if exercise.hints:
            screen.line(f"  linebyline hint {recall.number}     which lesson to reread "
                        f"({len(exercise.hints)} hints in all)")


def hint(course_arg: str | None, course: Course, lesson: Lesson, screen: Screen,
         every: bool) -> int:
    hints = lesson.exercise.hints
    if not hints:
        screen.line(f"{lesson.kind.capitalize()} {lesson.number} has no hints: `linebyline show "
                    f"{lesson.number}` explains it.")
        return 0
    local = local_progress(course)
    shown = local.lesson(lesson.number)["hintsShown"]
    count = min(shown + 1, len(hints)) if not every else max(shown, 1)
    if count > shown:
        local.record_hints(lesson.number, count)
        from ..progress.events import record_event

        record_event(local, lesson.number, {"kind": "hint", "hint": count})
    say_problems(local)
    first = 1 if every else count
    for number in range(first, count + 1):
        screen.line(f"Hint {number} of {len(hints)} ({lesson.kind} {lesson.number}):", "title")
        screen.markdown(facts_filled(lesson, hints[number - 1]), indent=2)
        screen.line()
    if count >= len(hints):
        screen.line("That is the last hint: `check` now shows the literal line for each check "
                    f"that fails. `linebyline solution {lesson.number}` shows the whole "
                    "solution.", "note")
    else:
        screen.line(f"`linebyline hint {lesson.number}` again for the next one "
                    f"({len(hints) - count} more).", "note")
    note = send_later(course_arg, course, local)
    if note:
        screen.line(note, "note")
    return 0


def solution(course: Course, lesson: Lesson, screen: Screen, yes: bool) -> int | None:
    """The solution, after a confirmation; None when the learner did not confirm."""
    if not yes:
        if not sys.stdin.isatty():
            return None
        answer = screen.ask(f"Show the solution of {lesson.kind} {lesson.number}? Trying the hints "
                            f"first (`linebyline hint {lesson.number}`) teaches more. [y/N] ")
        if (answer or "").strip().lower() not in ("y", "yes"):
            screen.line("Not shown.")
            return 0
    from ..progress.events import record_event

    local = local_progress(course)
    with local.changing_notes() as notes:  # the browser counts it for the teacher only, too
        revealed = notes.get("solutions") if isinstance(notes.get("solutions"), list) else []
        if lesson.number not in revealed:
            revealed.append(lesson.number)
        notes["solutions"] = revealed
    record_event(local, lesson.number, {"kind": "solution"})
    header = f"The solution of {lesson.kind} {lesson.number} ({lesson.exercise.filename}):"
    if screen.rich:
        screen.line(header, "title")
    else:  # into a file or a pipe: the code alone, so that `solution --yes > f` is Python
        print(header, file=sys.stderr)
    screen.code(lesson.exercise.solution)
    return 0
