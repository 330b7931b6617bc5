"""Run a learner's file, then a lesson's checks against it, and say what happened in plain words.

The contract (shared by the CLI's ``--json`` and the browser):
``{"lesson", "status", "checks": [{"name", "status", "message", "fix"}], "stdout", "traceback"}``
where every status is one of STATUSES. The lesson is ``pass`` only when every check passes,
``not-attempted`` when the file is still the untouched starter, ``error`` when the code could not
run at all, else ``fail``. A check's ``message`` diagnoses (the learner's values, what they
should be, why); its ``fix`` is the literal change, which learners are shown only after the same
check failed three times or once they asked for the hint that gives it. ``traceback`` is the
learner's traceback of the first error (their own frames only), for the Output panel.

``evaluate`` does the work and returns plain data; it is always called on a private instance of
this package (see seal.py), so nothing the learner's file changes reaches the checks. Everything
the learner's code could end with is caught and described: exit() and sys.exit() end their file
and the checks then run; any other exception, a stop from outside or a memory error is named.
"""
from __future__ import annotations

import builtins
import errno
import io
import sys
from collections.abc import Callable, Mapping, Sequence
from types import CodeType, MappingProxyType, TracebackType
from typing import Any

from .checks import CheckFailed, _registry, take_current_call
from .library import CourseModules
from .seal import RECURSION_LIMIT as BASE_RECURSION_LIMIT
from .seal import StopRun
from .source import compile_problem, learner_traceback, quoted

STATUSES = ("pass", "fail", "error", "not-attempted")
# The name the learner's file runs under when checked. Starters end with a small demo under
# `if __name__ == "__main__":`, which Run shows and checks skip: checks try the code on their
# own examples, and a demo that crashes on unfinished code must not hide what a check would say.
CHECKED_NAME = "__checked__"
MAX_STDOUT = 100_000  # characters of the learner's prints shown from the start (and TAIL from the end)
TAIL = 4_000
MAX_JUDGED = 8_000_000  # characters of output the checks read (printed()); past that, counted only
NOT_CHECKED = "Not run: only the checks up to the first that did not pass were asked for."
NOT_RUN = "Not run: the run was stopped."
REFERENCE_NAME = "reference.py"  # the lesson's solution, when checks compare with it


def _no_reason() -> str | None:
    return None


class Limits:
    """How the limits the code runs under are named in messages, and why a stop came.

    ``stopped`` says why the code was interrupted from outside: ``"user"`` (the Stop button),
    ``"time"`` (the time limit) or None (nothing from outside: the learner's code raised the
    KeyboardInterrupt or StopRun itself).
    """

    def __init__(self, time: str = "the time limit", memory: str = "the memory limit",
                 stopped: Callable[[], str | None] = _no_reason, processes: str = "",
                 files: str = "") -> None:
        self.time, self.memory, self.stopped = time, memory, stopped
        self.processes, self.files = processes, files  # "" where there is no such limit


# Plain classes rather than dataclasses: dataclasses insist on finding their module in
# sys.modules, and the private instances of this package (seal.py) are never put there.
class CheckResult:
    """One check's outcome. ``message`` diagnoses; ``fix`` is the literal change, shown later."""

    def __init__(self, name: str, status: str, message: str = "", fix: str = "") -> None:
        self.name, self.status, self.message, self.fix = name, status, message, fix

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CheckResult) and (
            self.name, self.status, self.message, self.fix) == (
            other.name, other.status, other.message, other.fix)

    def __repr__(self) -> str:
        return f"CheckResult({self.name!r}, {self.status!r}, {self.message!r}, {self.fix!r})"


class Result:
    def __init__(self, lesson: str, status: str, checks: list[CheckResult] | None = None,
                 stdout: str = "", traceback: str = "") -> None:
        self.lesson, self.status, self.stdout = lesson, status, stdout
        self.checks = list(checks or [])
        self.traceback = traceback  # the learner's traceback of the first error, or ""

    def __repr__(self) -> str:
        return f"Result({self.lesson!r}, {self.status!r}, {self.checks!r}, {self.stdout!r})"

    def to_dict(self) -> dict[str, Any]:
        return {"lesson": self.lesson, "status": self.status,
                "checks": [{"name": c.name, "status": c.status, "message": c.message,
                            "fix": c.fix} for c in self.checks],
                "stdout": self.stdout, "traceback": self.traceback}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        return cls(data["lesson"], data["status"],
                   [CheckResult(c["name"], c["status"], c["message"], c.get("fix", ""))
                    for c in data["checks"]],
                   data["stdout"], data.get("traceback", ""))


class _CappedText(io.TextIOBase):
    """Where the learner's prints go while checked, streamed: every character and line is
    counted; the whole output, up to MAX_JUDGED characters, is kept for the checks that read it
    (printed()), so that a debug print never changes what they count; past that only its last
    TAIL characters are kept. What is shown is its start and its end (text())."""

    encoding = "utf-8"

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []  # from the start, while within MAX_JUDGED characters
        self.kept = 0
        self.whole = True  # parts hold everything printed
        self.recent: list[str] = []  # past MAX_JUDGED: the latest writes, about TAIL characters
        self.recent_length = 0
        self.chars = 0
        self.lines = 0

    def write(self, text: object) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.chars += len(text)
        self.lines += text.count("\n")
        if self.whole and self.kept + len(text) <= MAX_JUDGED:
            self.parts.append(text)
            self.kept += len(text)
            return len(text)
        if self.whole:
            self.whole = False
            self._remember("".join(self.parts)[-TAIL:])
        self._remember(text[-TAIL:])
        return len(text)

    def _remember(self, text: str) -> None:
        self.recent.append(text)
        self.recent_length += len(text)
        if self.recent_length > 4 * TAIL:
            last = "".join(self.recent)[-TAIL:]
            self.recent, self.recent_length = [last], len(last)

    def writable(self) -> bool:
        return True

    def judged(self) -> str:
        """Everything printed, for the checks ("" when it was more than they read)."""
        return "".join(self.parts) if self.whole else ""

    def measured(self) -> str:
        """How much was printed, in words."""
        return (f"{self.chars:,} characters in {self.lines:,} "
                f"line{'' if self.lines == 1 else 's'}")

    def text(self) -> str:
        """What is shown: all of it when short; else its start and its end, and what was left
        out between them, measured."""
        if self.whole and self.chars <= MAX_STDOUT + TAIL:
            return "".join(self.parts)
        start = "".join(self.parts)[:MAX_STDOUT] if self.whole else \
            "".join(self.parts[:MAX_STDOUT])[:MAX_STDOUT]
        end = "".join(self.parts)[-TAIL:] if self.whole else "".join(self.recent)[-TAIL:]
        left_out = self.chars - len(start) - len(end)
        return (start + f"\n[output cut: your code printed {self.measured()}; the "
                f"{left_out:,} characters between its first {len(start):,} and its last "
                f"{len(end):,} are not shown]\n" + end)


class OutputTooLong(CheckFailed):
    """The output a check reads was longer than it can judge."""


class MissingName(CheckFailed):
    """A name the checks asked for is not among the learner's top-level names."""


class _Program:
    """A compiled file the checks can run again (``rerun``), and the lesson's reference."""

    def __init__(self, code: CodeType, filename: str, reference_source: str | None = None,
                 modules: CourseModules | None = None) -> None:
        self.code, self.filename = code, filename
        self.reference_source = reference_source
        self.modules = modules  # the course's modules it may import, fresh for every run
        self.reference: LearnerCode | None = None  # run on first use, then kept


class LearnerCode:
    """The learner's top-level names, as attributes; a missing name fails the check clearly."""

    def __init__(self, namespace: dict[str, Any], printed: str = "",
                 ended_early: str = "", program: _Program | None = None,
                 crashed: str = "", too_long: str = "") -> None:
        self._namespace = namespace
        self._printed = printed
        self._too_long = too_long  # how much was printed, when more than the checks read
        self._ended_early = ended_early
        self._program = program
        self._crashed = crashed

    def __getattr__(self, name: str) -> Any:
        try:
            return self._namespace[name]
        except KeyError:
            if self._ended_early:
                raise MissingName(f"Your code does not define `{name}`: {self._ended_early}, "
                                  "so the lines after it never ran.") from None
            raise MissingName(
                f"Your code does not define `{name}`. The starter has it: "
                "was it renamed or deleted?"
            ) from None


def printed(code: LearnerCode) -> str:
    """Everything the learner's file printed while it ran, before any check.

    When it printed more than MAX_JUDGED characters, the check that asks cannot judge it, and
    says so (it fails, naming how much was printed): its verdict never depends on a part."""
    if code._too_long:
        raise OutputTooLong(
            f"Your code printed {code._too_long}, more than the {MAX_JUDGED:,} characters the "
            "checks read, so this check cannot judge what it printed. Take out the prints you "
            "added (one inside a loop adds up fast), then check again.")
    return code._printed


def crashed(code: LearnerCode) -> str:
    """How the learner's file stopped with an error ("" when it ran to its end).

    When a file raises, its checks still run on the names it had made by then, to find the
    mistake that explains the error; a check can use this to word what it saw ("when your file
    stopped" rather than "after the loop").
    """
    return code._crashed


def _execute(program: _Program, files: Mapping[str, str] | None = None,
             reference_source: str | None = None) -> LearnerCode:
    """Run ``program``'s file again in a fresh namespace, its prints kept apart.

    With ``files``, it runs in a new folder holding them (``{"input.txt": ...}``), removed
    afterwards. The global random state is put back afterwards, so a run here changes nothing
    for the checks after it. Errors of the file propagate, as from any call of the learner's.
    """
    import os
    import random
    import shutil
    import tempfile

    out = _CappedText()
    saved_streams, saved_state = (sys.stdout, sys.stderr), random.getstate()
    here = os.getcwd()
    folder = None
    namespace: dict[str, Any] = {"__name__": CHECKED_NAME, "__file__": program.filename,
                                 "__builtins__": builtins}
    ended_early = ""
    try:
        if files is not None:
            folder = tempfile.mkdtemp(prefix="rerun-", dir=here)
            for name, text in files.items():
                with open(os.path.join(folder, name), "w", encoding="utf-8") as file:
                    file.write(text)
            os.chdir(folder)
        if program.modules is not None:
            program.modules.fresh()
        sys.stdout = sys.stderr = out
        try:
            exec(program.code, namespace)
        except SystemExit as error:
            ended_early = f"your file ended with {_exit_words(error)}"
    finally:
        sys.stdout, sys.stderr = saved_streams
        random.setstate(saved_state)
        sys.setrecursionlimit(BASE_RECURSION_LIMIT)
        os.chdir(here)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    return LearnerCode(namespace, out.judged(), ended_early,
                       _Program(program.code, program.filename, reference_source,
                                program.modules))


def rerun(code: LearnerCode, files: Mapping[str, str]) -> LearnerCode:
    """Run the same file once more, in a folder of its own holding ``files``; its names.

    For lessons whose code is a script rather than functions: give it data the bundled names
    file does not have (``{"input.txt": "a name longer than block_size\n..."}``) and compare
    with ``rerun(reference(code), files)``. Use it inside ``with calling(...)``: an error of the
    file is reported as an error of that call.
    """
    program = code._program
    if program is None:
        raise RuntimeError("rerun() needs the code object a check was given")
    return _execute(program, files)


def learner_line(error: BaseException, code: LearnerCode) -> int | None:
    """The line of the learner's file where ``error`` happened (the innermost), or None.

    For checks that catch an error of the learner's code themselves (from ``rerun``, say) and
    tell it in their own words.
    """
    program = code._program
    return _learner_line(error.__traceback__, program.filename) if program else None


def reference(code: LearnerCode) -> LearnerCode:
    """The lesson's reference solution, run once in a namespace of its own: its top-level names.

    Run on first use (most checks never need it), with its prints kept apart and the random
    state put back afterwards, so the learner's code sees the same draws as without it.
    """
    program = code._program
    if program is None or program.reference_source is None:
        raise RuntimeError("this check run was given no reference solution")
    if program.reference is None:
        compiled = compile(program.reference_source, REFERENCE_NAME, "exec", dont_inherit=True)
        try:
            program.reference = _execute(_Program(compiled, REFERENCE_NAME,
                                                  modules=program.modules))
        except Exception as error:  # the reference is ours: lint proves it runs
            raise RuntimeError(f"the lesson's reference solution raised "
                               f"{type(error).__name__}: {quoted(error)}") from None
    return program.reference


_ABSENT = object()


class _Replacing:
    # A plain class, as _Calling: nothing the learner's code can reach decides what happens
    # when the block ends (contextlib's classes are shared with the learner's code).
    def __init__(self, space: dict[str, Any], name: str, value: Any) -> None:
        self.space, self.name, self.value = space, name, value
        self.before: Any = _ABSENT

    def __enter__(self) -> None:
        self.before = self.space.get(self.name, _ABSENT)
        self.space[self.name] = self.value

    def __exit__(self, *error: object) -> bool:
        if self.before is _ABSENT:
            self.space.pop(self.name, None)
        else:
            self.space[self.name] = self.before
        return False


def replacing(target: Any, name: str, value: Any) -> _Replacing:
    """``with replacing(target, name, value):`` puts ``value`` in place of ``name`` for the block.

    ``target`` is ``code`` (one of the learner's top-level names: a stand-in for a function
    their other functions call) or a module of theirs, such as ``code.random`` (the very module
    their code draws from; the checks' own imports are private copies, so patching those would
    not reach the learner's code). What was there is put back when the block ends.
    """
    space = target._namespace if isinstance(target, LearnerCode) else vars(target)
    return _Replacing(space, name, value)


def collect_checks(checks_source: str, filename: str = "checks.py",
                   code: CodeType | None = None) -> list[tuple[str, Any]]:
    """Execute a lesson's checks.py and return its checks as (name, function), in order.

    ``code``, when given, is ``checks_source`` already compiled (seal.py keeps it between runs).
    """
    _registry.clear()
    if code is None:
        code = compile(checks_source, filename, "exec", dont_inherit=True)
    try:
        # No __builtins__ given: exec passes on this module's own (in a private instance, the
        # private copy, whose imports give the checks private copies too).
        exec(code, {"__name__": "lesson_checks"})
        return list(_registry)
    finally:
        _registry.clear()


def _normalise(source: str) -> str:
    lines = [line.rstrip() for line in source.replace("\r\n", "\n").split("\n")]
    return "\n".join(lines).strip("\n")


def is_untouched(source: str, starter: str | Sequence[str]) -> bool:
    """Whether ``source`` is still a starter: ``starter``, or any of several (a lesson's guided
    and on-my-own starters, which differ in their TODO comments only), line ends and trailing
    spaces aside."""
    starters = (starter,) if isinstance(starter, str) else starter
    mine = _normalise(source)
    return any(mine == _normalise(each) for each in starters if isinstance(each, str))


def _learner_line(tb: TracebackType | None, filename: str) -> int | None:
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _exit_words(error: BaseException) -> str:
    code = getattr(error, "code", None)
    if code is None or code == 0:
        return "exit() or sys.exit()"
    if isinstance(code, int):
        return f"sys.exit({code})"
    return "sys.exit() with a message"


def _too_long(out: _CappedText) -> str:
    return "" if out.whole else out.measured()


def _printing(out: _CappedText | None) -> str:
    """For a stop on the time limit: how much was printed, when that much takes time itself."""
    if out is None or out.chars <= MAX_STDOUT:
        return ""
    return (f" By then it had printed {out.measured()}: printing that much takes time too, so "
            "look for a print inside a loop.")


def _describe(error: BaseException, filename: str, call: str | None, limits: Limits,
              out: _CappedText | None = None) -> str:
    """One or two sentences: what was called, what went wrong, and on which line of theirs."""
    where = f"Calling `{call}`" if call else "Running your code"
    reason = limits.stopped()
    if isinstance(error, (StopRun, KeyboardInterrupt)) and reason == "user":
        return f"{where} was stopped by you before it finished."
    if isinstance(error, (StopRun, KeyboardInterrupt)) and reason == "time":
        return (f"{where} was stopped: it ran past {limits.time}. "
                "Look for a loop that never ends or a function that keeps calling itself."
                + _printing(out))
    if isinstance(error, MemoryError):
        return (f"{where} was stopped: it used more than {limits.memory}. "
                "Look for a list or string that keeps growing.")
    line = _learner_line(error.__traceback__, filename)
    at = f" (line {line} of your code)" if line is not None else ""
    if isinstance(error, SystemExit):
        return (f"{where} ended the whole program with {_exit_words(error)}{at}. A function the "
                "checks call has to return instead; exit() belongs only at the end of a script.")
    kind = type(error).__name__
    text = quoted(error)
    detail = f"{kind}: {text}" if text else kind
    limit = sys.getrecursionlimit()
    if isinstance(error, SystemError) and limit > BASE_RECURSION_LIMIT:
        return (f"{where} broke Python itself ({detail}){at}, after your code raised the "
                f"recursion limit to {limit:,} with sys.setrecursionlimit: a function kept calling "
                "itself until Python ran out of room for the calls. Leave the recursion limit as "
                "it is, and look for a function that keeps calling itself.")
    if isinstance(error, RecursionError):
        detail += " (a function kept calling itself and never finished)"
    elif isinstance(error, KeyboardInterrupt):
        detail += " (your code raised it itself: neither Stop nor the time limit did)"
    elif isinstance(error, OSError) and error.errno == errno.EFBIG and limits.files:
        detail += f" (your code wrote a file bigger than {limits.files})"
    elif isinstance(error, BlockingIOError) and error.errno == errno.EAGAIN and limits.processes:
        detail += f" (if your code was starting processes: it reached {limits.processes})"
    elif isinstance(error, EOFError):
        detail += (" (the checks give your code nothing to read: call input() only under "
                   "`if __name__ == \"__main__\":`)")
    return f"{where} raised {detail}{at}."


def _all(names: list[str], status: str, first: str, rest: str) -> list[dict[str, str]]:
    return [{"name": name, "status": status, "message": first if i == 0 else rest, "fix": ""}
            for i, name in enumerate(names)]


def _report(lesson: str, status: str, checks: list[dict[str, str]], out: _CappedText,
            traceback: str = "") -> dict[str, Any]:
    return {"lesson": lesson, "status": status, "checks": checks, "stdout": out.text(),
            "traceback": traceback}


def _ignore(event: str, data: Mapping[str, str]) -> None:
    pass


def _traceback_text(error: BaseException, filename: str) -> str:
    """The learner's traceback, cut down to their own frames ("" if none is theirs)."""
    try:
        text, line = learner_traceback(error, filename)
    except Exception:  # noqa: BLE001 - a traceback that cannot be told is left out
        return ""
    return text if line is not None else ""


NOT_RUN_CRASH = "Not run: your code has to run before it can be checked."


def _diagnose_crash(checks: list[tuple[str, Any]], view: LearnerCode, error: BaseException
                    ) -> tuple[int, CheckFailed] | None:
    """The first check that explains a crash: one declared to explain such an error
    (``@check(name, explains=...)``) that fails on the names the file made before it.

    Checks that pass, raise, or miss a name (the file never got that far) explain nothing.
    A stop (the time limit, Stop) ends the search: the crash is then told on its own.
    """
    for index, (_, function) in enumerate(checks):
        if not isinstance(error, getattr(function, "explains", ())):
            continue
        take_current_call()
        try:
            function(view)
        except MissingName:
            continue
        except CheckFailed as failure:
            take_current_call()
            return index, failure
        except Exception:  # noqa: BLE001, S112 - this check cannot tell; the next may
            continue
        except BaseException:  # noqa: BLE001 - a stop: tell the crash as it is
            return None
    take_current_call()
    return None


def _crash_entries(checks: list[tuple[str, Any]], view: LearnerCode, crash: str,
                   error: BaseException) -> list[dict[str, str]]:
    """Every check's entry when the file raised: the crash, explained by a check if one can."""
    names = [name for name, _ in checks]
    found = _diagnose_crash(checks, view, error)
    if found is None:
        return _all(names, "error", crash, NOT_RUN_CRASH)
    index, failure = found
    entries = _all(names, "error", NOT_RUN_CRASH, NOT_RUN_CRASH)
    entries[index] = {"name": names[index], "status": "error",
                      "message": f"{crash} {_quoted_failure(failure)}",
                      "fix": _fix_of(failure)}
    return entries


def evaluate(source: str, checks_source: str, *, lesson: str = "",
             starter: str | Sequence[str] | None = None,
             filename: str = "your_code.py", checks_filename: str = "checks.py",
             time_limit: str = "the time limit", memory_limit: str = "the memory limit",
             stop_reason: Callable[[], str | None] = _no_reason, process_limit: str = "",
             file_limit: str = "",
             progress: Callable[[str, Mapping[str, str]], None] = _ignore,
             checks_code: CodeType | None = None, reference: str | None = None,
             library: Mapping[str, str] | None = None,
             until_first_failure: bool = False) -> dict[str, Any]:
    """Execute ``source`` in a fresh namespace, then every check of ``checks_source`` on it
    (with ``until_first_failure``, up to the first that does not pass: what lint needs to know of
    a known mistake; the later checks are reported not run).

    Returns the result contract as plain data. ``progress`` hears ``("code", {})`` before the
    learner's file runs, ``("check", {"name"})`` before each check and ``("checked", {"name",
    "status", "message", "fix"})`` after it, so a caller in another process knows how far it
    got. ``checks_code`` is ``checks_source`` compiled, when the caller has it already.
    ``starter`` is the lesson's starter, or a list of its starters (guided and on my own): a
    file equal to one of them is ``not-attempted``; None checks even an untouched starter.
    ``reference`` is the lesson's solution, which checks may run and compare with
    (:func:`reference`, :mod:`.agree`). ``library`` holds the course's modules the code may
    import (:mod:`.library`), by path: ``{"given/train3.py": source, ...}``.
    """
    modules = CourseModules(library)
    with modules:
        return _evaluate(source, checks_source, lesson, starter, filename, checks_filename,
                         Limits(time_limit, memory_limit, stop_reason, process_limit, file_limit),
                         progress, checks_code, reference, modules, until_first_failure)


def _evaluate(source: str, checks_source: str, lesson: str, starter: str | Sequence[str] | None,
              filename: str, checks_filename: str, limits: Limits,
              progress: Callable[[str, Mapping[str, str]], None], checks_code: CodeType | None,
              reference: str | None, modules: CourseModules,
              until_first_failure: bool = False) -> dict[str, Any]:
    out = _CappedText()
    names: list[str] = []
    results: list[dict[str, str]] = []
    tracebacks: list[str] = []  # of the checks that raised, in order: the first is shown
    saved = sys.stdout, sys.stderr
    saved_stdin = sys.stdin
    # Nothing to read, wherever this runs: input() meets an end of file at once (and exit(),
    # which closes sys.stdin, closes only this one).
    sys.stdin = io.StringIO()
    try:
        sys.setrecursionlimit(BASE_RECURSION_LIMIT)  # whatever an earlier run left behind
        checks = collect_checks(checks_source, checks_filename, checks_code)
        names = [name for name, _ in checks]
        if not checks:
            return _report(lesson, "error", [], out)  # a lesson without checks passes nothing
        if starter is not None and is_untouched(source, starter):
            return _report(lesson, "not-attempted", _all(
                names, "not-attempted",
                "Not attempted yet: this is still the starter. Fill in the TODOs, then check again.",
                "Not attempted yet."), out)

        not_run = "Not run: your code has to run before it can be checked."
        code, problem = compile_problem(source, filename)
        if problem:
            return _report(lesson, "error", _all(names, "error", problem, not_run), out)

        # Tracebacks quote the learner's lines, although the file exists only in the editor.
        import linecache
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        # The learner's file gets the real builtins, as with `python`, never this module's own.
        namespace: dict[str, Any] = {"__name__": CHECKED_NAME, "__file__": filename,
                                     "__builtins__": builtins}
        program = _Program(code, filename, reference, modules)
        ended_early = ""
        progress("code", {})
        modules.fresh()
        sys.stdout = sys.stderr = out
        try:
            exec(code, namespace)
        except SystemExit as error:
            ended_early = _ended_by_exit(error, filename, out)
        except BaseException as error:  # noqa: BLE001 - every way their file ends is described
            message = _describe(error, filename, None, limits, out)
            trace = _traceback_text(error, filename)
            if isinstance(error, Exception) and not isinstance(error, MemoryError):
                # Their file raised: the checks look at what it made before, for the reason.
                view = LearnerCode(namespace, out.judged(), "", program, message,
                                   _too_long(out))
                entries = _crash_entries(checks, view, message, error)
                sys.stdout, sys.stderr = saved
                return _report(lesson, "error", entries, out, trace)
            return _report(lesson, "error", _all(names, "error", message, not_run), out, trace)
        finally:
            sys.stdout, sys.stderr = saved

        code_view = LearnerCode(namespace, out.judged(), ended_early, program,
                                too_long=_too_long(out))
        _each_check(checks, code_view, out, saved, results, tracebacks, filename, limits,
                    progress, until_first_failure)
    except (StopRun, KeyboardInterrupt, MemoryError) as error:
        # A stop that came between two pieces of the learner's code, while ours was running.
        sys.stdout, sys.stderr = saved
        message = _describe(error, filename, None, limits, out)
        done = {entry["name"] for entry in results}
        rest = [name for name in names if name not in done]
        results.extend(_all(rest, "error", message, NOT_RUN))
    finally:
        sys.stdin = saved_stdin
        sys.setrecursionlimit(BASE_RECURSION_LIMIT)
    return _report(lesson, _overall(results), results, out, tracebacks[0] if tracebacks else "")


def _overall(results: list[dict[str, str]]) -> str:
    statuses = {entry["status"] for entry in results}
    return "pass" if statuses == {"pass"} else "error" if statuses <= {"error"} else "fail"


def _ended_by_exit(error: SystemExit, filename: str, out: _CappedText) -> str:
    """exit() ends the learner's program, as it would in a terminal; then the checks run."""
    line = _learner_line(error.__traceback__, filename)
    if isinstance(error.code, str):
        out.write(error.code + "\n")
    return (f"your file ended on line {line} with {_exit_words(error)}"
            if line is not None else f"your file ended with {_exit_words(error)}")


def _each_check(checks: list, code_view: LearnerCode, out: _CappedText, saved: tuple,
                results: list[dict[str, str]], tracebacks: list[str], filename: str,
                limits: Limits, progress: Callable[[str, Mapping[str, str]], None],
                until_first_failure: bool) -> None:
    """Run the checks in order on the learner's finished file, adding each one's entry to
    ``results``, and the traceback of each that raised to ``tracebacks``, as it ends (so that a
    stop in the middle keeps what was done)."""
    for index, (name, function) in enumerate(checks):
        progress("check", {"name": name})
        take_current_call()
        sys.stdout = sys.stderr = out
        try:
            returned = function(code_view)
        except CheckFailed as failure:
            take_current_call()
            entry = {"name": name, "status": "fail", "message": _quoted_failure(failure),
                     "fix": _fix_of(failure)}
        except BaseException as error:  # noqa: BLE001
            entry = {"name": name, "status": "error",
                     "message": _describe(error, filename, take_current_call(), limits, out),
                     "fix": ""}
            tracebacks.append(_traceback_text(error, filename))
            if _ends_the_run(error, limits):
                # The run is over: what is left cannot be trusted to finish either.
                results.append(entry)
                progress("checked", entry)
                results.extend({"name": later, "status": "error", "message": NOT_RUN,
                                "fix": ""} for later, _ in checks[index + 1:])
                break
        else:
            entry = {"name": name, "status": "pass", "fix": "",
                     "message": str.__str__(returned) if isinstance(returned, str) else ""}
        finally:
            sys.stdout, sys.stderr = saved
        results.append(entry)
        progress("checked", entry)
        if until_first_failure and entry["status"] != "pass":
            results.extend({"name": later, "status": "error", "message": NOT_CHECKED,
                            "fix": ""} for later, _ in checks[index + 1:])
            break


def _fix_of(failure: CheckFailed) -> str:
    fix = getattr(failure, "fix", "")
    return str.__str__(fix) if isinstance(fix, str) else ""


def _quoted_failure(failure: CheckFailed) -> str:
    message = failure.args[0] if failure.args else ""
    return str.__str__(message) if isinstance(message, str) else quoted(failure)


def _ends_the_run(error: BaseException, limits: Limits) -> bool:
    if isinstance(error, MemoryError):
        return True
    return isinstance(error, (StopRun, KeyboardInterrupt)) and limits.stopped() is not None


def run_checks(
    source: str,
    checks_source: str,
    *,
    lesson: str = "",
    starter: str | Sequence[str] | None = None,
    filename: str = "your_code.py",
    checks_filename: str = "checks.py",
    limits: Limits | None = None,
    reference: str | None = None,
    library: Mapping[str, str] | None = None,
    until_first_failure: bool = False,
) -> Result:
    """Run ``checks_source``'s checks on ``source`` (on a private instance, see seal.py); with
    ``until_first_failure``, only up to the first that does not pass."""
    from . import seal

    limits = limits or Limits()
    return Result.from_dict(seal.evaluate(
        source, checks_source, lesson=lesson, starter=starter, filename=filename,
        checks_filename=checks_filename, time_limit=limits.time, memory_limit=limits.memory,
        stop_reason=limits.stopped, reference=reference, library=library,
        until_first_failure=until_first_failure))


# --- JSON out, written here so that nothing the learner's code can patch (the json module,
# its encoder class) writes the verdict. Non-ASCII is escaped, as json.dumps does by default.

_ESCAPES = MappingProxyType({**{code: f"\\u{code:04x}" for code in range(32)},
                             ord('"'): '\\"', ord("\\"): "\\\\", ord("\n"): "\\n",
                             ord("\r"): "\\r", ord("\t"): "\\t"})


def _json_string(text: str) -> str:
    escaped = text.translate(_ESCAPES)
    if escaped.isascii():
        return '"' + escaped + '"'
    parts = []
    for char in escaped:
        code = ord(char)
        if code < 128:
            parts.append(char)
        elif code < 0x10000:
            parts.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            parts.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
    return '"' + "".join(parts) + '"'


def to_json(value: Any) -> str:
    """JSON text of strings, whole numbers, booleans, None, lists and string-keyed dicts."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    kind = type(value)
    if kind is str:
        return _json_string(value)
    if kind is int:
        return int.__repr__(value)
    if kind is list or kind is tuple:
        return "[" + ", ".join(to_json(item) for item in value) + "]"
    if kind is dict:
        return "{" + ", ".join(_json_string(key) + ": " + to_json(item)
                               for key, item in value.items() if type(key) is str) + "}"
    raise TypeError(f"cannot write a {kind.__name__} as JSON here")
