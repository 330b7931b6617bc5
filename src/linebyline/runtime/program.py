"""Run a learner's whole file, as the Run button does: output streams, errors point at their code."""
from __future__ import annotations

import linecache
import sys
from collections.abc import Callable, Mapping
from typing import Any

from .library import CourseModules
from .seal import RECURSION_LIMIT, StopRun
from .source import compile_problem, learner_traceback


class RunOutcome:
    def __init__(self, status: str, line: int | None = None) -> None:
        self.status = status  # "ok", "error" or "stopped"
        self.line = line  # the learner's line where an error happened


def _no_reason() -> str | None:
    return None


def run_program(source: str, filename: str,
                stop_reason: Callable[[], str | None] = _no_reason,
                library: Mapping[str, str] | None = None,
                namespace: dict[str, Any] | None = None) -> RunOutcome:
    """Execute ``source`` as ``__main__``; prints go straight to sys.stdout and sys.stderr.

    ``stop_reason`` says why a KeyboardInterrupt came: "user" (Stop), "time", or None when the
    learner's code raised it itself, which is then shown like any other error. ``library``: the
    course's modules the file may import (:mod:`.library`). ``namespace``: the dict the file runs
    in, for a caller that reads what it made afterwards (the Graph tab); a new one by default.
    """
    with CourseModules(library):
        return _run_program(source, filename, stop_reason, {} if namespace is None else namespace)


def _run_program(source: str, filename: str, stop_reason: Callable[[], str | None],
                 namespace: dict[str, Any]) -> RunOutcome:
    if "\0" in source:
        _, problem = compile_problem(source, filename)
        print(problem, file=sys.stderr)
        return RunOutcome("error", source.count("\n", 0, source.index("\0")) + 1)
    namespace.update({"__name__": "__main__", "__file__": filename})
    # The file exists only in the editor: let tracebacks quote its lines all the same.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        exec(compile(source, filename, "exec"), namespace)
    except (StopRun, KeyboardInterrupt) as error:
        reason = stop_reason()
        if reason is None:
            return _show_error(error, filename)
        print("\nStopped." if reason == "user" else "\nStopped: it ran past the time limit.",
              file=sys.stderr)
        return RunOutcome("stopped")
    except BaseException as error:  # SystemExit included: a learner's exit() ends their run only
        if isinstance(error, SystemExit) and error.code in (None, 0):
            return RunOutcome("ok")
        if isinstance(error, SystemExit) and isinstance(error.code, str):
            print(error.code, file=sys.stderr)  # as Python itself does
            return RunOutcome("error")
        return _show_error(error, filename)
    finally:
        # Python stays up between runs in the browser: a raised limit must not outlive this one.
        sys.setrecursionlimit(RECURSION_LIMIT)
    return RunOutcome("ok")


def _show_error(error: BaseException, filename: str) -> RunOutcome:
    text, line = learner_traceback(error, filename)
    print(text, end="", file=sys.stderr)
    return RunOutcome("error", line)
