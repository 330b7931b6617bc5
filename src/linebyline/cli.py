"""The `linebyline` command: the course from a terminal, for people who prefer their own editor."""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__, account_link
from .course import Course, CourseErrors, Lesson, courses_root, default_course_path
from .dataset import BUNDLED_NAMES, DatasetError
from .sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT

if TYPE_CHECKING:  # each command imports what it needs, when it runs: `check` must start fast
    from tqdm import tqdm

    from .assemble import Assembler, Assembly
    from .runtime import Result

USAGE_ERROR = 2
SYMBOLS = {"pass": "✓", "fail": "✗", "error": "!", "not-attempted": "·"}
MAX_SOURCE_BYTES = 1_000_000  # a lesson's file is a few kilobytes
MAX_TIMEOUT = 3600.0  # seconds
MEMORY_RANGE = (64, 1_048_576)  # MB: Python needs about 64 to start; 1 TB is past any machine
MAX_STEPS = 1_000_000


class UsageError(Exception):
    """Something the user asked for cannot be done as asked (exit code 2)."""


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
        from .course import load_course

        return load_course(path)
    from .course import load_course_cached

    return load_course_cached(path)


def _lesson(course: Course, number: str) -> Lesson:
    lesson = course.lesson(number)
    if lesson is None:
        published = ", ".join(lesson.number for lesson in course.lessons()) or "none yet"
        raise UsageError(f"no published lesson {number!r} (published: {published}); "
                         "`linebyline lessons` lists them")
    return lesson


def cmd_lessons(args: argparse.Namespace) -> int:
    course = _course(args.course)
    total = len(course.countable_lines())
    print(f"{course.title}: {course.program_name}, {total} lines to learn\n")
    for module in course.modules:
        print(f"Module {module.number}  {module.title}  ({module.script})")
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
                lines = len(lesson.unlocked_lines() & course.countable_lines())
                print(f"  {number:>5}  {lesson.title:<44} {lesson.minutes:>3} min  "
                      f"+{lines} lines")
            else:
                print(f"  {number:>5}  {title:<44} (coming soon)")
        print()
    return 0


def cmd_start(args: argparse.Namespace) -> int:
    lesson = _lesson(_course(args.course), args.lesson)
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: exists and is not a folder")
    target = folder / lesson.exercise.filename
    if target.exists() and not args.force:
        raise UsageError(f"{target} already exists; it may hold your work, so it was left as it "
                         "is (use --force to replace it with the starter)")
    text, origin = lesson.exercise.starter, "the starter"
    draft = None if args.starter else _account_draft(args.course, lesson)
    if draft is not None and draft["draft"] != lesson.exercise.starter and _take_draft(args, draft):
        text, origin = draft["draft"], "your latest draft from your account"
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    print(f"Wrote {target} ({origin}): lesson {lesson.number}, {lesson.title}.")
    print("Open it in your editor, fill in the TODOs, then run:")
    print(f"  linebyline check {lesson.number} {target}")
    return 0


def _account_draft(course_arg: str | None, lesson: Lesson) -> dict | None:
    login = account_link.current()
    if login is None:
        return None
    try:
        return account_link.latest_draft(login, _course(course_arg).slug, lesson.number)
    except (account_link.AccountError, ValueError) as error:
        print(f"(Your account's draft could not be read: {error}. Using the starter.)",
              file=sys.stderr)
        return None


def _take_draft(args: argparse.Namespace, draft: dict) -> bool:
    if args.draft:
        return True
    when = time.strftime("%d %b %Y %H:%M", time.localtime(draft["at"] / 1000)) if draft["at"] \
        else "some time ago"
    where = "this terminal" if draft["device"].startswith("cli-") else "the browser"
    lines = len(draft["draft"].rstrip("\n").splitlines())
    print(f"Your account has a draft of this lesson from {where} ({when}, {lines} lines).")
    try:
        answer = input("Write your draft instead of the starter? [Y/n] ")
    except EOFError:
        print("\n(No answer: writing the starter. `--draft` takes the draft without asking.)")
        return False
    return answer.strip().lower() in ("", "y", "yes")


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
    print(f"Signed in to {login.url} as {login.username}. `linebyline check` now records your "
          "results to your account, and `linebyline start` offers your latest draft.")
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


def cmd_check(args: argparse.Namespace) -> int:
    from .sandbox import SandboxUnavailable, check_source, explain

    if args.explain_sandbox:
        try:
            print(explain())
        except SandboxUnavailable as error:
            raise UsageError(str(error)) from None
        return 0
    if args.lesson is None or args.file is None:
        raise UsageError("needs a lesson number and your file, e.g. `linebyline check 7.5 "
                         "backward.py` (or --explain-sandbox)")
    lesson = _lesson(_course(args.course), args.lesson)
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"{path}: no such file" + (" (it is a folder)" if path.is_dir() else ""))
    if path.stat().st_size > MAX_SOURCE_BYTES:
        raise UsageError(f"{path}: is {path.stat().st_size:,} bytes, more than the "
                         f"{MAX_SOURCE_BYTES:,} a lesson's file can be; is it the right file?")
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: is not UTF-8 text; save it as UTF-8 and try again") from None
    try:
        result = check_source(lesson, source, timeout=args.timeout, memory_mb=args.memory)
    except SandboxUnavailable as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        _print_result(lesson, result, _failures_in_a_row(args, lesson, result))
    login = account_link.current()
    if login is not None and result.status != "not-attempted":
        passed = sum(check.status == "pass" for check in result.checks)
        try:
            note = account_link.record_check(login, _course(args.course).slug, lesson.number,
                                             result.status, passed, len(result.checks), source)
        except account_link.AccountError as error:
            note = f"Not recorded to your account yet ({error}); it goes with your next check."
        print(note, file=sys.stderr if args.json else sys.stdout)
    return 0 if result.status == "pass" else 1


def _failures_in_a_row(args: argparse.Namespace, lesson: Lesson, result: Result
                       ) -> dict[str, int]:
    """Each check's failures in a row in this terminal, this run included (attempts.py)."""
    from . import attempts

    if result.status == "not-attempted":
        return {}
    outcomes = {check.name: (None if check.message.startswith("Not run") else
                             check.status != "pass") for check in result.checks}
    return attempts.record(_course(args.course).slug, lesson.number, outcomes)


def _print_result(lesson: Lesson, result: Result, failures: dict[str, int] | None = None
                  ) -> None:
    from . import attempts

    print(f"Lesson {lesson.number}, {lesson.title}: {result.status}")
    failures = failures or {}
    for check in result.checks:
        print(f"  {SYMBOLS[check.status]} {check.name}" +
              ("" if check.status in ("pass", "fail") else f" ({check.status})"))
        if check.message and check.status != "pass":
            for line in check.message.splitlines():
                print(f"      {line}")
        if check.fix and check.status != "pass":
            # The literal line waits: the diagnosis first, the line after three tries.
            if failures.get(check.name, 0) >= attempts.FIX_AFTER:
                print(f"      What to write: {check.fix}")
    if result.stdout.strip():
        print("\nYour code printed:")
        print(result.stdout.rstrip())
    if result.traceback:
        print("\nThe error, where it happened in your code:")
        print(result.traceback.rstrip())
    passed = sum(check.status == "pass" for check in result.checks)
    print(f"\n{passed} / {len(result.checks)} checks pass.")
    if result.status == "not-attempted":
        print("Fill in the TODOs, then check again. Stuck? The lesson's hints are on its page.")


def cmd_lint(args: argparse.Namespace) -> int:
    from .lint import format_ranges, lint_course

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
        self.bar: tqdm | None = None

    def __call__(self, line: str) -> None:
        from tqdm import tqdm

        from .scripts import parse_step

        step = parse_step(line)
        if step is None:
            (self.bar.write if self.bar else print)(line)
            return
        if self.bar is None:
            self.bar = tqdm(total=step.total, unit="step", desc=self.name, file=sys.stderr)
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
    from .scripts import ScriptError, find_script, run_source

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
    from .dataset import check_dataset
    from .mine import ReferenceRun, describe, run_recorded, verdict
    from .scripts import ScriptError
    from .training import SetupError, configure

    if not args.progress:
        raise UsageError("--mine needs --progress FILE: the progress file the course home exports")
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
    from tqdm import tqdm

    bar = None
    for done in reference.wait():
        if bar is None:
            bar = tqdm(total=len(mine.losses), unit="step", desc="the reference", file=sys.stderr)
        bar.update(done - bar.n)
    if bar is not None:
        bar.close()
    if reference.record is None:
        print(f"The reference run failed ({reference.error}), so there is nothing to compare.",
              file=sys.stderr)
        return 1
    print(verdict(mine, reference.record).text)
    return 0
_ASSEMBLERS: dict[Path, Assembler] = {}


def _assembler(course: Course) -> Assembler:
    from .assemble import Assembler

    if course.path not in _ASSEMBLERS:
        _ASSEMBLERS[course.path] = Assembler(course)
    return _ASSEMBLERS[course.path]


def _assembly(args: argparse.Namespace, course: Course) -> Assembly:
    """The script named by --script / SCRIPT, assembled from the --progress file."""
    from .mine import MineError, load_progress

    assembler = _assembler(course)
    try:
        name = assembler.resolve(args.script)
    except KeyError:
        known = ", ".join(Path(n).stem for n in assembler.script_names)
        raise UsageError(f"no script named {args.script!r} (known: {known})") from None
    try:
        progress, left_out = load_progress(Path(args.progress), course)
    except MineError as error:
        raise UsageError(str(error)) from None
    for problem in left_out:
        print(f"linebyline: left out of {args.progress}: {problem}", file=sys.stderr)
    return assembler.assemble(name, progress)


def cmd_assemble(args: argparse.Namespace) -> int:
    from .mine import describe

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="linebyline",
        description="Build microgpt line by line: the course in your browser (`linebyline serve`), "
        "or its lessons, starters and checks from a terminal.",
        epilog="Start with `linebyline serve`, or `linebyline lessons` then `linebyline start 7.4`.",
    )
    parser.add_argument("--version", action="version", version=f"linebyline {__version__}")
    parser.add_argument("--course", metavar="PATH",
                        help="course folder or name (default: the bundled microgpt course)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    lessons = commands.add_parser("lessons", help="list modules and lessons",
                                  description="List the course's modules and lessons, with "
                                  "minutes and each module's training script.")
    lessons.set_defaults(run=cmd_lessons)

    start = commands.add_parser("start", help="write a lesson's starter file to work on",
                                description="Write the lesson's starter file into DIR, to edit "
                                "in your own editor. An existing file is never overwritten "
                                "unless you say --force. Signed in (`linebyline login`), it "
                                "offers your latest draft of the lesson from the browser instead.")
    start.add_argument("lesson", help="lesson number, e.g. 7.5")
    start.add_argument("dir", nargs="?", default=".", help="folder to write into (default: .)")
    start.add_argument("--force", action="store_true", help="replace an existing file")
    which = start.add_mutually_exclusive_group()
    which.add_argument("--draft", action="store_true",
                       help="signed in (`linebyline login`): write your latest draft from your "
                       "account without asking")
    which.add_argument("--starter", action="store_true",
                       help="write the starter even if your account has a draft")
    start.set_defaults(run=cmd_start)

    check = commands.add_parser(
        "check", help="run a lesson's checks on your file",
        description="Run the lesson's checks on FILE in a separate process, under a time and a "
        "memory limit, a 64 MB limit on files it writes and a limit of 32 more processes; the "
        "process and everything it started end with the check. On Linux it also runs in "
        "namespaces of its own (with bubblewrap when installed): no network, the file system "
        "read-only but a private /tmp; --explain-sandbox says what protects your checks here. "
        "Of its output, the first 100,000 printed characters and 64 KB written straight to the "
        "terminal are shown, the rest counted. Exit code: 0 when every check passes, 1 when any "
        "does not, 2 for a usage error (unknown lesson, missing file, a bad option). Signed in "
        "(`linebyline login`), the result and your file are also recorded to your account (kept "
        "here until the server can be reached).")
    check.add_argument("lesson", nargs="?", help="lesson number, e.g. 7.5")
    check.add_argument("file", nargs="?", help="your Python file")
    check.add_argument("--explain-sandbox", action="store_true",
                       help="say which protections your checks have on this machine (each way "
                       "is tried), then stop; LINEBYLINE_SANDBOX=auto|bwrap|namespaces|limits "
                       "picks the way")
    check.add_argument("--json", action="store_true",
                       help='print one JSON object: {"lesson", "status", "checks": [{"name", '
                       '"status", "message", "fix"}], "stdout", "traceback"}')
    check.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                       help=f"time limit for your code (default {DEFAULT_TIMEOUT:g}, at most "
                       f"{MAX_TIMEOUT:g})")
    check.add_argument("--memory", type=megabytes, default=DEFAULT_MEMORY_MB, metavar="MB",
                       help=f"memory limit for your code (default {DEFAULT_MEMORY_MB}, at least "
                       f"{MEMORY_RANGE[0]})")
    check.set_defaults(run=cmd_check)

    lint = commands.add_parser(
        "lint", help="prove every lesson of a course (for authors)",
        description="Load and validate the course; prove every exercise both ways (the solution "
        "passes, the untouched starter does not), that every known mistake produces exactly its "
        "message, compute every prediction, and report the program lines no lesson teaches yet.")
    lint.add_argument("course_arg", nargs="?", metavar="COURSE",
                      help="course folder or name (default: microgpt)")
    lint.add_argument("--require-full-coverage", action="store_true",
                      help="fail when any non-blank line of the program is taught by no lesson")
    lint.add_argument("--lesson", action="append", metavar="N",
                      help="prove only this lesson (repeat for more); the course still loads whole")
    lint.add_argument("--strict", action="store_true",
                      help="fail when a lesson falls short of the lesson standard (shuffle-proof "
                      "choices, expected wrong numbers, no fix handed over in a message, ...)")
    lint.set_defaults(run=cmd_lint)

    assemble = commands.add_parser(
        "assemble", help="build your own version of a script from your passing lesson code",
        description="Build SCRIPT with every part a lesson taught replaced by your code for that "
        "lesson, for every lesson you have done (its checks passed), from the progress file the "
        "course home exports (format version 1 or 2). Parts of lessons not done yet keep the "
        "reference; the listing says which, and why. The file runs with plain `python` next to "
        "an input.txt.")
    assemble.add_argument("script", help="train0 ... train5, or microgpt")
    assemble.add_argument("--progress", required=True, metavar="FILE",
                          help="your exported progress (a .json file from the course home)")
    assemble.add_argument("--out", metavar="PATH",
                          help="where to write it (default: my_SCRIPT.py here; - prints it)")
    assemble.add_argument("--force", action="store_true", help="replace an existing file")
    assemble.set_defaults(run=cmd_assemble)

    train = commands.add_parser(
        "train", help="run the reference program, or your own, with a progress bar",
        description="Run the course's reference program (or one module's script), showing a "
        "progress bar and the loss of every step, then the names it samples. With --mine and "
        "--progress, run your own version of the script (what `linebyline assemble` builds), "
        "with the reference run beside it (cached after its first run), and say how the two "
        "compare: the same to the last digit, apart only by rounding, or where they part.")
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
                       help="train your own version of the script (needs --progress)")
    train.add_argument("--progress", metavar="FILE",
                       help="with --mine: your exported progress (a .json file from the course "
                       "home)")
    train.set_defaults(run=cmd_train)

    serve = commands.add_parser(
        "serve", help="start the web app: the course in your browser",
        description="Start the web app (the course in the browser, with Python running in the "
        "browser itself). The first run creates the database and prepares static files. "
        "Settings come from LINEBYLINE_* environment variables (see the README). On an address "
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
        "$XDG_CONFIG_HOME/linebyline or ~/.config/linebyline), readable by you only. Then "
        "`check` records your results to your account and `start` offers your latest draft. "
        "Without it, everything works as before, on this machine only.")
    login.add_argument("url", nargs="?", default="http://127.0.0.1:8000",
                       help="the server (default: http://127.0.0.1:8000, `linebyline serve`)")
    login.add_argument("--token-stdin", action="store_true",
                       help="read the token from standard input instead of asking for it")
    login.set_defaults(run=cmd_login)

    logout = commands.add_parser("logout", help="revoke the terminal's token and forget it",
                                 description="Revoke this terminal's token on the server and "
                                 "delete it from your config folder.")
    logout.set_defaults(run=cmd_logout)

    manage = commands.add_parser(
        "manage", help="Django's admin commands, e.g. `manage createsuperuser`",
        description="Run a Django management command with linebyline's settings, e.g. "
        "`linebyline manage createsuperuser` to be able to sign in to /admin/.",
        add_help=False)
    manage.add_argument("arguments", nargs=argparse.REMAINDER)
    manage.set_defaults(run=cmd_manage)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        return args.run(args)
    except UsageError as error:
        print(f"linebyline {args.command}: {error}", file=sys.stderr)
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
        # Python would complain again when it flushes stdout at exit, so point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
