"""Prove a course: every exercise both ways, every known mistake, every line it claims to teach.

``lint_course`` returns a report instead of printing, so the CLI and the tests read the same
findings. A problem is anything that would mislead a learner; a note is information.
"""
from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..course import Course, Lesson, Recall, apply_edits
from ..course.model import recall_number
from ..mine.scripts import NUM_STEPS, TRAINING_LOOP
from ..runtime.words import plural
from . import lesson_standard
from .computed import compute_lesson, compute_review, ship
from .proving import Prover

# "lesson 7.5", "7.5 (backward())", "lessons 3.3 to 3.5": where a recall hint sends the learner.
LESSON_MENTION = re.compile(r"\b\d{1,2}\.\d{1,2}\b")


@dataclass
class LessonReport:
    lesson: Lesson | Recall  # a lesson, or a module's recall exercise
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Where the lesson falls short of the lesson standard (lesson_standard.py): problems too
    # when linting with strict=True.
    standard: list[str] = field(default_factory=list)


@dataclass
class CourseReport:
    course: Course
    lessons: list[LessonReport]
    problems: list[str]  # course-wide
    uncovered: list[int]
    notes: list[str] = field(default_factory=list)
    standard: list[str] = field(default_factory=list)  # course-wide, as LessonReport.standard
    strict: bool = False

    @property
    def ok(self) -> bool:
        shortfalls = bool(self.standard) or any(report.standard for report in self.lessons)
        return (not self.problems and not any(report.problems for report in self.lessons)
                and not (self.strict and shortfalls))


def _taught_twice(course: Course) -> list[str]:
    """A line belongs to one lesson: the "N / total lines learned" count adds each line once, and
    the program page links each line to the lesson that teaches it."""
    teacher: dict[int, str] = {}
    twice: dict[str, list[int]] = {}
    for lesson in course.lessons():
        for line in sorted(lesson.unlocked_lines() & course.countable_lines()):
            if line in teacher:
                twice.setdefault(f"{teacher[line]} and {lesson.number}", []).append(line)
            else:
                teacher[line] = lesson.number
    return [f"{course.program_name}: {'line' if len(lines) == 1 else 'lines'} "
            f"{format_ranges(lines)} {'is' if len(lines) == 1 else 'are'} unlocked by both "
            f"lesson {pair}; a line is unlocked only by the lesson that teaches it first"
            for pair, lines in twice.items()]


def _script_problems(course: Course) -> list[str]:
    """Each module's training script has the one step count and loop the widgets cut short."""
    problems = []
    for module in course.modules:
        script = course.path / module.script
        text = script.read_text(encoding="utf-8")
        if len(NUM_STEPS.findall(text)) != 1:
            problems.append(f"{script}: needs exactly one `num_steps = N` line")
        if len(TRAINING_LOOP.findall(text)) != 1:
            problems.append(f"{script}: needs exactly one `for step in range(num_steps):` "
                            "training loop (train-run's first_steps stops it early)")
    return problems


def _prove(course: Course, lessons: list, recalls: list) -> list:
    """Every lesson's and recall's proof, in the course's order."""
    # The runs go to one worker process per core (proving.py); twice as many threads keep them
    # busy while each thread reads a result. Reports stay in the course's order.
    threads = 2 * (os.cpu_count() or 2)
    with Prover() as prover, ThreadPoolExecutor(max_workers=threads) as pool:
        # The recall exercises first: each runs a whole module's checks (the longest proofs),
        # so started last they would leave the cores idle but one at the end.
        recall_reports = [pool.submit(lint_recall, course, recall, prover) for recall in recalls]
        reports = list(pool.map(lambda lesson: lint_lesson(course, lesson, prover), lessons))
        return reports + [report.result() for report in recall_reports]


def lint_course(course: Course, require_full_coverage: bool = False,
                only: list[str] | None = None, strict: bool = False) -> CourseReport:
    """Prove every lesson (or only the lessons numbered in ``only``); with ``strict``, a lesson
    that falls short of the lesson standard fails too."""
    problems = _script_problems(course)
    standard = []
    uncovered = course.uncovered_lines()
    if require_full_coverage and uncovered:
        many = len(uncovered) != 1
        problems.append(f"{course.program_name}: {len(uncovered)} non-blank "
                        f"{'lines are' if many else 'line is'} taught by no lesson: "
                        f"{format_ranges(uncovered)}")
    problems.extend(_taught_twice(course))
    lessons = [lesson for lesson in course.lessons() if not only or lesson.number in only]
    notes = []
    for module in course.modules:
        numbers = [lesson.number for lesson in module.lessons] + [recall_number(module.number)]
        if module.review is None or (only and not set(numbers) & set(only)):
            continue
        computed = compute_review(module)
        problems.extend(computed.problems)
        standard.extend(lesson_standard.quiz_problems(module.review.quiz, str(module.review.path)))
        standard.extend(lesson_standard.review_problems(course, module, computed))
        answers = ", ".join(f"{a:g}" for a in computed.answers.values())
        notes.append(f"module {module.number} review: {plural(len(module.review.quiz), 'question')}"
                     + (f", predictions computed: {answers}" if answers else ""))
    recalls = [recall for recall in course.recalls() if not only or recall.number in only]
    reports = _prove(course, lessons, recalls)
    if not only:
        missing = [module.number for module in course.modules
                   if module.lessons and (module.review is None or module.review.recall is None)]
        notes.append(f"recall exercises: {len(recalls)} of "
                     f"{sum(1 for module in course.modules if module.lessons)} modules"
                     + (f" (none yet for module {', '.join(map(str, missing))})" if missing else ""))
        if missing:
            standard.append(f"module {', '.join(map(str, missing))} has no recall exercise "
                            "(`recall:` in its review): nothing asks for its code from memory")
    if not only:
        longest, total = lesson_standard.longest_share(course)
        notes.append(f"the right choice is the longest in {longest} of {total} choice questions")
        figures = lesson_standard.quiz_figures(course)
        notes.append(f"the right choice is one of the two longest in {figures['top_two']} of "
                     f"{total} (at most {lesson_standard.TOP_TWO_SHARE:.0%}); stock wordings "
                     "shown and right: " + ", ".join(
                         f"{form} {shown}/{right}" for form, (shown, right)
                         in figures["stock"].items()))  # type: ignore[attr-defined]
        standard.extend(lesson_standard.quiz_figure_problems(figures))
        excused = sum(1 for lesson in course.lessons() for q in lesson.quiz if q.not_given_away)
        notes.append(f"quiz answers the page shows, each said not to give it away "
                     f"(`not_given_away`): {excused}")
        if total and longest > lesson_standard.LONGEST_SHARE * total:
            standard.append(f"the right choice is the longest in {longest} of {total} choice "
                            f"questions, more than {lesson_standard.LONGEST_SHARE:.0%}: length "
                            "gives answers away")
    leaks = lesson_standard.answer_leaks(course)
    standard.extend(_answer_leak_problems(course, leaks, only))
    if not only:
        asked = sum(len(lesson_standard.answers_to_write(lesson)) for lesson in course.lessons()
                    if lesson.exercise is not None)
        notes.append(f"answers one copy away: {len(leaks)} of the {asked} lines the Builds ask "
                     "for (goal: 0; a starter that needs them imports them from the course's "
                     "library/)")
        notes.append(_shipped_note(course))
    return CourseReport(course, reports, problems, uncovered, notes, standard, strict)


def _answer_leak_problems(course: Course, leaks: list[tuple[str, str, str]],
                          only: list[str] | None) -> list[str]:
    """A line a Build asks for that a learner could copy, from an earlier lesson's starter or
    from its own starter's comments: one finding each. With ``only``, the leaks that involve a
    linted lesson, as the one that asks or the one whose starter shows the line."""
    found = []
    for key, number, where in leaks:
        shown_in = where.removeprefix("the starter of lesson ")
        if only and number not in only and shown_in not in only:
            continue
        line = lesson_standard.answer_line(course.lesson(number), key)
        found.append(f"lesson {number} asks for `{line}`, which already stands in {where}: give "
                     "the line in this lesson's starter, or change what the Build asks for")
    return found


def _shipped_note(course: Course) -> str:
    """Keep the figures every lesson and review needed where a fresh clone finds them."""
    shipped = ship(course.path)
    if shipped.error:
        return f"could not update {shipped.path}: {shipped.error}"
    if not shipped.changed:
        return f"computed figures: all {shipped.kept} are in {shipped.path}"
    return (f"computed figures: {shipped.path} updated ({shipped.added} new, {shipped.dropped} "
            "no longer needed): commit it, so that a fresh clone does not compute them again")



def lint_lesson(course: Course, lesson: Lesson, prover: Prover) -> LessonReport:
    report = LessonReport(lesson)
    _prove_exercise(report, prover, lesson, lesson.path / "lesson.yaml",
                    lesson.path / "solution.py", lesson.path / "starter.py")
    if lesson.exercise.on_my_own:
        report.notes.append(f"on my own: {plural(len(lesson.exercise.on_my_own), 'TODO text')}, "
                            "the untouched on-my-own starter not-attempted too")

    computed = compute_lesson(lesson)
    report.problems.extend(computed.problems)
    report.standard.extend(lesson_standard.lesson_problems(course, lesson, computed))
    if computed.answers:
        report.notes.append("predictions computed: " +
                            ", ".join(f"{a:g}" for a in computed.answers.values()))
    if lesson.explore.compute and computed.data is not None:
        report.notes.append(f"widget data computed ({lesson.explore.kind})")
    report.problems.extend(_line_problems(course, lesson))
    return report


def lint_recall(course: Course, recall: Recall, prover: Prover) -> LessonReport:
    """A module's recall exercise, proved as a Build is; its hints send the learner back to a
    lesson, and never hold a line of the answer."""
    report = LessonReport(recall)
    folder = recall.path.parent
    _prove_exercise(report, prover, recall, recall.path,
                    folder / f"recall-{recall.module}/solution.py",
                    folder / f"recall-{recall.module}/starter.py")
    answer = {line.strip() for line in recall.exercise.solution.splitlines()
              if len(line.strip()) > 12} - {line.strip() for line in
                                             recall.exercise.starter.splitlines()}
    for index, hint in enumerate(recall.exercise.hints, 1):
        if not LESSON_MENTION.search(hint):
            report.problems.append(f"{recall.path}: recall hint {index} names no lesson to reread "
                                   "(a recall's hints point back to lessons, never to the code)")
        shown = [line for line in answer if line in hint]
        if shown:
            report.problems.append(f"{recall.path}: recall hint {index} gives a line of the "
                                   f"answer: `{shown[0]}`")
    asked = {key: lesson for lesson in course.lessons() if lesson.module == recall.module
             for key in lesson_standard.answers_to_write(lesson)}
    for key in lesson_standard.code_keys(recall.exercise.starter):
        if key in asked:
            line = lesson_standard.answer_line(asked[key], key)
            report.problems.append(f"{folder / f'recall-{recall.module}/starter.py'}: the recall "
                                   f"starter already holds `{line}`, which lesson "
                                   f"{asked[key].number} asks for: a recall asks for it again")
    report.notes.append(f"judged by the checks of lessons {', '.join(recall.lessons)}")
    return report


def _prove_exercise(report: LessonReport, prover: Prover, item: Lesson | Recall, where: Path,
                    solution_file: Path, starter_file: Path) -> None:
    """Both directions of a Build: the solution passes every check, the untouched starter is
    not attempted and fails when run anyway, and each known mistake gets its own message."""
    exercise = item.exercise
    solution = prover.check(item, exercise.solution, untouched_is_not_attempted=False)
    failing = [check for check in solution.checks if check.status != "pass"]
    for check in failing:
        report.problems.append(f"{solution_file}: the solution does not pass "
                               f"check {check.name!r} ({check.status}): {check.message}")
    if not failing:
        report.notes.append(f"solution passes all {plural(len(solution.checks), 'check')}")

    for level, starter in exercise.starters.items():
        untouched = prover.check(item, starter)
        if untouched.status != "not-attempted":
            which = "starter" if level == "guided" else "on-my-own starter (`on_my_own`)"
            report.problems.append(f"{starter_file}: the untouched {which} should "
                                   f"be not-attempted, but is {untouched.status}")
    # Of the starter run as if edited, and of each known mistake, lint needs only the first check
    # that does not pass: the checks after it are not run (most of a cold lint's time).
    edited = prover.check(item, exercise.starter, untouched_is_not_attempted=False,
                          until_first_failure=True)
    if edited.status == "pass":
        report.problems.append(f"{starter_file}: the starter passes every check "
                               "even when run as if edited: the checks cannot tell it is unfinished")
    else:
        report.notes.append(f"starter is not-attempted, and run anyway it is {edited.status}")
    _prove_mistakes(report, prover, item, where)


def _prove_mistakes(report: LessonReport, prover: Prover, item: Lesson | Recall,
                    where: Path) -> None:
    exercise = item.exercise
    messages: dict[str, str] = {}
    for mistake in exercise.mistakes:
        result = prover.check(item, apply_edits(exercise.solution, mistake.edits),
                              untouched_is_not_attempted=False, until_first_failure=True)
        first = next((check for check in result.checks if check.status != "pass"), None)
        place = f"{where}:{mistake.line}: mistake {mistake.name!r}"
        if first is None:
            report.problems.append(f"{place}: every check passes, so no learner would be told")
        elif first.name != mistake.check:
            report.problems.append(f"{place}: caught first by {first.name!r}, not by "
                                   f"{mistake.check!r}; its message was: {first.message}")
        elif first.message != mistake.message:
            report.problems.append(f"{place}: check {first.name!r} says\n    {first.message}\n"
                                   f"  but {where.name} expects\n    {mistake.message}")
        elif first.fix != mistake.fix:
            report.problems.append(f"{place}: check {first.name!r} holds back the fix\n    "
                                   f"{first.fix or '(none)'}\n  but {where.name}'s `fix` is\n    "
                                   f"{mistake.fix or '(none)'}")
        if mistake.message in messages:
            report.problems.append(f"{place}: same message as mistake {messages[mistake.message]!r}"
                                   "; each known mistake needs its own message")
        messages[mistake.message] = mistake.name
    if exercise.mistakes:
        report.notes.append(f"{len(exercise.mistakes)} known mistakes checked")


def _line_problems(course: Course, lesson: Lesson) -> list[str]:
    """The solution must really contain the lines the lesson unlocks, and nothing made up."""
    problems = []
    exercise = lesson.exercise
    solution_lines = [line.strip() for line in exercise.solution.splitlines()]
    program = course.program_lines()
    position = 0
    for number in sorted(lesson.unlocked_lines()):
        wanted = program[number - 1].strip()
        if not wanted:
            continue
        try:
            position = solution_lines.index(wanted, position) + 1
        except ValueError:
            problems.append(f"{lesson.path / 'solution.py'}: line {number} of "
                            f"{course.program_name}, which the lesson unlocks, is not in the "
                            f"solution (in order): {wanted}")
    known = {line.strip() for line in program}
    script = course.path / lesson.script
    known |= {line.strip() for line in script.read_text(encoding="utf-8").splitlines()}
    for adapted in exercise.adapted:  # a program line changed on purpose, declared with why
        place = f"{lesson.path / 'lesson.yaml'}:{adapted.yaml_line}: adapted line {adapted.line}"
        if not 1 <= adapted.line <= len(program) or not program[adapted.line - 1].strip():
            problems.append(f"{place}: {course.program_name} has no such line")
        elif program[adapted.line - 1].strip() == adapted.text:
            problems.append(f"{place}: the learner's line is {course.program_name}'s own, "
                            "unchanged: nothing to declare")
        else:
            known.add(adapted.text)
    starter = {line.strip() for line in exercise.starter.splitlines()}
    for number, line in enumerate(exercise.solution.splitlines(), 1):
        text = line.strip()
        if text and not text.startswith("#") and text not in starter and text not in known:
            problems.append(f"{lesson.path / 'solution.py'}:{number}: the learner writes this line, "
                            f"but it is in neither {course.program_name} nor {Path(script).name}: "
                            f"{text}")
    return problems


def format_ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7, 9, 10] -> '1-3, 7, 9-10'."""
    ranges: list[list[int]] = []
    for number in numbers:
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in ranges)
