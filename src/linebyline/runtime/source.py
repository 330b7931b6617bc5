"""Reading a learner's file as Python reads it: why it cannot be compiled, the traceback cut down
to the learner's own frames, and an exception's own text told safely. Used by both ways a file
runs (runner: checked; program: run), so neither needs the other."""
from __future__ import annotations

import traceback
from types import TracebackType
from typing import Any

MAX_QUOTED = 1_000  # characters of an error's own text quoted in a message
REPEATS_SHOWN = 3  # of a line that calls itself, as Python's own tracebacks show it


def quoted(error: BaseException) -> str:
    """An exception's own text, safely: the learner's class may have a __str__ of its own."""
    try:
        text = str(error)
    except BaseException:  # noqa: BLE001 - whatever their __str__ raises, we still report
        return "(its message could not be shown)"
    if not isinstance(text, str):
        return ""
    text = str.__str__(text)  # a plain str, whatever subclass their __str__ returned
    return text if len(text) <= MAX_QUOTED else text[:MAX_QUOTED] + "…"


def _nul_position(source: str) -> tuple[int, int] | None:
    index = source.find("\0")
    if index < 0:
        return None
    line = source.count("\n", 0, index) + 1
    return line, index - (source.rfind("\n", 0, index) + 1) + 1


def compile_problem(source: str, filename: str) -> tuple[Any, str]:
    """(code object, "") or (None, what stops Python from reading the file, in a sentence)."""
    nul = _nul_position(source)
    if nul is not None:
        return None, (f"Your code contains a NUL character (code 0) on line {nul[0]}, column "
                      f"{nul[1]}, which Python cannot read. It usually comes from pasting from a "
                      "PDF or a binary file: delete it (retyping the line is the surest way).")
    try:
        return compile(source, filename, "exec", dont_inherit=True), ""
    except SyntaxError as error:
        where = f" on line {error.lineno}" if error.lineno else ""
        return None, f"Your code has a syntax error{where}: {error.msg}."
    except (ValueError, RecursionError, MemoryError, OverflowError) as error:
        # Python gives up on some files before parsing them (e.g. hundreds of nested brackets).
        return None, (f"Python could not read your code ({type(error).__name__}: "
                      f"{quoted(error)}). Look for very deeply nested brackets or a huge line.")


def _learner_runs(tb: TracebackType | None, filename: str) -> list[list[Any]]:
    """The learner's frames, outermost first, each run of one line calling itself as
    [first entries (up to REPEATS_SHOWN), how many in all]."""
    runs: list[list[Any]] = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            last = runs[-1][0][-1] if runs else None
            if last is not None and last.tb_frame.f_code is tb.tb_frame.f_code \
                    and last.tb_lineno == tb.tb_lineno:
                runs[-1][1] += 1
                if len(runs[-1][0]) < REPEATS_SHOWN:
                    runs[-1][0].append(tb)
            else:
                runs.append([[tb], 1])
        tb = tb.tb_next
    return runs


def learner_traceback(error: BaseException, filename: str) -> tuple[str, int | None]:
    """The traceback cut down to the learner's own frames, and the line to point the editor at.

    Frames of our runtime or of Python's library mean nothing to a beginner; the innermost
    frame in their file is where to look. A function that called itself a million times keeps
    three of its frames and the count, as Python prints it, so that telling it stays quick.
    """
    runs = _learner_runs(error.__traceback__, filename)
    kept = [entry for entries, _ in runs for entry in entries]
    chain = None
    for entry in reversed(kept):
        chain = TracebackType(chain, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    summary = traceback.TracebackException(type(error), error, chain)
    frames = summary.stack.format()  # one text per frame kept, none repeats more than three
    lines = ["Traceback (most recent call last):\n"] if frames else []
    for entries, count in runs:
        lines += frames[:len(entries)]
        frames = frames[len(entries):]
        if count > len(entries):
            more = count - len(entries)
            lines.append(f"  [Previous line repeated {more} more time{'s' if more > 1 else ''}]\n")
    lines += summary.format_exception_only()
    line = kept[-1].tb_lineno if kept else None
    if isinstance(error, SyntaxError) and error.filename == filename:
        line = error.lineno
    return "".join(lines), line
