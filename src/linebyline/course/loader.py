"""Load a course folder into a validated Course, or report every problem as ``file:line: ...``.

A course folder holds ``course.yaml`` (title, target program, modules), the program and the
module scripts, and ``lessons/<folder>/lesson.yaml`` with the files it names.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from ..runtime import collect_checks
from . import yamlfile
from .errors import CourseError, CourseErrors
from .fields import Fields
from .levels import own_starter, todo_blocks
from .library import library_sources
from .model import (
    Adapted,
    Chapter,
    Choice,
    Course,
    Edit,
    Exercise,
    Lesson,
    Mistake,
    Module,
    Question,
    Recall,
    Review,
    Widget,
    WrongAnswer,
)
from .widgets import KINDS

LESSON_NUMBER = re.compile(r"^(\d+)\.(\d+)$")
# What a module's `graph:` may say (model.Module.graph).
GRAPH_RULES = ("chain", "paths")
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


def load_course(path: Path) -> Course:
    """Load and validate the course in folder ``path``; raise CourseErrors listing every problem."""
    path = Path(path)
    errors: list[CourseError] = []
    try:
        course = _course(path, errors)
    except CourseError as error:
        raise CourseErrors([error]) from None
    if errors:
        raise CourseErrors(errors)
    return course


def _read_text(path: Path, errors: list[CourseError], file: str, line: int, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        errors.append(CourseError(file, line, f"{what} {path.name!r} does not exist"))
    except UnicodeDecodeError:
        errors.append(CourseError(file, line, f"{what} {path.name!r} is not UTF-8 text"))
    return ""


def _course(path: Path, errors: list[CourseError]) -> Course:
    file = path / "course.yaml"
    fields = Fields(str(file), yamlfile.load(file), errors)
    fields.only("title", "slug", "program", "original", "original_code", "modules")
    title = fields.get("title", str) or ""
    slug = fields.get("slug", str, path.name)
    if slug and not SLUG.match(slug):
        fields.error("`slug` must be lowercase letters, digits and hyphens", "slug")
    program_name = fields.get("program", str) or ""
    program = _read_text(path / program_name, errors, str(file), fields.line("program"),
                         "the program") if program_name else ""
    modules = []
    for entry in fields.items("modules", "module"):
        entry.only("number", "title", "script", "lessons", "graph")
        number, script = entry.get("number", int), entry.get("script", str)
        graph = entry.get("graph", str, "") or ""
        if graph and graph not in GRAPH_RULES:
            entry.error(f"`graph` must be one of {', '.join(GRAPH_RULES)}, not {graph!r}", "graph")
        if script and not (path / script).is_file():
            entry.error(f"the script {script!r} does not exist in {path}", "script")
        planned = _planned_titles(entry)
        if number is not None and any(m.number == number for m in modules):
            entry.error(f"module {number} is declared twice", "number")
        modules.append(Module(number or 0, entry.get("title", str) or "", script or "",
                              planned, graph=graph if graph in GRAPH_RULES else ""))
    course = Course(slug or "", title, path, program_name, program,
                    fields.get("original", str, ""), fields.get("original_code", str, ""),
                    modules)

    by_number = {module.number: module for module in modules}
    seen: dict[str, Path] = {}
    for lesson_file in sorted((path / "lessons").glob("*/lesson.yaml")):
        try:
            lesson = _lesson(lesson_file, course, by_number, errors)
        except CourseError as error:
            errors.append(error)
            continue
        if lesson is None:
            continue
        if lesson.number in seen:
            errors.append(CourseError(str(lesson_file), 1, f"lesson {lesson.number} is also "
                                      f"declared in {seen[lesson.number]}"))
            continue
        seen[lesson.number] = lesson_file
        by_number[lesson.module].lessons.append(lesson)
    for module in modules:
        module.lessons.sort(key=lambda lesson: lesson.key)
        for lesson in module.lessons:
            _check_planned_title(lesson, module, errors)
    for review_file in sorted((path / "reviews").glob("*.yaml")):
        _review(review_file, by_number, errors)
    return course


def _review(file: Path, modules: dict[int, Module], errors: list[CourseError]) -> None:
    """reviews/module-N.yaml: the module's number, a summary and a quiz like a lesson's."""
    fields = Fields(str(file), yamlfile.load(file), errors)
    fields.only("module", "summary", "quiz", "facts", "recall")
    number = fields.get("module", int)
    summary = fields.get("summary", str) or ""
    quiz = _quiz(fields)
    facts = fields.get("facts", str, "") or ""
    _compiles(fields, facts, "facts")
    module = modules.get(number) if number is not None else None
    if number is not None and module is None:
        fields.error(f"module {number} is not in course.yaml", "module")
    elif module is not None and not module.lessons:
        fields.error(f"module {number} has no published lesson to review", "module")
    elif module is not None and module.review is not None:
        fields.error(f"module {number} already has a review, {module.review.path.name}", "module")
    elif module is not None:
        recall = _recall(fields, file, module)
        module.review = Review(summary, quiz, file, facts, recall)


def _recall(fields: Fields, file: Path, module: Module) -> Recall | None:
    """`recall`: the module's code to write again from memory, judged by its lessons' checks.

    Its files are named relative to the reviews folder; `checks` lists the lessons whose checks
    judge it ("7.5", or {lesson: "7.6", only: [check names]}), all of them of this module."""
    recall = fields.mapping("recall", required=False)
    if recall is None:
        return None
    recall.only("file", "starter", "solution", "checks", "hints", "mistakes")
    folder = file.parent
    texts = {}
    for key in ("starter", "solution"):
        name = recall.get(key, str)
        texts[key] = _read_text(folder / name, recall.errors, recall.file, recall.line(key),
                                f"the {key} file") if name else ""
    filename = recall.get("file", str) or ""
    if filename and not filename.endswith(".py"):
        recall.error("`file` must be a Python file name such as from_memory.py", "file")
    starter, solution = texts["starter"], texts["solution"]
    if starter and starter == solution:
        recall.error("the starter and the solution are the same: nothing is left to write")
    lessons, checks_source = _recall_checks(recall, module)
    if not checks_source and (recall.errors or recall.get("checks", list, None)):
        return None  # a lesson it is checked by is still to come, or did not load
    check_names: tuple[str, ...] = ()
    if checks_source:
        try:
            check_names = tuple(name for name, _ in collect_checks(checks_source, str(file)))
        except Exception as error:  # noqa: BLE001 - a lesson's checks, or a name in `only`
            recall.error(f"its checks do not load: {type(error).__name__}: {error}", "checks")
    hints = recall.get("hints", list) or []
    for index, hint in enumerate(hints):
        if not isinstance(hint, str) or not hint.strip():
            recall.error(f"hint {index + 1} must be text", line=hints.line_of(index))
    mistakes = tuple(_mistake(entry, solution, check_names)
                     for entry in recall.items("mistakes", "mistake"))
    exercise = Exercise(filename, starter, solution, checks_source, file, check_names, mistakes,
                        tuple(str(hint) for hint in hints), (),
                        library_sources(folder.parent))
    return Recall(module.number, exercise, file, lessons)


def _recall_checks(recall: Fields, module: Module) -> tuple[tuple[str, ...], str]:
    """The lessons named in `checks`, and a checks file that gathers theirs (runtime.gather)."""
    entries = recall.get("checks", list) or []
    by_number = {lesson.number: lesson for lesson in module.lessons}
    broken = bool(recall.errors)  # the course has errors already: a lesson may not have loaded
    numbers, lines = [], ["from linebyline.runtime import gather", ""]
    for index, entry in enumerate(entries):
        line = entries.line_of(index)
        number, only = entry, []
        if isinstance(entry, dict):
            number, only = entry.get("lesson"), entry.get("only") or []
        if not isinstance(number, str) or not isinstance(only, list) or \
                not all(isinstance(name, str) for name in only):
            recall.error(f"checks entry {index + 1} must be a lesson number in quotes (\"7.5\") "
                         "or {lesson: \"7.5\", only: [check names]}", line=line)
            continue
        lesson = by_number.get(number)
        planned = number in {f"{module.number}.{i}" for i in range(1, len(module.planned) + 1)}
        if lesson is None and (broken or planned):
            # A lesson still to come, or one that did not load (its errors say why): the
            # recall waits for it, so a course can publish a module lesson by lesson.
            return (), ""
        if lesson is None:
            recall.error(f"checks entry {index + 1}: module {module.number} has no lesson "
                         f"{number}", line=line)
            continue
        numbers.append(number)
        lines.append(f"gather({number!r}, {lesson.exercise.checks_source!r}, {tuple(only)!r})")
    if not numbers and not entries:
        recall.error("`checks` must name at least one lesson of the module", "checks")
        return (), ""
    if not numbers:
        return (), ""
    return tuple(numbers), "\n".join(lines) + "\n"


def _planned_titles(entry: Fields) -> tuple[str, ...]:
    """A module's lesson titles, refusing what YAML made of a title that was not quoted.

    In a flow list, `[Counting 3,184 parameters]` is two titles, "Counting 3" and "184
    parameters"; a bare `42` is a number. Both are almost always a slip.
    """
    planned = entry.get("lessons", list, [])
    titles: list[str] = []
    for index, title in enumerate(planned):
        line = planned.line_of(index)
        if not isinstance(title, str) or not title.strip():
            entry.error(f"lesson title {index + 1} is {title!r}, not text: quote a title that is "
                        "a number or holds a comma", line=line)
            continue
        if titles and re.search(r"\d$", titles[-1]) and re.match(r"\d", title):
            entry.error(f"lesson titles {index} and {index + 1}, {titles[-1]!r} and {title!r}, look "
                        f"like one title split at a comma: write it in quotes, "
                        f"\"{titles[-1]},{title}\"", line=line)
        titles.append(title.strip())
    return tuple(titles)


def _check_planned_title(lesson: Lesson, module: Module, errors: list[CourseError]) -> None:
    """The course home lists course.yaml's titles: a published lesson must be listed as itself."""
    index = lesson.key[1] - 1
    file = str(lesson.path / "lesson.yaml")
    if index >= len(module.planned):
        errors.append(CourseError(file, 1, f"lesson {lesson.number} is beyond the {len(module.planned)} "
                                  f"lessons course.yaml plans for module {module.number}: add its "
                                  "title there"))
    elif module.planned[index] != lesson.title:
        errors.append(CourseError(file, 1, f"the title {lesson.title!r} differs from course.yaml's "
                                  f"plan for lesson {lesson.number}, {module.planned[index]!r}: "
                                  "make them the same"))


def _lesson(file: Path, course: Course, modules: dict[int, Module],
            errors: list[CourseError]) -> Lesson | None:
    before = len(errors)
    fields = Fields(str(file), yamlfile.load(file), errors)
    fields.only("number", "slug", "title", "lead", "minutes", "unlocks", "unlocked", "watch",
                "explore", "build", "quiz", "facts")
    number = str(fields.get("number", str) or "")
    match = LESSON_NUMBER.match(number)
    module = None
    if number and not match:
        fields.error(f"`number` must look like 7.4, not {number!r}", "number")
    elif match:
        module = modules.get(int(match.group(1)))
        if module is None:
            fields.error(f"lesson {number} belongs to module {match.group(1)}, which course.yaml "
                         "does not declare", "number")
    slug = fields.get("slug", str)
    if slug and not SLUG.match(slug):
        fields.error("`slug` must be lowercase letters, digits and hyphens", "slug")
    title = fields.get("title", str)
    lead = fields.get("lead", str)
    minutes = fields.get("minutes", int)
    if minutes is not None and minutes <= 0:
        fields.error("`minutes` must be above 0", "minutes")
    unlocks = _ranges(fields, fields.get("unlocks", list), len(course.program_lines()),
                      "the program's")
    where, original = _unlocked(fields)
    watch_name = fields.get("watch", str)
    watch = _read_text(file.parent / watch_name, errors, str(file), fields.line("watch"),
                       "the Watch text") if watch_name else ""
    explore = _widget(fields, course.path)
    exercise = _exercise(fields, file.parent)
    if explore is not None and exercise is not None:
        _widget_finds_its_function(fields, explore, exercise.solution)
    quiz = _quiz(fields)
    facts = fields.get("facts", str, "") or ""
    _compiles(fields, facts, "facts")
    if len(errors) > before or module is None or exercise is None or explore is None:
        return None
    return Lesson(number, slug, title, lead, minutes, module.number, module.script, unlocks,
                  where, original, watch, explore, exercise, quiz, file.parent, facts)


def _compiles(fields: Fields, code: str, key: str) -> None:
    if code:
        try:
            compile(code, key, "exec")
        except SyntaxError as error:
            fields.error(f"`{key}` has a syntax error: {error.msg}", key)


ORIGINAL_LINES = 200  # the original microgpt.py's length, for checking links into it


def _ranges(fields: Fields, entries: Any, line_count: int, whose: str) -> tuple[tuple[int, int], ...]:
    """Line numbers and ranges like 33-57, each inside 1..line_count."""
    ranges = []
    for index, entry in enumerate(entries or []):
        line = entries.line_of(index)
        match = RANGE.match(str(entry).strip())
        if not match:
            fields.error(f"{entry!r} must be a line number or a range like 33-57", line=line)
            continue
        start = int(match.group(1))
        end = int(match.group(2) or start)
        if not 1 <= start <= end <= line_count:
            fields.error(f"{entry!r} is outside {whose} lines 1-{line_count}", line=line)
            continue
        ranges.append((start, end))
    return tuple(ranges)


def _unlocked(fields: Fields) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The Unlocked part's words: where the lines live and run, and the original's lines."""
    unlocked = fields.mapping("unlocked")
    if unlocked is None:
        return "", ()
    unlocked.only("where", "original")
    where = unlocked.get("where", str) or ""
    original = _ranges(unlocked, unlocked.get("original", list, []), ORIGINAL_LINES,
                       "the original program's")
    return where, original


def _widget(fields: Fields, course_path: Path) -> Widget | None:
    explore = fields.mapping("explore")
    if explore is None:
        return None
    explore.only("kind", "params", "compute")
    kind = explore.get("kind", str)
    params = explore.mapping("params", "explore params: ")
    compute = explore.get("compute", str, "")
    if kind is not None and kind not in KINDS:
        explore.error(f"unknown widget kind {kind!r} (known: {', '.join(KINDS)})", "kind")
        return None
    if kind is None or params is None:
        return None
    KINDS[kind].validate(params)
    for key in KINDS[kind].scripts:
        name = params.data.get(key)
        if isinstance(name, str) and not (course_path / name).is_file():
            params.error(f"the script {name!r} does not exist in {course_path}", key)
    if compute and KINDS[kind].check_data is None:
        explore.error(f"the {kind} widget takes no computed data: remove `compute`", "compute")
    if not compute and KINDS[kind].check_data is not None:
        explore.error(f"the {kind} widget shows numbers computed by the lesson's code: add "
                      "`compute`, code that sets `data`", "kind")
    return Widget(kind, _plain(params.data), compute or "", explore.line())


def _widget_finds_its_function(fields: Fields, explore: Widget, solution: str) -> None:
    """A widget that calls a function of the lesson's solution finds it there, at the top."""
    name = explore.params.get("function")
    if not KINDS[explore.kind].runs_solution or not isinstance(name, str) or not solution:
        return
    try:
        tree = ast.parse(solution)
    except SyntaxError:
        return  # the exercise's own checks say so
    if not any(isinstance(node, ast.FunctionDef) and node.name == name for node in tree.body):
        fields.error(f"explore params: the {explore.kind} widget calls {name}(), which the "
                     "solution does not define", line=explore.line)


def _plain(value: Any) -> Any:
    """Line-tracking containers back to plain dicts and lists, for JSON and templates."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _exercise(fields: Fields, folder: Path) -> Exercise | None:
    build = fields.mapping("build")
    if build is None:
        return None
    build.only("file", "starter", "solution", "checks", "mistakes", "hints", "codealong",
               "on_my_own", "adapted")
    texts = {}
    for key in ("starter", "solution", "checks"):
        name = build.get(key, str)
        texts[key] = _read_text(folder / name, build.errors, build.file, build.line(key),
                                f"the {key} file") if name else ""
    filename = build.get("file", str)
    if filename and not filename.endswith(".py"):
        build.error("`file` must be a Python file name such as backward.py", "file")
    starter, solution, checks_source = texts["starter"], texts["solution"], texts["checks"]
    if starter and starter == solution:
        build.error("the starter and the solution are the same: nothing is left to write")
    check_names: tuple[str, ...] = ()
    checks_path = folder / (build.data.get("checks") or "checks.py")
    if checks_source:
        try:
            check_names = tuple(name for name, _ in collect_checks(checks_source, str(checks_path)))
        except Exception as error:  # an author's bug in checks.py: say where
            line = getattr(error, "lineno", None) or _traceback_line(error, str(checks_path))
            build.errors.append(CourseError(str(checks_path), line or 1,
                                            f"{type(error).__name__}: {error}"))
        else:
            if not check_names:
                build.error("the checks file defines no @check functions", "checks")
    hints = build.get("hints", list) or []
    for index, hint in enumerate(hints):
        if not isinstance(hint, str) or not hint.strip():
            build.error(f"hint {index + 1} must be text", line=hints.line_of(index))
    mistakes = tuple(_mistake(entry, solution, check_names)
                     for entry in build.items("mistakes", "mistake"))
    codealong = _codealong(build, starter, solution)
    own, own_lines = _on_my_own(build, starter)
    adapted = tuple(_adapted(entry, starter, solution)
                    for entry in build.items("adapted", "adapted line", required=False))
    return Exercise(filename or "", starter, solution, checks_source, checks_path, check_names,
                    mistakes, tuple(str(hint) for hint in hints), codealong,
                    library_sources(folder.parent.parent), own, own_starter(starter, own),
                    own_lines, adapted)


def _adapted(entry: Fields, starter: str, solution: str) -> Adapted:
    """`adapted`: a line the learner writes that is the program's `line` changed on purpose,
    written `as` the solution has it, with `why` in a sentence a reviewer can judge."""
    entry.only("line", "as", "why")
    line, text, why = entry.get("line", int), entry.get("as", str), entry.get("why", str)
    text = (text or "").strip()
    if line is not None and line < 1:
        entry.error("`line` must be a line number of the program, from 1", "line")
    written = {row.strip() for row in solution.splitlines()} - {row.strip() for row in starter.splitlines()}
    if text and solution and text not in written:
        entry.error(f"`as` must be a line the learner writes (in the solution, not the starter): "
                    f"{text}", "as")
    if why is not None and len(why.strip()) < MIN_REASON_CHARS:
        entry.error(f"`why` must say why the line departs from the program, in at least "
                    f"{MIN_REASON_CHARS} characters", "why")
    return Adapted(line or 0, text, " ".join((why or "").split()), entry.line())


def _on_my_own(build: Fields, starter: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """`on_my_own`: one text per TODO block of the starter, in order (levels.py), each starting
    with TODO as the block it replaces does."""
    entries = build.get("on_my_own", list, None)
    if entries is None:
        return (), ()
    texts, lines = [], []
    for index, text in enumerate(entries):
        line = entries.line_of(index)
        if not isinstance(text, str) or not text.strip():
            build.error(f"on_my_own entry {index + 1} must be text", line=line)
            continue
        if not text.strip().startswith("TODO"):
            build.error(f"on_my_own entry {index + 1} must start with TODO, as the starter's "
                        "block it replaces does", line=line)
        texts.append(" ".join(text.split()))
        lines.append(line)
    blocks = todo_blocks(starter)
    if starter and len(entries) != len(blocks):
        first = ", ".join(f"line {block.start + 1}" for block in blocks) or "none"
        build.error(f"on_my_own has {len(entries)} entries, but the starter has {len(blocks)} "
                    f"TODO blocks ({first}): give one text per block, in order", "on_my_own")
        return (), ()
    if len(texts) != len(entries):
        return (), ()
    return tuple(texts), tuple(lines)


def _traceback_line(error: BaseException, filename: str) -> int | None:
    tb, line = error.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _edits(entry: Fields, key: str, text: str, what: str) -> tuple[Edit, ...]:
    """Edits apply one after another, so each `find` is looked for in the text as edited so far."""
    edits = []
    for edit in entry.items(key, "edit"):
        edit.only("find", "replace")
        find, replace = edit.get("find", str), edit.get("replace", str, "")
        if find is None:
            continue
        count = text.count(find)
        if count != 1:
            edit.error(f"`find` must occur exactly once in the {what}, but occurs {count} times",
                       "find")
        text = text.replace(find, replace or "", 1)
        edits.append(Edit(find, replace or ""))
    return tuple(edits)


def _mistake(entry: Fields, solution: str, check_names: tuple[str, ...]) -> Mistake:
    entry.only("name", "edits", "check", "message", "fix")
    check = entry.get("check", str) or ""
    if check and check_names and check not in check_names:
        entry.error(f"no check is named {check!r} (checks: {'; '.join(check_names)})", "check")
    return Mistake(entry.get("name", str) or "", _edits(entry, "edits", solution, "solution"),
                   check, entry.get("message", str) or "", entry.line(),
                   entry.get("fix", str, "") or "")


def apply_edits(text: str, edits: tuple[Edit, ...]) -> str:
    for edit in edits:
        text = text.replace(edit.find, edit.replace, 1)
    return text


def _codealong(build: Fields, starter: str, solution: str) -> tuple[Chapter, ...]:
    chapters = []
    text = starter
    entries = build.items("codealong", "chapter")
    for entry in entries:
        entry.only("chapter", "caption", "find", "type")
        title, caption = entry.get("chapter", str), entry.get("caption", str)
        find, typed = entry.get("find", str), entry.get("type", str, "")
        if find is None:
            continue
        if text.count(find) != 1:
            entry.error(f"`find` must occur exactly once in the file at this point of the "
                        f"code-along, but occurs {text.count(find)} times", "find")
            continue
        text = text.replace(find, typed, 1)
        chapters.append(Chapter(title or "", caption or "", find, typed))
    if entries and starter and solution and len(chapters) == len(entries) and text != solution:
        build.error("the code-along does not end with the solution: typing every chapter into "
                    "the starter gives a different file", "codealong")
    return tuple(chapters)


# Lint flags a quiz answer that the page prints above the quiz; where the page's number or words
# mean something else, the author says why here, in a sentence a reviewer can judge.
MIN_REASON_CHARS = 30


def _not_given_away(entry: Fields) -> str:
    reason = entry.get("not_given_away", str, "") or ""
    if reason and len(reason.strip()) < MIN_REASON_CHARS:
        entry.error("`not_given_away` must say why the page's match is not the answer, in a "
                    f"sentence (at least {MIN_REASON_CHARS} characters)", "not_given_away")
    return reason.strip()


def _quiz(fields: Fields) -> tuple[Question, ...]:
    questions = []
    for entry in fields.items("quiz", "question"):
        kind = entry.get("kind", str)
        if kind == "choice":
            entry.only("kind", "prompt", "choices", "explain", "not_given_away")
            choices = []
            for choice in entry.items("choices", "choice"):
                choice.only("text", "correct", "explain")
                choices.append(Choice(choice.get("text", str) or "",
                                      bool(choice.get("correct", bool, False)),
                                      choice.get("explain", str) or ""))
            if choices and sum(choice.correct for choice in choices) != 1:
                entry.error("exactly one choice must be `correct: true`", "choices")
            questions.append(Question("choice", entry.get("prompt", str) or "",
                                      entry.get("explain", str, ""), tuple(choices),
                                      line=entry.line(), not_given_away=_not_given_away(entry)))
        elif kind == "predict":
            entry.only("kind", "prompt", "compute", "tolerance", "explain", "wrong", "worked",
                       "not_given_away")
            compute = entry.get("compute", str) or ""
            tolerance = entry.get("tolerance", float, 0.0)
            if tolerance is not None and tolerance < 0:
                entry.error("`tolerance` must be 0 or more", "tolerance")
            _compiles(entry, compute, "compute")
            wrong = []
            for item in entry.items("wrong", "wrong answer", required=False):
                item.only("compute", "explain")
                code = item.get("compute", str) or ""
                _compiles(item, code, "compute")
                explain = item.get("explain", str) or ""
                if not code or not explain:
                    item.error("a wrong answer needs `compute` (setting `answer`) and `explain`")
                wrong.append(WrongAnswer(code, explain, item.line()))
            questions.append(Question("predict", entry.get("prompt", str) or "",
                                      entry.get("explain", str) or "", (), compute,
                                      tolerance or 0.0, entry.line(), tuple(wrong),
                                      entry.get("worked", str, "") or "",
                                      _not_given_away(entry)))
        elif kind is not None:
            entry.error(f"`kind` must be choice or predict, not {kind!r}", "kind")
    return tuple(questions)
