"""Run a learner's file, then a lesson's checks against it, and say what happened in plain words.

The contract (shared by the CLI's ``--json`` and the browser):
``{"lesson", "status", "checks": [{"name", "status", "message"}], "stdout"}`` where every status
is one of STATUSES. The lesson is ``pass`` only when every check passes, ``not-attempted`` when
the file is still the untouched starter, ``error`` when the code could not run at all, else ``fail``.
"""
from __future__ import annotations

import io
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import asdict, dataclass, field
from types import TracebackType
from typing import Any

from . import checks as _checks

STATUSES = ("pass", "fail", "error", "not-attempted")
# The name the learner's file runs under when checked. Starters end with a small demo under
# `if __name__ == "__main__":`, which Run shows and checks skip: checks try the code on their
# own examples, and a demo that crashes on unfinished code must not hide what a check would say.
CHECKED_NAME = "__checked__"
MAX_STDOUT = 100_000  # characters kept from the learner's prints; the rest is cut


class StopRun(BaseException):
    """Raised from outside (a timer, the Stop button) to end the learner's code.

    A BaseException, so that a learner's ``except Exception`` cannot swallow it.
    """


def _never() -> bool:
    return False


@dataclass(frozen=True)
class Limits:
    """How the limits the code runs under are named in messages.

    ``user_stopped`` tells an interrupt from the learner's Stop button apart from the time limit.
    """

    time: str = "the time limit"
    memory: str = "the memory limit"
    user_stopped: Callable[[], bool] = _never


@dataclass
class CheckResult:
    name: str
    status: str
    message: str = ""


@dataclass
class Result:
    lesson: str
    status: str
    checks: list[CheckResult] = field(default_factory=list)
    stdout: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class _CappedText(io.StringIO):
    def write(self, text: str) -> int:
        room = MAX_STDOUT - self.tell()
        if room > 0:
            super().write(text[:room])
            if len(text) > room:
                super().write(f"\n[output cut: more than {MAX_STDOUT} characters]\n")
        return len(text)


class LearnerCode:
    """The learner's top-level names, as attributes; a missing name fails the check clearly."""

    def __init__(self, namespace: dict[str, Any], printed: str = "") -> None:
        self._namespace = namespace
        self._printed = printed

    def __getattr__(self, name: str) -> Any:
        try:
            return self._namespace[name]
        except KeyError:
            raise _checks.CheckFailed(
                f"Your code does not define `{name}`. The starter has it: "
                "was it renamed or deleted?"
            ) from None


def printed(code: LearnerCode) -> str:
    """What the learner's file printed while it ran, before any check (cut at MAX_STDOUT)."""
    return code._printed


def collect_checks(checks_source: str, filename: str = "checks.py") -> list[tuple[str, Any]]:
    """Execute a lesson's checks.py and return its checks as (name, function), in order."""
    _checks._registry.clear()
    try:
        exec(compile(checks_source, filename, "exec"), {"__name__": "lesson_checks"})
        return list(_checks._registry)
    finally:
        _checks._registry.clear()


def _normalise(source: str) -> str:
    lines = [line.rstrip() for line in source.replace("\r\n", "\n").split("\n")]
    return "\n".join(lines).strip("\n")


def is_untouched(source: str, starter: str) -> bool:
    return _normalise(source) == _normalise(starter)


def _learner_line(tb: TracebackType | None, filename: str) -> int | None:
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _describe(error: BaseException, filename: str, call: str | None, limits: Limits) -> str:
    """One or two sentences: what was called, what went wrong, and on which line of theirs."""
    where = f"Calling `{call}`" if call else "Running your code"
    if isinstance(error, (StopRun, KeyboardInterrupt)) and limits.user_stopped():
        return f"{where} was stopped by you before it finished."
    if isinstance(error, (StopRun, KeyboardInterrupt)):
        return (f"{where} was stopped: it ran past {limits.time}. "
                "Look for a loop that never ends or a function that keeps calling itself.")
    if isinstance(error, MemoryError):
        return (f"{where} was stopped: it used more than {limits.memory}. "
                "Look for a list or string that keeps growing.")
    line = _learner_line(error.__traceback__, filename)
    kind = type(error).__name__
    detail = f"{kind}: {error}" if str(error) else kind
    if isinstance(error, RecursionError):
        detail += " (a function kept calling itself and never finished)"
    if line is not None:
        return f"{where} raised {detail} (line {line} of your code)."
    return f"{where} raised {detail}."


def _all(names: list[str], status: str, first: str, rest: str) -> list[CheckResult]:
    return [CheckResult(name, status, first if i == 0 else rest) for i, name in enumerate(names)]


def run_checks(
    source: str,
    checks_source: str,
    *,
    lesson: str = "",
    starter: str | None = None,
    filename: str = "your_code.py",
    checks_filename: str = "checks.py",
    limits: Limits = Limits(),
) -> Result:
    """Execute ``source`` in a fresh namespace, then run every check of ``checks_source`` on it."""
    checks = collect_checks(checks_source, checks_filename)
    names = [name for name, _ in checks]
    if starter is not None and is_untouched(source, starter):
        return Result(lesson, "not-attempted", _all(
            names, "not-attempted",
            "Not attempted yet: this is still the starter. Fill in the TODOs, then check again.",
            "Not attempted yet."))

    not_run = "Not run: your code has to run before it can be checked."
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as error:
        message = f"Your code has a syntax error on line {error.lineno}: {error.msg}."
        return Result(lesson, "error", _all(names, "error", message, not_run))

    out = _CappedText()
    namespace: dict[str, Any] = {"__name__": CHECKED_NAME, "__file__": filename}
    with redirect_stdout(out), redirect_stderr(out):
        try:
            exec(code, namespace)
        except (Exception, StopRun, KeyboardInterrupt) as error:
            message = _describe(error, filename, None, limits)
            return Result(lesson, "error", _all(names, "error", message, not_run), out.getvalue())
        results = _run_each(checks, LearnerCode(namespace, out.getvalue()), filename, limits)

    statuses = {r.status for r in results}
    status = "pass" if statuses <= {"pass"} else "error" if statuses == {"error"} else "fail"
    return Result(lesson, status, results, out.getvalue())


def _run_each(checks: list[tuple[str, Any]], code: LearnerCode, filename: str,
              limits: Limits) -> list[CheckResult]:
    results: list[CheckResult] = []
    for index, (name, function) in enumerate(checks):
        _checks.take_current_call()
        try:
            returned = function(code)
        except _checks.CheckFailed as failure:
            _checks.take_current_call()
            results.append(CheckResult(name, "fail", str(failure)))
        except (Exception, StopRun, KeyboardInterrupt) as error:
            call = _checks.take_current_call()
            results.append(CheckResult(name, "error", _describe(error, filename, call, limits)))
            if isinstance(error, (StopRun, KeyboardInterrupt, MemoryError)):
                # The run is over: what is left cannot be trusted to finish either.
                for later, _ in checks[index + 1:]:
                    results.append(CheckResult(later, "error", "Not run: the run was stopped."))
                break
        else:
            results.append(CheckResult(name, "pass", returned if isinstance(returned, str) else ""))
    return results

