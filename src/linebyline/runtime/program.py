"""Run a learner's whole file, as the Run button does: output streams, errors point at their code."""
from __future__ import annotations

import linecache
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from .runner import StopRun


@dataclass
class RunOutcome:
    status: str  # "ok", "error" or "stopped"
    line: int | None = None  # the learner's line where an error happened


def learner_traceback(error: BaseException, filename: str) -> tuple[str, int | None]:
    """The traceback cut down to the learner's own frames, and the line to point the editor at.

    Frames of our runtime or of Python's library mean nothing to a beginner; the innermost
    frame in their file is where to look.
    """
    summary = traceback.TracebackException.from_exception(error)
    summary.stack = traceback.StackSummary.from_list(
        [frame for frame in summary.stack if frame.filename == filename])
    line = summary.stack[-1].lineno if summary.stack else None
    if isinstance(error, SyntaxError) and error.filename == filename:
        line = error.lineno
    summary.__cause__ = summary.__context__ = None  # the learner's error, not how we got there
    return "".join(summary.format()), line


def run_program(source: str, filename: str,
                user_stopped: Callable[[], bool] = lambda: False) -> RunOutcome:
    """Execute ``source`` as ``__main__``; prints go straight to sys.stdout and sys.stderr."""
    namespace = {"__name__": "__main__", "__file__": filename}
    # The file exists only in the editor: let tracebacks quote its lines all the same.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        exec(compile(source, filename, "exec"), namespace)
    except (StopRun, KeyboardInterrupt):
        print("\nStopped." if user_stopped() else "\nStopped: it ran past the time limit.",
              file=sys.stderr)
        return RunOutcome("stopped")
    except BaseException as error:  # SystemExit included: a learner's exit() ends their run only
        if isinstance(error, SystemExit) and error.code in (None, 0):
            return RunOutcome("ok")
        text, line = learner_traceback(error, filename)
        print(text, end="", file=sys.stderr)
        return RunOutcome("error", line)
    return RunOutcome("ok")
