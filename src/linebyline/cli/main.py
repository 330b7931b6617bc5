"""The `linebyline` command: the course from a terminal, for people who prefer their own editor."""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from .. import __version__
from ..course import Course, CourseErrors, Lesson, Recall, courses_root, default_course_path
from ..course.dataset import BUNDLED_NAMES, DatasetError
from ..progress import account as account_link
from ..runtime.words import plural
from ..sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT
from ..terminal.usage import UsageError
from . import teacher as teacher_cli
from .progress import progress

if TYPE_CHECKING:  # each command imports what it needs, when it runs: `check` must start fast
    from ..mine.assemble import Assembler, Assembly
    from ..runtime import Result

USAGE_ERROR = 2
MAX_SOURCE_BYTES = 1_000_000  # a lesson's file is a few kilobytes
MAX_TIMEOUT = 3600.0  # seconds
MEMORY_RANGE = (64, 1_048_576)  # MB: Python needs about 64 to start; 1 TB is past any machine
MAX_STEPS = 1_000_000


def _number_in(kind: type, low: float, high: float, what: str):
    """An argparse type: a finite number of `kind` from low to high, else a usage error."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}")
        return value
    parse.__name__ = what  # argparse names the type in some messages
    return parse


seconds = _number_in(float, 0.001, MAX_TIMEOUT,
                     f"a number of seconds above 0 and at most {MAX_TIMEOUT:g}")
megabytes = _number_in(int, *MEMORY_RANGE,
                       f"a whole number of MB from {MEMORY_RANGE[0]} to {MEMORY_RANGE[1]:,}")
port_number = _number_in(int, 0, 65535, "a port number from 0 to 65535")
step_count = _number_in(int, 1, MAX_STEPS, f"a whole number of steps from 1 to {MAX_STEPS:,}")
temperature_value = _number_in(float, 0.01, 10.0, "a temperature from 0.01 to 10")


def _course(value: str | None, fresh: bool = False) -> Course:
    """Load the course named by --course: a folder, or the name of one under courses/.

    From the cache when this version of it was loaded before, unless ``fresh`` (lint)."""
    if value is None:
        path = default_course_path()
    else:
        path = Path(value)
        if not (path / "course.yaml").is_file() and (courses_root() / value).is_dir():
            path = courses_root() / value
        if not (path / "course.yaml").is_file():
            raise UsageError(f"{value}: not a course folder (it has no course.yaml)")
    if fresh:
        from ..course import load_course

        return load_course(path)
    from ..course import load_course_cached

    return load_course_cached(path)


def _lesson(course: Course, number: str) -> Lesson | Recall:
    """The published lesson `number`, or the module review's recall exercise (review-7); else a
    usage error that says it is coming soon, or which lesson was probably meant."""
    item = course.item(number)
    if item is not None:
        return item
    planned = _planned_title(course, number)
    if planned:
        raise UsageError(f"{number} is coming soon (“{planned}”); `linebyline lessons` shows "
                         "what is published")
    import difflib

    numbers = [lesson.number for lesson in course.lessons()]
    numbers += [recall.number for recall in course.recalls()]
    guess = difflib.get_close_matches(number.replace(",", "."), numbers, n=1, cutoff=0.5)
    meant = f"; did you mean {guess[0]}?" if guess else ""
    raise UsageError(f"there is no lesson {number!r}{meant} (`linebyline lessons` lists them)")


def _planned_title(course: Course, number: str) -> str:
    for module in course.modules:
        for index, title in enumerate(module.planned, 1):
            if number == f"{module.number}.{index}":
                return title
    return ""


def cmd_lessons(args: argparse.Namespace) -> int:
    from ..terminal.lessons_view import list_lessons

    list_lessons(_course(args.course))
    return 0


def _lesson_folder(lesson: Lesson | Recall, course: Course) -> Path:
    """Where `start` puts a lesson: a folder of its own, so lessons never collide."""
    return Path(course.slug) / f"{lesson.number}-{lesson.slug}"


def _default_file(lesson: Lesson | Recall, course: Course, command: str) -> Path:
    """The learner's file when none is named: in the lesson's folder, else here; a usage error
    that says how to make it when there is neither."""
    in_folder = _lesson_folder(lesson, course) / lesson.exercise.filename
    here = Path(lesson.exercise.filename)
    if not in_folder.exists() and not here.exists():
        raise UsageError(f"{in_folder}: no such file. `linebyline start {lesson.number}` writes "
                         f"it there, or name your file: `linebyline {command} {lesson.number} "
                         "FILE`")
    return in_folder if in_folder.exists() else here


def cmd_start(args: argparse.Namespace) -> int:
    course = _course(args.course)
    if _is_blank_page(course, args.lesson):
        return _start_blank_page(args, course)
    lesson = _lesson(course, args.lesson)
    folder = Path(args.dir) if args.dir else _lesson_folder(lesson, course)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: exists and is not a folder")
    target = folder / lesson.exercise.filename
    if target.exists() and not args.force:
        raise UsageError(f"{target} already exists; it may hold your work, so it was left as it "
                         "is (use --force to replace it with the starter)")
    level = _start_level(args, lesson)
    starters = lesson.exercise.starters
    text, origin = starters[level], "the starter"
    if len(starters) > 1:
        origin += f", TODOs {LEVEL_WORDS[level]}"
    draft = None if args.starter else _latest_draft(course, lesson)
    if draft is not None and draft["draft"] not in starters.values() and _take_draft(args, draft):
        text, origin = draft["draft"], "your latest draft"
        if args.level and lesson.exercise.own_starter:
            from ..course.levels import switch_blocks

            # Its TODO comments still as a starter had them, at the level asked for.
            text = switch_blocks(text, lesson.exercise.level_pairs(), level)
            origin += f", TODOs {LEVEL_WORDS[level]}"
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    data = folder / "input.txt"
    wrote_data = not data.exists()
    if wrote_data:  # the names the lesson's code reads, as the browser mounts them
        import shutil

        from ..course.dataset import names_file

        shutil.copyfile(names_file(), data)
    print(f"Wrote {target} ({origin})" + (f" and {data.name} (the names it reads)" if wrote_data
                                          else "") + f": {lesson.kind} {lesson.number}, {lesson.title}.")
    named = f" {target}" if args.dir else ""  # in its own folder, the commands find it
    print("Open it in your editor and fill in the TODOs. Then:")
    for command, what in (("show", "the lesson: why these lines, and how"),
                          ("run", "runs it, as `python` would in its folder"),
                          ("watch", "checks it every time you save it"),
                          ("check", "checks it once")):
        print(f"  {f'linebyline {command} {lesson.number}{named}':<{34 + len(named)}} {what}")
    return 0


LEVEL_WORDS = {"guided": "guided", "own": "on my own"}


def _start_level(args: argparse.Namespace, lesson: Lesson | Recall) -> str:
    """The level of the TODO comments to write: --level, else `linebyline config level`; guided
    for a lesson that has no on-my-own TODOs yet (said when it was asked for)."""
    from ..terminal import preferences

    level = args.level or preferences.get("level")
    if isinstance(lesson, Recall):
        return "guided"  # a recall's file has no TODO texts to choose between: it is all yours
    if level == "own" and not lesson.exercise.own_starter:
        print(f"(Lesson {lesson.number} has no on-my-own TODOs yet: its TODOs are the guided "
              "ones.)", file=sys.stderr)
        return "guided"
    return level


def _latest_draft(course: Course, lesson: Lesson | Recall) -> dict | None:
    """The newest draft of the lesson on this machine or (signed in) in the account."""
    from ..progress import merge as pm
    from ..terminal.learner import local_progress, sync_now

    local = local_progress(course)
    note = sync_now(course, local)
    if note:
        print(note, file=sys.stderr)
    versions = pm.versions_of(local.lessons().get(lesson.number, {}))
    return versions[0] if versions else None


def _take_draft(args: argparse.Namespace, draft: dict) -> bool:
    if args.draft:
        return True
    when = time.strftime("%d %b %Y %H:%M", time.localtime(draft["at"] / 1000)) if draft["at"] \
        else "some time ago"
    where = "this terminal" if draft["device"].startswith("cli-") else "the browser"
    lines = len(draft["draft"].rstrip("\n").splitlines())
    print(f"You have a draft of this lesson from {where} ({when}, {plural(lines, 'line')}).")
    try:
        answer = input("Write your draft instead of the starter? [Y/n] ")
    except EOFError:
        print("\n(No answer: writing the starter. `--draft` takes the draft without asking.)")
        return False
    return answer.strip().lower() in ("", "y", "yes")


def cmd_config(args: argparse.Namespace) -> int:
    from ..terminal import preferences

    try:
        if args.name is None:
            for name, (values, default, about) in preferences.SETTINGS.items():
                print(f"{name} = {preferences.get(name)}    ({'|'.join(values)}, default "
                      f"{default}: {about})")
            return 0
        if args.value is None:
            print(preferences.get(args.name))
            return 0
        preferences.set_value(args.name, args.value)
    except preferences.PreferenceError as error:
        raise UsageError(str(error)) from None
    print(f"{args.name} = {args.value}")
    if args.name == "level":
        print(f"`linebyline start` now writes the TODO comments "
              f"{preferences.LEVEL_NAMES[args.value]} (`--level` picks the other for one lesson).")
    return 0


def cmd_login(args: argparse.Namespace) -> int:
    import getpass

    url = args.url
    if args.token_stdin:
        token = sys.stdin.readline()
    else:
        print(f"Create a token on your account page: {url.rstrip('/')}/accounts/#terminal")
        token = getpass.getpass("Paste the token (it is not shown): ")
    try:
        login = account_link.log_in(url, token)
    except account_link.AccountError as error:
        raise UsageError(str(error)) from None
    print(f"Signed in to {login.url} as {login.username}. Your progress on this machine and "
          "your account's are kept merged, as in the browser.")
    from ..progress import account as link
    from ..progress import sync as progress_sync
    from ..terminal.learner import local_progress, published

    course = _course(args.course)
    local = local_progress(course)
    try:
        for note in progress_sync.sync(login, local, published(course)):
            print(note)
        done = _done_count(local.lessons())
        print(f"Merged: {done} lesson{'' if done == 1 else 's'} done, here and in the browser.")
    except link.AccountError as error:
        print(f"Your progress could not be merged yet ({error}); it goes with the next "
              "command that records something.", file=sys.stderr)
    print(f"(The token is kept in {account_link.config_dir() / 'login.json'}, readable by you "
          "only. `linebyline logout` revokes it.)")
    return 0


def cmd_logout(args: argparse.Namespace) -> int:
    login, problem = account_link.log_out()
    if login is None:
        print("Not signed in: nothing to do.")
        return 0
    print(f"Signed out of {login.url}; the token is forgotten here.")
    if problem:
        print(f"It could not be revoked on the server ({problem}): revoke it on your account "
              "page.", file=sys.stderr)
    return 0


def _done_count(lessons: dict) -> int:
    return sum(entry["status"] == "done" for entry in lessons.values())


def _read_source(path: Path) -> str:
    """The learner's file, or a usage error that names what is wrong with it."""
    if not path.exists():
        raise UsageError(f"{path}: no such file")
    if path.is_dir():
        raise UsageError(f"{path}: is a folder, not your lesson's file")
    if path.is_file() and path.stat().st_size > MAX_SOURCE_BYTES:
        raise UsageError(f"{path}: is {path.stat().st_size:,} bytes, more than the "
                         f"{MAX_SOURCE_BYTES:,} a lesson's file can be; is it the right file?")
    try:
        with open(path, "rb") as handle:  # not only regular files: /dev/null, a pipe
            raw = handle.read(MAX_SOURCE_BYTES + 1)
    except OSError as error:
        raise UsageError(f"{path}: cannot be read ({error.strerror})") from None
    if len(raw) > MAX_SOURCE_BYTES:
        raise UsageError(f"{path}: is more than the {MAX_SOURCE_BYTES:,} bytes a lesson's file "
                         "can be; is it the right file?")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: is not UTF-8 text; save it as UTF-8 and try again") from None


def cmd_check(args: argparse.Namespace) -> int:
    from ..sandbox import SandboxUnavailable, explain

    if args.explain_sandbox:
        try:
            print(explain())
        except SandboxUnavailable as error:
            raise UsageError(str(error)) from None
        return 0
    if args.all:
        if args.lesson is not None:
            raise UsageError("--all checks every lesson's file where `start` put it: give no lesson "
                             "number with it")
        return _check_all(args, _course(args.course))
    if args.lesson is None:
        raise UsageError("needs a lesson number (and your file), e.g. `linebyline check 7.5 "
                         "backward.py` (or --all, or --explain-sandbox)")
    course = _course(args.course)
    if _is_blank_page(course, args.lesson):
        return _check_blank_page(args, course)
    lesson = _lesson(course, args.lesson)
    path = Path(args.file) if args.file else _default_file(lesson, course, "check")
    result = check_once(args, course, lesson, path)
    return 0 if result.status == "pass" else 1


def _check_all(args: argparse.Namespace, course: Course) -> int:
    """Every lesson's and recall's file where `start` put it, checked, one line each, in course
    order. Nothing is recorded: it is a look over your work, not an attempt at each lesson."""
    from concurrent.futures import ThreadPoolExecutor

    from ..sandbox import SandboxUnavailable, check_source

    items = list(course.lessons()) + list(course.recalls())

    def one(item: Lesson | Recall) -> dict[str, Any]:
        path = _lesson_folder(item, course) / item.exercise.filename
        row: dict[str, Any] = {"lesson": item.number, "title": item.title, "file": str(path)}
        if not path.is_file():
            return {**row, "status": "not-started", "passed": 0, "total": 0, "failing": ""}
        try:
            result = check_source(item, _read_source(path), timeout=args.timeout,
                                  memory_mb=args.memory)
        except (UsageError, SandboxUnavailable) as error:
            return {**row, "status": "error", "passed": 0, "total": 0, "failing": str(error)}
        failing = next((c.name for c in result.checks if c.status != "pass"), "")
        return {**row, "status": result.status, "failing": failing, "total": len(result.checks),
                "passed": sum(c.status == "pass" for c in result.checks)}

    rows = []
    # Each check is a process of its own: one per core at a time, printed in course order.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for row in pool.map(one, items):
            rows.append(row)
            if not args.json:
                print(_check_all_line(row), flush=True)
    started = [row for row in rows if row["status"] != "not-started"]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        passing = sum(row["status"] == "pass" for row in started)
        print(f"{passing} of {len(started)} files you started pass "
              f"({len(rows) - len(started)} of {len(rows)} lessons and recalls not started).")
    return 0 if all(row["status"] == "pass" for row in started) else 1


def _check_all_line(row: dict[str, Any]) -> str:
    title = row["title"] if len(row["title"]) <= 38 else row["title"][:37] + "…"
    head = f"{row['lesson']:<10} {title:<38} "
    if row["status"] == "not-started":
        return head + "  not started"
    if row["status"] == "pass":
        return head + f"✓ {row['passed']} / {row['total']} checks pass"
    if row["status"] == "not-attempted":
        return head + "  the starter, untouched"
    if row["status"] == "error" and not row["total"]:
        return head + f"✗ {row['failing']}"
    return head + f"✗ {row['passed']} / {row['total']}: first not passing, {row['failing']!r}"


# --- the program from a blank page: the course's last recall ----------------------------------

def _is_blank_page(course: Course, target: str | None) -> bool:
    from ..mine.terminal import blank_page_target

    return target in (blank_page_target(course), course.program_name)


def _blank_page_file(course: Course) -> Path:
    from ..mine.terminal import blank_page_target

    return Path(course.slug) / blank_page_target(course) / course.program_name


def _start_blank_page(args: argparse.Namespace, course: Course) -> int:
    from ..mine.terminal import blank_page_target

    target = Path(args.dir) / course.program_name if args.dir else _blank_page_file(course)
    if target.exists() and not args.force:
        raise UsageError(f"{target} already exists; it may hold your work, so it was left as it "
                         "is (use --force to start again from an empty file)")
    if target.parent.exists() and not target.parent.is_dir():
        raise UsageError(f"{target.parent}: exists and is not a folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("", encoding="utf-8")
    data = target.parent / "input.txt"
    if not data.exists():
        import shutil

        from ..course.dataset import names_file

        shutil.copyfile(names_file(), data)
    name = blank_page_target(course)
    named = f" {target}" if args.dir else ""
    print(f"Wrote {target}, empty, and {data.name} beside it: write the whole of "
          f"{course.program_name} there, from memory.\n"
          f"It passes when it runs and its first 30 training steps print {course.program_name}'s "
          "losses at every digit.\n"
          f"  linebyline check {name}{named}   runs its first 30 steps and compares them")
    return 0


def _check_blank_page(args: argparse.Namespace, course: Course) -> int:
    from ..mine.terminal import MineError, judge_blank_page

    path = Path(args.file) if args.file else _blank_page_file(course)
    if not args.file and not path.exists() and Path(course.program_name).exists():
        path = Path(course.program_name)
    if not path.is_file():
        raise UsageError(f"{path}: no such file. `linebyline start "
                         f"{Path(course.program_name).stem}` writes an empty one, or name yours")
    print(f"Running the first 30 steps of {path} (Ctrl-C stops it)…", file=sys.stderr)
    with progress(30, every_s=0, leave=False) as bar:
        try:
            from ..course.dataset import names_file

            judged = judge_blank_page(course, path, names_file(), lambda n: bar.update(n - bar.n))
        except MineError as error:
            raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps({"status": "pass" if judged.passed else "fail", "text": judged.text,
                          "step": judged.step, "lines": judged.lines}, ensure_ascii=False))
    else:
        print(("✓ " if judged.passed else "✗ ") + judged.text)
    return 0 if judged.passed else 1


def check_once(args: argparse.Namespace, course: Course, lesson: Lesson | Recall, path: Path,
               clear: bool = False) -> Result:
    """Check the file once: run the checks, record the run, print the result (`check`, `watch`)."""
    from ..sandbox import SandboxUnavailable, check_source
    from ..terminal.learner import local_progress, record_check, say_problems, send_later

    source = _read_source(path)
    try:
        result = check_source(lesson, source, timeout=args.timeout, memory_mb=args.memory)
    except SandboxUnavailable as error:
        raise UsageError(str(error)) from None
    local = local_progress(course)
    try:
        _check_events(course, lesson, result, source, local)
        shown_fixes = record_check(local, lesson, result, source)
        note = send_later(args.course, course, local)
    except OSError as error:  # the verdict stands; only the record is missing, and said so
        shown_fixes, note = set(), ""
        print(f"linebyline: this check could not be recorded in your progress ({error})",
              file=sys.stderr)
    say_problems(local)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
        if note:
            print(note, file=sys.stderr)
        return result
    from ..terminal.screen import Screen
    from ..terminal.verdict import print_result

    screen = Screen()
    if clear:
        screen.clear()
    print_result(screen, course, lesson, result, shown_fixes=shown_fixes,
                 whole_output=args.output, source=(source, path.name))
    if note:
        screen.line(note, "note")
    return result


def _check_events(course: Course, lesson: Lesson | Recall, result: Result, source: str, local) -> None:
    """For the teacher's view, as the lesson page records a checked run."""
    from ..progress.events import record_event

    if local.lesson(lesson.number)["status"] == "not-started" and \
            result.status != "not-attempted":
        record_event(local, lesson.number, {"kind": "start"})
    record_event(local, lesson.number, {"kind": "check", "status": result.status, "checks": [
        {"name": c.name, "status": c.status, "message": c.message} for c in result.checks],
        "code": source})


def cmd_watch(args: argparse.Namespace) -> int:
    from ..terminal.watching import watch

    course = _course(args.course)
    lesson = _lesson(course, args.lesson)
    path = Path(args.file) if args.file else _default_file(lesson, course, "watch")
    _read_source(path)  # a missing file is said now, not on the first save
    args.json = False
    return watch(path, lambda: check_once(args, course, lesson, path, clear=True))


def cmd_run(args: argparse.Namespace) -> int:
    course = _course(args.course)
    lesson = _lesson(course, args.lesson)
    path = Path(args.file) if args.file else _default_file(lesson, course, "run")
    _read_source(path)
    folder, env = _run_environment(course, path)
    # Your own code on your own machine, as `python` runs it, in its folder (like the browser's
    # Run); Ctrl-C stops it.
    done = subprocess.run([sys.executable, path.name], cwd=folder, env=env)
    if done.returncode < 0:
        return 128 - done.returncode
    return done.returncode


def _run_environment(course: Course, path: Path) -> tuple[Path, dict[str, str]]:
    """The folder a learner's file runs in, with the input.txt it reads (written there if
    missing, as the browser's Run has it), and an environment in which the course's own modules
    (courses/NAME/library) that starters import are importable."""
    folder = path.resolve().parent
    data = folder / "input.txt"
    if not data.exists():
        import shutil

        from ..course.dataset import names_file

        shutil.copyfile(names_file(), data)
        print(f"(Wrote {data}: the names your code reads.)", file=sys.stderr)
    from ..course.library import library_folder

    library = library_folder(course.path)
    env = dict(os.environ)
    if library.is_dir():
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(library.resolve()),
                                                          env.get("PYTHONPATH")]))
    return folder, env


def cmd_graph(args: argparse.Namespace) -> int:
    path = Path(args.file)
    _read_source(path)
    course = _course(args.course)
    rule = args.rule or _graph_rule(course, path.name)
    kind = "dot" if args.dot or (args.output or "").endswith(".dot") else "svg"
    out = Path(args.output) if args.output else path.with_name(f"{path.stem}.graph.{kind}")
    folder, env = _run_environment(course, path)
    import json
    import tempfile

    with tempfile.TemporaryDirectory(prefix="linebyline-graph-") as scratch:
        results = Path(scratch) / "graph.json"
        done = subprocess.run([sys.executable, "-m", "linebyline.terminal.graph_child", path.name,
                               args.value or "", rule, args.block or "", str(results)],
                              cwd=folder, env=env)
        if not results.is_file():
            print(f"{path}: Python ended (exit code {done.returncode}) before your Values could be "
                  "read, so nothing was drawn.", file=sys.stderr)
            return 1
        result = json.loads(results.read_text(encoding="utf-8"))
    from ..terminal.graph_file import report

    return report(result, out, kind)


def _graph_rule(course: Course, filename: str) -> str:
    """The rule of the module whose lesson writes a file of this name (counting paths in module
    3), else the chain rule."""
    for module in course.modules:
        if module.graph and any(lesson.exercise.filename == filename for lesson in module.lessons):
            return module.graph
    return "chain"


def cmd_show(args: argparse.Namespace) -> int:
    from ..terminal.lesson_text import show
    from ..terminal.screen import Screen

    course = _course(args.course)
    show(course, _lesson(course, args.lesson), Screen())
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    from ..terminal.lesson_text import hint
    from ..terminal.screen import Screen

    course = _course(args.course)
    return hint(args.course, course, _lesson(course, args.lesson), Screen(), args.all)


def cmd_solution(args: argparse.Namespace) -> int:
    from ..terminal.lesson_text import solution
    from ..terminal.screen import Screen

    course = _course(args.course)
    done = solution(course, _lesson(course, args.lesson), Screen(), args.yes)
    if done is None:
        raise UsageError("asks before it shows the solution, and there is no terminal to ask "
                         "in: add --yes to show it")
    return done


def cmd_quiz(args: argparse.Namespace) -> int:
    from ..terminal.quiz import quiz
    from ..terminal.screen import Screen

    course = _course(args.course)
    lesson = _lesson(course, args.lesson)
    if isinstance(lesson, Recall):
        raise UsageError(f"{lesson.number} is module {lesson.module}'s recall exercise: code to "
                         f"write, with no questions of its own (`linebyline show {lesson.number}`"
                         " says what it asks for); the module's questions are on its review page")
    return quiz(args.course, course, lesson, Screen())


def cmd_progress(args: argparse.Namespace) -> int:
    from ..terminal.progress_view import progress_command

    course = _course(args.course)
    return progress_command(args, course, UsageError)


def cmd_lint(args: argparse.Namespace) -> int:
    from ..authoring.lint import format_ranges, lint_course

    course = _course(args.course_arg or args.course, fresh=True)
    for number in args.lesson or []:
        _lesson(course, number)  # an unknown number is a usage error, not an empty lint
    report = lint_course(course, require_full_coverage=args.require_full_coverage,
                         only=args.lesson, strict=args.strict)
    short = "✗" if args.strict else "!"
    for lesson_report in report.lessons:
        lesson = lesson_report.lesson
        failed = lesson_report.problems or (args.strict and lesson_report.standard)
        mark = "PROBLEMS" if failed else "below the standard" if lesson_report.standard else "ok"
        print(f"{lesson.number} {lesson.title}: {mark}")
        for note in lesson_report.notes:
            print(f"    {note}")
        for problem in lesson_report.problems:
            print(f"  ✗ {problem}")
        for shortfall in lesson_report.standard:
            print(f"  {short} {shortfall}")
    for note in report.notes:
        print(note)
    for problem in report.problems:
        print(f"✗ {problem}")
    for shortfall in report.standard:
        print(f"{short} {shortfall}")
    shortfalls = len(report.standard) + sum(len(r.standard) for r in report.lessons)
    if shortfalls and not args.strict:
        print(f"\n{shortfalls} findings against the lesson standard (docs/authoring.md); "
              "--strict makes them problems.")
    total = len(course.countable_lines())
    taught = total - len(report.uncovered)
    print(f"\n{course.program_name}: {taught} / {total} non-blank lines taught by a lesson.")
    if report.uncovered and not args.require_full_coverage:
        print(f"Not taught yet: lines {format_ranges(report.uncovered)}")
    print("lint passed." if report.ok else "lint FAILED.")
    return 0 if report.ok else 1


class StepPrinter:
    """A script's output lines, with a progress bar over its `step k / n | loss x` lines."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.bar: Any = None  # the progress, once the first step is printed

    def __call__(self, line: str) -> None:
        from ..mine.scripts import parse_step

        step = parse_step(line)
        if step is None:
            (self.bar.write if self.bar else print)(line)
            return
        if self.bar is None:
            self.bar = progress(step.total, self.name)
        self.bar.update(step.number - self.bar.n)
        self.bar.set_postfix(loss=step.loss)
        self.bar.write(f"step {step.number:4d} / {step.total} | loss {step.loss}")
        if step.number == step.total:
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def cmd_train(args: argparse.Namespace) -> int:
    from ..mine.scripts import ScriptError, find_script, run_source

    course = _course(args.course)
    if args.progress and not args.mine:
        raise UsageError("--progress goes with --mine (train your own code from that progress)")
    if args.mine:
        return _train_mine(args, course)
    try:
        script = find_script(course.path, args.script)
        show = StepPrinter(script.name)
        for line in run_source(script.read_text(encoding="utf-8"), script.name,
                               Path(args.dataset), args.steps, args.temperature):
            show(line)
        show.close()
    except (ScriptError, DatasetError) as error:
        raise UsageError(str(error)) from None
    except subprocess.CalledProcessError as error:
        print(f"{args.script} stopped with an error:\n{error.stderr}", file=sys.stderr)
        return 1
    return 0


def _train_mine(args: argparse.Namespace, course: Course) -> int:
    from ..course.dataset import check_dataset
    from ..mine.scripts import ScriptError
    from ..mine.terminal import ReferenceRun, describe, run_recorded, verdict
    from ..mine.training import SetupError, configure

    assembly = _assembly(args, course)
    print("\n".join(describe(assembly)[:1]) + " (`linebyline assemble` lists them.)")
    dataset = Path(args.dataset)
    try:
        check_dataset(dataset)
        configure(assembly.text, args.steps, args.temperature)
        reference = ReferenceRun(_assembler(course).script(assembly.script).text, assembly.script,
                                 dataset, args.steps, args.temperature)
    except (ScriptError, DatasetError, SetupError) as error:
        raise UsageError(f"{assembly.script}: {error}" if isinstance(error, SetupError)
                         else str(error)) from None
    print("The reference run: " + ("from the cache." if reference.cached
                                   else "running alongside yours."))
    show = StepPrinter(assembly.filename)
    try:
        mine = run_recorded(assembly.text, assembly.filename, dataset, args.steps,
                            args.temperature, on_line=show)
        show.close()
    except ScriptError as error:
        reference.stop()
        raise UsageError(str(error)) from None
    except subprocess.CalledProcessError as error:
        reference.stop()
        print(f"{assembly.filename} stopped with an error:\n{error.stderr}", file=sys.stderr)
        return 1
    except BaseException:
        reference.stop()
        raise
    bar = None
    for done in reference.wait():
        if bar is None:
            bar = progress(len(mine.losses), "the reference")
        bar.update(done - bar.n)
    if bar is not None:
        bar.close()
    if reference.record is None:
        print(f"The reference run failed ({reference.error}), so there is nothing to compare.",
              file=sys.stderr)
        return 1
    compared = verdict(mine, reference.record)
    print(compared.text)
    # Apart by more than rounding: a different program, which a script (or CI) must hear.
    return 0 if compared.kind in ("same", "rounding") else 1
_ASSEMBLERS: dict[Path, Assembler] = {}


def _assembler(course: Course) -> Assembler:
    from ..mine.assemble import Assembler

    if course.path not in _ASSEMBLERS:
        _ASSEMBLERS[course.path] = Assembler(course)
    return _ASSEMBLERS[course.path]


def _assembly(args: argparse.Namespace, course: Course) -> Assembly:
    """The script named by --script / SCRIPT, assembled from the code that passed its checks:
    in the --progress file, or else in this machine's progress."""
    from ..mine.assemble import read_lessons
    from ..mine.terminal import MineError, load_progress

    assembler = _assembler(course)
    try:
        name = assembler.resolve(args.script)
    except KeyError:
        known = ", ".join(Path(n).stem for n in assembler.script_names)
        raise UsageError(f"no script named {args.script!r} (known: {known})") from None
    local = None
    if args.progress:
        try:
            progress, left_out = load_progress(Path(args.progress), course)
        except MineError as error:
            raise UsageError(str(error)) from None
    else:
        from ..terminal.learner import local_progress, say_problems, sync_now

        local = local_progress(course)
        note = sync_now(course, local)
        if note:
            print(note, file=sys.stderr)
        progress, left_out = read_lessons(local.lessons())
        say_problems(local)
    for problem in left_out:
        print(f"linebyline: left out of {args.progress or 'your progress'}: {problem}",
              file=sys.stderr)
    from ..mine.terminal import check_again
    from ..sandbox import SandboxUnavailable

    try:
        progress = check_again(course, progress, assembler.lessons_in(name), local)
    except SandboxUnavailable as error:
        raise UsageError(str(error)) from None
    return assembler.assemble(name, progress)


def cmd_assemble(args: argparse.Namespace) -> int:
    from ..mine.terminal import describe

    course = _course(args.course)
    assembly = _assembly(args, course)
    if args.out == "-":
        sys.stdout.write(assembly.text)
        for line in describe(assembly):
            print(line, file=sys.stderr)
        return 0
    target = Path(args.out or assembly.filename)
    if target.is_dir():
        target = target / assembly.filename
    if target.exists() and not args.force:
        raise UsageError(f"{target} already exists; it may hold your work, so it was left as it "
                         "is (use --force to replace it)")
    if not target.parent.is_dir():
        raise UsageError(f"{target.parent}: no such folder")
    target.write_text(assembly.text, encoding="utf-8")
    print("\n".join(describe(assembly)))
    print(f"\nWrote {target}. Run it next to an input.txt (one name per line):")
    print(f"  python {target.name}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import ServeError, serve

    if args.course:
        os.environ["LINEBYLINE_COURSE"] = str(_course(args.course).path)
    try:
        serve(args.host, args.port, production=args.production)
    except ServeError as error:
        print(f"linebyline serve: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # most often: the port is taken
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None
    return 0


def cmd_manage(args: argparse.Namespace) -> int:
    from .serve import manage

    manage(args.arguments)
    return 0


def _check_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--output", action="store_true",
                         help="show everything your code printed (default: its last lines)")
    command.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                         help=f"time limit for your code (default {DEFAULT_TIMEOUT:g}, at most "
                         f"{MAX_TIMEOUT:g})")
    command.add_argument("--memory", type=megabytes, default=DEFAULT_MEMORY_MB, metavar="MB",
                         help=f"memory limit for your code (default {DEFAULT_MEMORY_MB}, at "
                         f"least {MEMORY_RANGE[0]})")


def invite_days(text: str) -> int:
    try:
        days = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of days") from None
    if not 1 <= days <= 365:
        raise argparse.ArgumentTypeError("an invite lasts from 1 to 365 days")
    return days


class Parser(argparse.ArgumentParser):
    """argparse's parser, which also says which command a mistyped one was likely meant to be
    (as lesson numbers do): `linebyline chek` -> did you mean `linebyline check`?"""

    def error(self, message: str) -> NoReturn:
        wrong = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if wrong:
            import difflib  # only when a command was mistyped: `check` must start fast

            choices = re.findall(r"'([^']*)'", wrong.group(2))
            close = difflib.get_close_matches(wrong.group(1), choices, n=1, cutoff=0.6)
            if close:
                message += f"; did you mean `{self.prog} {close[0]}`?"
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="linebyline",
        description="Build microgpt line by line: the course in your browser (`linebyline serve`), "
        "or the same lessons from a terminal: read (show), write (start, run), check (check, "
        "watch), see your Values and backward() drawn (graph), get help (hint, solution), answer "
        "(quiz), and follow your progress (lessons, "
        "progress).",
        epilog="Start with `linebyline serve`, or `linebyline lessons` then `linebyline start 1.1`.",
    )
    parser.add_argument("--version", action="version", version=f"linebyline {__version__}")
    parser.add_argument("--course", metavar="PATH",
                        help="course folder or name (default: the bundled microgpt course)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    _add_lesson_commands(commands)
    _add_checking_commands(commands)
    _add_program_commands(commands)
    _add_server_commands(commands)
    return parser


LESSON_HELP = "lesson number, e.g. 2.3, or review-N: module N's recall exercise"


def _add_lesson_commands(commands) -> None:
    """Reading and writing a lesson: lessons, start, config, show, quiz, hint, solution."""
    lessons = commands.add_parser(
        "lessons", help="list modules and lessons, with your progress",
        description="List the course's modules and lessons, with minutes, each module's "
        "training script, and your progress: ✓ done, ✗ its last check failed, … started "
        "(signed in: merged with your account first). Ends with the next command to run.")
    lessons.set_defaults(run=cmd_lessons)

    _add_start_command(commands)

    config = commands.add_parser(
        "config", help="show or change the terminal's settings (the TODO level of `start`)",
        description="Show the terminal's settings, or change one: `linebyline config level own` "
        "makes `start` write the on-my-own TODO comments (only what the lines must achieve, and "
        "which check proves it) instead of the guided ones (how to write each line); checks "
        "and messages are the same at both levels. Kept in your config folder "
        "($LINEBYLINE_CONFIG_DIR, else $XDG_CONFIG_HOME/linebyline or ~/.config/linebyline).")
    config.add_argument("name", nargs="?", help="a setting: level")
    config.add_argument("value", nargs="?", help="its new value: for level, guided or own")
    config.set_defaults(run=cmd_config)

    for name, about, description, run in (
            ("show", "the lesson to read: its lead and explanation, paged",
             "Show the lesson in the terminal: its lead, the Watch text (code blocks and "
             "tables rendered on a terminal, plain Markdown otherwise), where its lines go in "
             "the program, and the commands to build it. Long text goes through your pager "
             "($PAGER).", cmd_show),
            ("quiz", "answer the lesson's questions (Check yourself)",
             "Ask the lesson's questions one by one, as the browser's Check yourself does: "
             "choices in your own order (signed in, the same order as in your browser), numbers "
             "worked out from the lesson's code, feedback on each answer and the worked answer "
             "after two misses. Answers are kept in your progress. Enter stops.", cmd_quiz)):
        command = commands.add_parser(name, help=about, description=description)
        command.add_argument("lesson", help=LESSON_HELP)
        command.set_defaults(run=run)

    hint = commands.add_parser(
        "hint", help="the lesson's next hint",
        description="Show the lesson's next hint, one at a time, from the gentlest to the line "
        "itself, and count it as the browser counts it (your progress; signed in, your "
        "teachers see it too). Once the last hint is open, `check` shows the literal line for "
        "each check that fails.")
    hint.add_argument("lesson", help=LESSON_HELP)
    hint.add_argument("--all", action="store_true",
                      help="show again every hint opened so far (opening the first if none)")
    hint.set_defaults(run=cmd_hint)

    solution = commands.add_parser(
        "solution", help="the lesson's solution, after a confirmation",
        description="Show the lesson's whole solution, after you confirm; counted as revealed "
        "(signed in, your teachers see that it was).")
    solution.add_argument("lesson", help=LESSON_HELP)
    solution.add_argument("--yes", action="store_true", help="do not ask first")
    solution.set_defaults(run=cmd_solution)


def _add_start_command(commands) -> None:
    """`start`: a lesson's starter, or the blank page of the last recall."""
    start = commands.add_parser(
        "start", help="write a lesson's starter, and the input.txt it reads, into its folder",
        description="Write the lesson's starter file, with the input.txt (the names) it reads, "
        "into a folder of its own (microgpt/2.3-loss-as-surprise/ here, or DIR), to edit in your "
        "own editor: `python loss.py` runs there as it is, and lessons never collide. An "
        "existing file is never overwritten unless you say --force. When you have a draft of the "
        "lesson (checked here, or signed in: from the browser) it is offered instead. Its TODO "
        "comments are guided (how to write each line) or, with --level own or `linebyline config "
        "level own`, on my own (only what the lines must achieve, and which check proves it); the "
        "code, the checks and their messages are the same. `start review-7` writes module 7's "
        "recall exercise: the module's code to write again from memory, judged by the checks "
        "of its lessons together (`check review-7`; its hints say which lesson to reread). "
        "`start microgpt` writes an empty "
        "microgpt.py (into microgpt/microgpt/, or DIR) for the last recall: the whole program "
        "from memory, checked with `check microgpt`.")
    start.add_argument("lesson", help=LESSON_HELP + ", or microgpt: the whole program from a "
                       "blank page")
    start.add_argument("dir", nargs="?",
                       help="the lesson's folder (default: COURSE/NUMBER-NAME, under this one)")
    start.add_argument("--force", action="store_true", help="replace an existing file")
    which = start.add_mutually_exclusive_group()
    which.add_argument("--draft", action="store_true",
                       help="write your latest draft without asking")
    which.add_argument("--starter", action="store_true",
                       help="write the starter even if you have a draft")
    start.add_argument("--level", choices=("guided", "own"),
                       help="the TODO comments: guided (how to write each line) or own (on my "
                       "own: only what the lines must achieve, and which check proves it); "
                       "default: `linebyline config level`, else guided. With a draft, rewrites "
                       "the TODO comments it still has as a starter had them")
    start.set_defaults(run=cmd_start)


def _add_graph_command(commands) -> None:
    """graph: the learner's Values and backward() drawn as a file (the browser's Graph tab)."""
    graph = commands.add_parser(
        "graph", help="draw the graph of a Value your file makes, as an SVG (or DOT) file",
        description="Run FILE as `run` does, then draw the graph of one Value it made: each node "
        "with its operation, data and grad, each arrow with its local grad, the same drawing as "
        "the browser's Graph tab. Your backward() is run again from zero grads, one write at a "
        "time, and each write is held to the chain rule (counting paths, for module 3's files): "
        "a grad replaced instead of added, a wrong amount, or a node that hands its grad on "
        "before the nodes made from it, is printed with its line, and a node whose grad ends "
        "wrong is outlined in red. Up to 500 nodes are drawn; a bigger graph shows the 500 "
        "nearest the Value, each marked with how many below it are not drawn, and lists its "
        "blocks (the embedding, attention, the MLP, the loss ...), each named by the weights "
        "it uses last, which --block draws one at a time. Exit code: 0 "
        "when the file was written, 1 when there was nothing to draw, 2 for a usage error.")
    graph.add_argument("file", help="your Python file")
    graph.add_argument("--value", metavar="NAME",
                       help="the top-level name of the Value to draw (default: the last Value no "
                       "other named Value was made from, such as the loss)")
    graph.add_argument("--block", metavar="NAME",
                       help="of a graph too big to draw, the block to draw: the nodes computed "
                       "last from one matrix of weights (the command lists them)")
    graph.add_argument("--dot", action="store_true", help="write DOT (Graphviz) instead of SVG")
    graph.add_argument("--output", "-o", metavar="PATH",
                       help="where to write it (default: FILE's name with .graph.svg, or .graph.dot)")
    graph.add_argument("--rule", choices=("chain", "paths"),
                       help="what backward() is held to (default: from the lesson the file is for)")
    graph.set_defaults(run=cmd_graph)


def _add_checking_commands(commands) -> None:
    """Checking and running the learner's file, and their progress: check, watch, run, progress."""
    check = commands.add_parser(
        "check", help="run a lesson's checks on your file",
        description="Run the lesson's checks on FILE (default: the file `start` wrote) in a "
        "separate process, under a time and a memory limit, a 64 MB limit on files it writes "
        "and a limit of 32 more processes; the process and everything it started end with the "
        "check. On Linux it also runs in namespaces of its own (with bubblewrap when "
        "installed): no network, the file system read-only but a private /tmp; "
        "--explain-sandbox says what protects your checks here. Printed like pytest: your "
        "program's last lines of output (all with --output), then each check, the verdict last "
        "and, on a pass, the next command; in colour on a terminal. The run is recorded in your "
        "progress (`linebyline progress`): a pass makes the lesson done and keeps that code as "
        "yours, and a check's literal fix shows after it failed three times in a row. Signed "
        "in, it goes to your account in the background. Exit code: 0 when every check passes, "
        "1 when any does not, 2 for a usage error (unknown lesson, missing file, a bad option). "
        "`check microgpt [FILE]` is the course's last recall: your whole microgpt.py, written "
        "from a blank page (`start microgpt`), runs as `python` would run it until it has "
        "printed 30 training steps, and passes when their losses are microgpt.py's at every "
        "printed digit; where they part, it names the step, the numbers and the lines of "
        "microgpt.py that compute them.")
    check.add_argument("lesson", nargs="?",
                       help=LESSON_HELP + ", or microgpt: the whole program from a blank page")
    check.add_argument("file", nargs="?", help="your Python file (default: the one `start` wrote)")
    check.add_argument("--all", action="store_true",
                       help="check every lesson's and recall's file where `start` put it, one "
                       "line each in course order (nothing is recorded; exit code 1 when a file "
                       "you started does not pass)")
    check.add_argument("--explain-sandbox", action="store_true",
                       help="say which protections your checks have on this machine (each way "
                       "is tried), then stop; LINEBYLINE_SANDBOX=auto|bwrap|namespaces|limits "
                       "picks the way")
    check.add_argument("--json", action="store_true",
                       help='print one JSON object: {"lesson", "status", "checks": [{"name", '
                       '"status", "message", "fix"}], "stdout", "traceback"}')
    _check_options(check)
    check.set_defaults(run=cmd_check)

    watch = commands.add_parser(
        "watch", help="check your file again every time you save it",
        description="Check FILE (default: the one `start` wrote) now and again on every save, "
        "the screen cleared each time and the verdict last, as `check` prints it. Ctrl-C stops.")
    watch.add_argument("lesson", help=LESSON_HELP)
    watch.add_argument("file", nargs="?", help="your Python file (default: the one `start` wrote)")
    _check_options(watch)
    watch.set_defaults(run=cmd_watch)

    run = commands.add_parser(
        "run", help="run your file, as the browser's Run does",
        description="Run FILE (default: the one `start` wrote) with Python, in its folder, "
        "next to the input.txt it reads (written there if missing): its output as it comes, "
        "its demo at the end included. It is your code on your own machine, as `python FILE` "
        "would run it; Ctrl-C stops it. The exit code is your program's.")
    run.add_argument("lesson", help=LESSON_HELP)
    run.add_argument("file", nargs="?", help="your Python file (default: the one `start` wrote)")
    run.set_defaults(run=cmd_run)
    _add_graph_command(commands)

    progress = commands.add_parser(
        "progress", help="your progress: a summary, export, import, sync",
        description="Your progress from the terminal, kept in your data folder "
        "($LINEBYLINE_DATA_DIR, else $XDG_DATA_HOME/linebyline or ~/.local/share/linebyline) in "
        "the format of the course home's Export. Signed in (`linebyline login`), it is merged "
        "with your account's as the browser merges: what could not be sent waits here and goes "
        "later, never lost.")
    progress.add_argument("--export", metavar="FILE",
                          help="write it as a progress file (- prints it), for the course home's "
                          "Import or `linebyline assemble --progress`")
    progress.add_argument("--import", dest="import_file", metavar="FILE",
                          help="merge a progress file (the course home's Export) into it")
    progress.add_argument("--sync", action="store_true",
                          help="signed in: merge with your account now, and wait for it")
    progress.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    progress.set_defaults(run=cmd_progress)


def _add_program_commands(commands) -> None:
    """The whole program, for authors and learners: lint, assemble, train."""
    lint = commands.add_parser(
        "lint", help="prove every lesson of a course (for authors)",
        description="Load and validate the course; prove every exercise both ways (the solution "
        "passes, the untouched starter does not, at both levels of TODO comments where the "
        "lesson has `on_my_own`), that every known mistake produces exactly its message, compute "
        "every prediction, and report the program lines no lesson teaches yet.")
    lint.add_argument("course_arg", nargs="?", metavar="COURSE",
                      help="course folder or name (default: microgpt)")
    lint.add_argument("--require-full-coverage", action="store_true",
                      help="fail when any non-blank line of the program is taught by no lesson")
    lint.add_argument("--lesson", action="append", metavar="N",
                      help="prove only this lesson, or a module's recall exercise (review-7); repeat for "
                      "more; the course still loads whole")
    lint.add_argument("--strict", action="store_true",
                      help="fail when a lesson falls short of the lesson standard (shuffle-proof "
                      "choices, expected wrong numbers, no fix handed over in a message, no answer "
                      "spelled out in an on-my-own TODO, ...)")
    lint.set_defaults(run=cmd_lint)

    assemble = commands.add_parser(
        "assemble", help="build your own version of a script from your passing lesson code",
        description="Build SCRIPT with every part a lesson taught replaced by your code for that "
        "lesson: the code that passed its checks, never a later draft. From your progress here "
        "(signed in: merged with your account first), or from the --progress file the course "
        "home exports (format version 1 or 2). A lesson marked done whose passing code was not "
        "kept (an older file) has its saved code checked again, and used only if it passes. "
        "Every other part keeps the reference; the listing says which, and why. The file runs "
        "with plain `python` next to an input.txt.")
    assemble.add_argument("script", help="train0 ... train5, or microgpt")
    assemble.add_argument("--progress", metavar="FILE",
                          help="an exported progress file (default: your progress here)")
    assemble.add_argument("--out", metavar="PATH",
                          help="where to write it (default: my_SCRIPT.py here; - prints it)")
    assemble.add_argument("--force", action="store_true", help="replace an existing file")
    assemble.set_defaults(run=cmd_assemble)

    train = commands.add_parser(
        "train", help="run the reference program, or your own, with a progress bar",
        description="Run the course's reference program (or one module's script), showing a "
        "progress bar and the loss of every step, then the names it samples. With "
        "--mine, run your own version of the script (what `linebyline assemble` builds from "
        "your passing code), with the reference run beside it (cached after its first run), and "
        "say how the two compare: the same to the last digit, apart only by rounding, or where "
        "they part. With --mine the exit code is 1 when they part (or a run failed).")
    train.add_argument("--steps", type=step_count, metavar="N",
                       help="training steps (default: the script's own, 1000)")
    train.add_argument("--dataset", default=str(BUNDLED_NAMES), metavar="PATH",
                       help="one document per line, UTF-8 (default: the bundled names)")
    train.add_argument("--script", default="microgpt",
                       help="microgpt (default) or train0 ... train5")
    train.add_argument("--temperature", type=temperature_value, metavar="T",
                       help="sampling temperature (default: the script's own, 0.5); "
                       "train0 has none")
    train.add_argument("--mine", action="store_true",
                       help="train your own version of the script, from your progress here "
                       "(or --progress FILE)")
    train.add_argument("--progress", metavar="FILE",
                       help="with --mine: an exported progress file (default: your progress "
                       "here)")
    train.set_defaults(run=cmd_train)


def _add_server_commands(commands) -> None:
    """The server and the account: serve, login, logout, teacher, manage."""
    serve = commands.add_parser(
        "serve", help="start the web app: the course in your browser",
        description="Start the web app (the course in the browser, with Python running in the "
        "browser itself). The first run creates the database and prepares static files. "
        "Settings come from LINEBYLINE_* environment variables (see docs/deploy.md). On an address "
        "other than 127.0.0.1 it prints the host names it answers to and how to add one, and "
        "refuses debug mode; docs/deploy.md says how to serve others.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; "
                       "0.0.0.0: every address)")
    serve.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    serve.add_argument("--production", action="store_true",
                       help="refuse to start with an insecure configuration (debug on, no shared "
                       "secret key, open or unset host names, no HTTPS proxy) and send cookies over "
                       "HTTPS only; the same as LINEBYLINE_PRODUCTION=1 (docs/deploy.md)")
    serve.set_defaults(run=cmd_serve)

    login = commands.add_parser(
        "login", help="sign the terminal in to your account on a linebyline server",
        description="Sign this terminal in with a personal token you create on your account page "
        "(URL/accounts/). The token is kept in your config folder ($LINEBYLINE_CONFIG_DIR, else "
        "$XDG_CONFIG_HOME/linebyline or ~/.config/linebyline), readable by you only. Your "
        "progress here is merged with your account's at once, and from then on kept merged as "
        "the browser's is (in the background, never waiting on the server); your teachers see "
        "your checks and hints. Without it, everything works on this machine only.")
    login.add_argument("url", nargs="?", default="http://127.0.0.1:8000",
                       help="the server (default: http://127.0.0.1:8000, `linebyline serve`)")
    login.add_argument("--token-stdin", action="store_true",
                       help="read the token from standard input instead of asking for it")
    login.set_defaults(run=cmd_login)

    logout = commands.add_parser("logout", help="revoke the terminal's token and forget it",
                                 description="Revoke this terminal's token on the server and "
                                 "delete it from your config folder.")
    logout.set_defaults(run=cmd_logout)

    teacher_cli.add_parser(commands, invite_days)

    manage = commands.add_parser(
        "manage", help="Django's admin commands, e.g. `manage createsuperuser`",
        description="Run a Django management command with linebyline's settings, e.g. "
        "`linebyline manage createsuperuser` to be able to sign in to /admin/.",
        add_help=False)
    manage.add_argument("arguments", nargs=argparse.REMAINDER)
    manage.set_defaults(run=cmd_manage)


def main(argv: list[str] | None = None) -> int:
    command = "command"
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        command = args.command or command
        if not getattr(args, "run", None):
            parser.print_help()
            return _flushed(command, 0)
        return _flushed(command, args.run(args))
    except UsageError as error:
        print(f"linebyline {command}: {error}", file=sys.stderr)
        return USAGE_ERROR
    except CourseErrors as errors:
        print(f"The course has {len(errors.errors)} problem(s):", file=sys.stderr)
        for error in errors.errors:
            print(f"  {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`linebyline lessons | head`): stop quietly, as other tools do.
        _stdout_to_nothing()
        return 0
    except OSError as error:
        if not _is_output_error(error):
            raise
        _stdout_to_nothing()
        print(f"linebyline {command}: could not write its output ({error.strerror})",
              file=sys.stderr)
        return 1


def _flushed(command: str, code: int) -> int:
    """Flush what was printed now, so that a full disk (`> /dev/full`) is said in one line,
    not as a traceback when Python exits."""
    sys.stdout.flush()
    return code


def _is_output_error(error: OSError) -> bool:
    import errno

    return error.errno in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EPIPE)


def _stdout_to_nothing() -> None:
    # Python would complain again when it flushes stdout at exit, so point it at nothing.
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
