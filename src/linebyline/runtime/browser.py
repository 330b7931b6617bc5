"""The two calls the browser's Python worker makes, so the glue in JavaScript stays trivial.

The worker takes ``run`` and ``check`` once, when Python starts and before any learner code, and
keeps them: a learner's file that later replaces this module's attributes changes nothing. Python
stays up between runs, so after each one the builtins, the standard-library modules the runtime
copied, this package's modules, sys's streams and the working folder are put back as they were.
``stop_reason`` is a JavaScript function reading the interrupt buffer: 1 when the learner pressed
Stop, 2 when the time limit struck, 0 when nothing from outside interrupted the code.
"""
from __future__ import annotations

import gc
import io
import json
import os
import sys
from collections.abc import Callable, Mapping

from . import seal
from .graph import describe
from .program import run_program

REASONS = {1: "user", 2: "time"}
# The course's modules a learner's file may import (see library.py): the runtime bundle writes
# them beside this package, as one JSON file.
LIBRARY_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "course_library.json")
STREAMS = ("stdin", "stdout", "stderr", "displayhook", "excepthook")


def _entries(evaluate_json=seal.evaluate_json, to_json=seal.to_json, run_program=run_program,
             keep=seal.keep, restore=seal.restore, reasons=REASONS, int=int, sys=sys,
             setattr=setattr, chdir=os.chdir, Text=io.StringIO, describe=describe, dumps=json.dumps,
             library: Mapping[str, str] | None = None
             ) -> tuple[Callable[..., str], Callable[..., str], Callable[..., str]]:
    # Everything used below is taken now, as a default argument or a local: see seal.py.
    folder = os.getcwd()
    streams = {name: getattr(sys, name) for name in STREAMS}
    for name in [name for name in sys.modules if name.startswith(seal.PACKAGE)]:
        keep(name)

    def put_back() -> None:
        restore()
        for name, stream in streams.items():
            setattr(sys, name, stream)
        chdir(folder)

    def reason_of(stop_reason: Callable[[], object]) -> Callable[[], str | None]:
        return lambda: reasons.get(int(stop_reason() or 0))

    # What the last Build run made, for the Graph tab: only the Build's runs keep it (an Explore
    # widget's run must not replace the learner's Values with its own).
    kept: dict[str, object] = {"namespace": {}, "filename": ""}

    def run(source: str, filename: str, stop_reason: Callable[[], object], keep_values: bool = False
            ) -> str:
        """Run the learner's file; return {"status", "line"} as JSON."""
        sys.stdin = Text()  # input() meets an end of file; exit() closes this one, not Python's
        namespace: dict[str, object] = {}
        if keep_values:
            kept["namespace"], kept["filename"] = namespace, filename
        try:
            outcome = run_program(source, filename, reason_of(stop_reason), library, namespace)
        finally:
            put_back()
        return to_json({"status": outcome.status, "line": outcome.line})

    def graph(name: str, rule: str, block: str = "") -> str:
        """The graph of a Value the last Build run made, with its backward() replayed (graph.py)."""
        sys.stdin = Text()
        try:
            # Numbers with fractions: the checks' own to_json writes none, by design.
            return dumps(describe(kept["namespace"], name, rule, kept["filename"], block=block),
                         allow_nan=False)
        except Exception as error:  # the learner's objects answer attribute reads with their own code
            return to_json({"error": f"Your Values could not be read: {type(error).__name__}: {error}",
                            "names": []})
        except KeyboardInterrupt:  # the page's time limit: their backward() never ended
            return to_json({"error": "Drawing stopped: running your backward() again took longer than "
                                     "the time limit. Does it end? Run your file to see.", "names": []})
        finally:
            put_back()

    def check(lesson: str, source: str, checks: str, starter: str, filename: str,
              timeout: float, stop_reason: Callable[[], object], reference: str = "",
              own_starter: str = "") -> str:
        """Run a lesson's checks; return the result as JSON, exactly as the CLI's --json prints it.
        A file equal to ``starter`` or to ``own_starter`` (the on-my-own level's, when the lesson
        has one) is not attempted."""
        try:
            return evaluate_json(
                source, checks, lesson=lesson,
                starter=[starter, own_starter] if own_starter else starter, filename=filename,
                time_limit=f"the {timeout:g} s time limit", memory_limit="the memory available",
                stop_reason=reason_of(stop_reason), reference=reference or None,
                library=library)
        finally:
            put_back()

    return run, check, graph


def _library() -> dict[str, str]:
    if not os.path.exists(LIBRARY_FILE):
        return {}
    with open(LIBRARY_FILE, encoding="utf-8") as file:
        return json.load(file)


run, check, graph = _entries(library=_library())

# What exists now (the standard library, this runtime, its private copies) lives as long as
# Python does. Frozen, it is never scanned by the garbage collector again: in Pyodide one full
# collection of those ~23,000 objects took about 45 ms, and a check that happened to trigger one
# took that much longer (bench/check_profile.py shows it). Collections now scan only what the
# runs themselves made.
gc.collect()
gc.freeze()
